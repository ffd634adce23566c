import { writeFileSync } from "node:fs";
import { availableParallelism, cpus, loadavg } from "node:os";
import { join } from "node:path";
import { clockOffset, preciseNow, round, spawnService } from "./common";
import { runFanout } from "./fanout";
import { pulumiUpAvailability, repoRoot, runPulumiUp, type PulumiUpOptions, type PulumiUpResult } from "./pulumi-up";
import { measureReadiness, type ReadinessResult, type WaitMode } from "./readiness";
import { addFanout, addReadiness, newReport, render, type FanoutRow } from "./report";
import { addPulumiUp } from "./report-up";
import { renderSvg } from "./svg";
import { measureProgramCpu } from "./program-cpu";
import { runVmsVsPods } from "./vms";
import { addParallel, runParallel } from "./parallel";
import type { Backend } from "./fleet";
import { addFleet } from "./report-fleet";
import { FLEET_VARIANTS, runScale, type FleetVariant, type ScalePlan } from "./scale";
import { addLatency, runLatency } from "./latency";
import { addWatch, runWatchBench } from "./watch";
import { addUpdateProfiles, runUpdateProfiles } from "./update-profiles";
import { addFloor, runFloor } from "./floor";
import { addRehearse, runRehearseBench } from "./rehearse";
import { addWatchFleet, runWatchFleetBench, WATCH_FLEET_PLAN } from "./watch-fleet";

/**
 * `npm run bench [-- --quick] [--only=1,3,4] [--pods=10,100] [--svg=PATH] [--trace] [--service-cpu-prof=DIR] [--provider-cpu-prof=DIR]`
 *
 * Scenarios, stream-driven wait and poll-only measured side by side in one run:
 * 1. readiness latency of N concurrent waiters; 2. request cost per wait (counted in the rounds of 1);
 * 3. `pulumi up` and `destroy` of 10 to 1,000 pods: wall time against the floor, CPU per process,
 * the provider's peak memory, bytes the CLI writes; 4. the service's fan-out to 1,000
 * subscribers; 5. VMs with a password against pods; 6. the stack program's CPU for 300 pods,
 * ours against `@pulumi/pulumi`'s; 7. `pulumi up` of 200 pods at the engine's default parallelism and
 * at `--parallel 200`; 8. pods at scale through examples/fleet: one stack of 1,000 and 2,000, and
 * 2,000 in 8 stacks at once, on the file backend and on PostgreSQL (an hour or more: only with
 * `--only=8`); 9. far from the service: preview, `up` at `--parallel N`, an unchanged preview,
 * refresh and destroy of N new pods (200, or the first of `--pods`) with 0 and 100 ms added to each
 * answer (about 3 minutes: only with `--only=9`); 10. the drift watch (`pulumi-wws watch`): 200 pods in 2
 * stacks, 120 changes through the API, latency from the service's record to the finding; 11. the seed-only update and restart: `pulumi up`
 * of an update, then of a restart, of 10 pods against the full and the spec profile, side by side, and their ratios; 12. refresh
 * against the engine's floor: `pulumi refresh` of 200 pods and of 200 no-op dynamic resources, with
 * `--floor-compare=DIR` another built checkout beside this one; 13. a rehearsal
 * (`pulumi-wws rehearse`) of a 200-pod change against `pulumi up` of the same change, side by side;
 * 14. the drift watch as a team's service: one `pulumi-wws watch` process with a webhook and
 * `--listen` for 50 stacks across 10 workspaces (2,000 pods), and one for a stack of 200, latency to
 * stdout and to the webhook, memory, idle CPU (`--watch-fleet=STACKS/WORKSPACES/PODS/SINGLE` for other sizes). Progress goes to stderr; stdout gets the table, the targets, and a last line
 * holding one JSON object. A full run (or `--svg=PATH`) also draws the picture (`bench/svg.ts`)
 * to `bench/last-run.svg`, the one docs/performance.md shows.
 */

export interface BenchPlan {
  quick: boolean;
  /** Reconcile step of the services: Running comes two steps after an upsert. */
  stepMs: number;
  pollIntervalMs: number;
  readiness: Array<{ n: number; rounds: Record<WaitMode, number> }>;
  fanout: Array<{ label: string; subscribers: number; events: number; ratePerSec: number }>;
  /** undefined: scenario 3 is skipped, with `skipReason`. */
  pulumiUp?: Pick<PulumiUpOptions, "pods" | "rounds" | "pollMaxPods" | "destroy" | "floor" | "diagnostics">;
  skipReason?: string;
  /** Scenario 8; undefined: skipped. */
  scale?: ScalePlan;
  /** Scenario 11 (on services with their own reconcile step, as a user runs them); undefined: skipped. */
  updateProfiles?: { pods: number; rounds: number };
  /** Scenario 12; undefined: skipped. */
  floor?: { resources: number; rounds: number };
}

/** About 30-35 s of measuring (plus the build): fits the 60 s of `--quick`. */
export const QUICK_PLAN: BenchPlan = {
  quick: true,
  stepMs: 1250,
  pollIntervalMs: 2000,
  readiness: [
    { n: 1, rounds: { stream: 3, poll: 3 } },
    { n: 100, rounds: { stream: 1, poll: 1 } },
  ],
  fanout: [{ label: "5k/s", subscribers: 1000, events: 10_000, ratePerSec: 5000 }],
  skipReason:
    "left out of --quick: `pulumi up` and `destroy` of 10 to 1,000 pods take several minutes (run `npm run bench` for it)",
};

/** About 10 minutes on 2 cores. */
export const FULL_PLAN: BenchPlan = {
  quick: false,
  stepMs: 1250,
  pollIntervalMs: 2000,
  readiness: [
    { n: 1, rounds: { stream: 10, poll: 10 } },
    { n: 100, rounds: { stream: 3, poll: 3 } },
    { n: 500, rounds: { stream: 3, poll: 3 } },
  ],
  fanout: [
    { label: "5k/s", subscribers: 1000, events: 20_000, ratePerSec: 5000 },
    { label: "10k/s", subscribers: 1000, events: 20_000, ratePerSec: 10_000 },
  ],
  pulumiUp: {
    pods: [10, 100, 300, 1000],
    rounds: 1,
    // Poll-only beside stream mode where it is a comparison, not a scale test.
    pollMaxPods: 300,
    destroy: true,
    floor: true,
    // Attribution: the same ups without the engine's per-step checkpoints.
    diagnostics: [300, 1000].map((pods) => ({
      pods,
      mode: "stream" as const,
      env: { PULUMI_SKIP_CHECKPOINTS: "true" },
      label: "PULUMI_SKIP_CHECKPOINTS=true",
    })),
  },
  scale: {
    single: [1000, 2000],
    fleet: { pods: 2000, stacks: 8 },
    backends: ["file", "postgres"],
    fleetRuns: [...FLEET_VARIANTS],
  },
  updateProfiles: { pods: 10, rounds: 3 },
  floor: { resources: 200, rounds: 3 },
};

export interface Args {
  quick: boolean;
  only: Set<number>;
  trace: boolean;
  serviceCpuProf?: string;
  /** Scenario 3's sizes instead of the plan's; the first is scenario 9's count. */
  pods?: number[];
  /** Scenario 5's count of VMs and of pods. @default 100 */
  vms?: number;
  /** Where the picture goes. @default bench/last-run.svg of the checkout, on a full run only */
  svg?: string;
  /** Scenario 8's single-stack sizes, fleet (`pods/stacks`, or none) and backends instead of the plan's. */
  scale?: number[];
  fleet?: { pods: number; stacks: number } | "none";
  /** Which of the fleet's runs: `plain`, `skip` (no checkpoints), `lz4` (lz4 TOAST compression). */
  fleetRuns?: FleetVariant[];
  backends?: Backend[];
  /** Scenario 14's sizes instead of the plan's. */
  watchFleet?: { stacks: number; workspaces: number; workloads: number; single?: number };
  /** Scenario 12: other built checkouts measured beside this one (`--floor-compare=DIR`, repeatable). */
  floorCompare?: string[];
  /** Scenario 12: where the dynamic provider processes write their CPU profiles (`--provider-cpu-prof=DIR`). */
  providerCpuProf?: string;
}

const USAGE =
  "Usage: npm run bench [-- --quick] [--only=1,2,3,4,5,6,7,8,9,10,11,12,13,14] [--watch-fleet=50/10/2000/200] [--pods=10,100] [--vms=100] [--scale=1000,2000] [--fleet=2000/8|none] [--fleet-runs=plain,skip,lz4] [--backends=file,postgres] [--floor-compare=DIR] [--provider-cpu-prof=DIR] [--svg=PATH] [--trace] [--service-cpu-prof=DIR]";

export function parseArgs(argv: readonly string[]): Args {
  // Scenarios 8 (an hour or more) and 9 (a few minutes, latency of its own) run only when named.
  const args: Args = { quick: false, only: new Set([1, 2, 3, 4, 5, 6, 7, 10, 11, 12, 13, 14]), trace: false };
  for (const a of argv) {
    if (a === "--quick") args.quick = true;
    else if (a === "--trace") args.trace = true;
    else if (a.startsWith("--only=")) args.only = new Set(a.slice(7).split(",").map(Number));
    else if (a.startsWith("--service-cpu-prof=")) args.serviceCpuProf = a.slice(19);
    else if (a.startsWith("--pods=")) args.pods = a.slice(7).split(",").map(Number);
    else if (a.startsWith("--vms=")) args.vms = Number(a.slice(6));
    else if (a.startsWith("--svg=")) args.svg = a.slice(6);
    else if (a.startsWith("--scale=")) args.scale = a.slice(8).split(",").filter(Boolean).map(Number);
    else if (/^--fleet=\d+\/\d+$/.test(a)) {
      const [pods, stacks] = a.slice(8).split("/").map(Number);
      args.fleet = { pods, stacks };
    } else if (a === "--fleet=none") args.fleet = "none";
    else if (/^--fleet-runs=((plain|skip|lz4),?)+$/.test(a)) args.fleetRuns = a.slice(13).split(",") as FleetVariant[];
    else if (/^--backends=((file|postgres),?)+$/.test(a)) args.backends = a.slice(11).split(",") as Backend[];
    else if (/^--watch-fleet=\d+\/\d+\/\d+(\/\d+)?$/.test(a)) {
      const [stacks, workspaces, workloads, single] = a.slice(14).split("/").map(Number);
      args.watchFleet = { stacks, workspaces, workloads, ...(single ? { single } : {}) };
    } else if (a.startsWith("--floor-compare=")) args.floorCompare = [...(args.floorCompare ?? []), a.slice(16)];
    else if (a.startsWith("--provider-cpu-prof=")) args.providerCpuProf = a.slice(20);
    else throw new Error(`unknown argument ${a}\n${USAGE}`);
  }
  // Scenario 2 is counted in the rounds of scenario 1.
  if (args.only.has(2)) args.only.add(1);
  return args;
}

const started = preciseNow();
const progress = (line: string): void =>
  void process.stderr.write(`[bench ${((preciseNow() - started) / 1000).toFixed(1)}s] ${line}\n`);

/**
 * Scenarios 1 and 2 on one service process (reconcile step `plan.stepMs`): a warm-up round, then
 * for each N the stream mode and the poll-only mode, one after the other.
 */
export async function runReadiness(
  plan: BenchPlan,
  opts: { trace?: boolean; serviceCpuProf?: string } = {},
): Promise<ReadinessResult[]> {
  const execArgv = opts.serviceCpuProf ? ["--cpu-prof", `--cpu-prof-dir=${opts.serviceCpuProf}`] : [];
  const svc = await spawnService({ reconcileMs: plan.stepMs, execArgv });
  // The same waits against a service that shows only what the published spec names: its activity
  // rows name no workload, so every row may be anyone's (the cost the waiter's spacing bounds).
  const specSvc = await spawnService({ reconcileMs: plan.stepMs, profile: "spec" }).catch(async (err: unknown) => {
    await svc.stop();
    throw err;
  });
  const results: ReadinessResult[] = [];
  try {
    const offset = await clockOffset(svc.url);
    progress(
      `readiness: service ${svc.url}, its clock ${offset ? `${offset.offsetMs} ± ${offset.uncertaintyMs} ms` : "(not measured)"} from ours`,
    );
    const common = { stepMs: plan.stepMs, pollIntervalMs: plan.pollIntervalMs, clockOffsetMs: offset?.offsetMs ?? 0 };
    const full = { ...common, url: svc.url, servicePid: svc.child.pid };
    const spec = { ...common, url: specSvc.url, servicePid: specSvc.child.pid };
    // Warm-up, not reported: JIT of both processes on the upsert, stream and status paths.
    await measureReadiness({ ...full, n: 50, rounds: 1, mode: "stream", idPrefix: "warm" });
    await measureReadiness({ ...spec, n: 50, rounds: 1, mode: "stream", idPrefix: "warm" });
    for (const { n, rounds } of plan.readiness) {
      const runs = [
        { profile: "full", mode: "stream", target: full },
        { profile: "full", mode: "poll", target: full },
        { profile: "spec", mode: "stream", target: spec },
      ] as const;
      for (const { profile, mode, target } of runs) {
        const r: ReadinessResult = {
          ...(await measureReadiness({ ...target, n, rounds: rounds[mode], mode, trace: opts.trace, seed: n })),
          profile,
        };
        progress(
          `readiness ${mode} (${profile} profile) n=${n}: p50 ${r.p50Ms} ms, p99 ${r.p99Ms} ms, ${r.statusGetsPerWait} status GETs/wait, ${r.streamsPerWorkspace} stream(s)`,
        );
        results.push(r);
      }
    }
  } finally {
    await Promise.all([svc.stop(), specSvc.stop()]);
  }
  return results;
}

export async function main(argv: readonly string[]): Promise<string> {
  const args = parseArgs(argv);
  const plan = args.quick ? QUICK_PLAN : FULL_PLAN;
  progress(
    `${plan.quick ? "quick" : "full"} run on ${availableParallelism()} cores (${cpus()[0]?.model ?? "unknown CPU"}), node ${process.version}`,
  );
  const report = newReport({ quick: plan.quick, pollIntervalMs: plan.pollIntervalMs, stepMs: plan.stepMs });

  const readiness = args.only.has(1)
    ? await runReadiness(plan, { trace: args.trace, serviceCpuProf: args.serviceCpuProf })
    : [];
  if (args.only.has(1)) addReadiness(report, readiness);
  let up: PulumiUpResult | undefined;

  if (args.only.has(4)) {
    const rows: FanoutRow[] = [];
    for (const f of plan.fanout) {
      progress(`fan-out ${f.label}: ${f.subscribers} subscribers, ${f.events} events at ${f.ratePerSec}/s`);
      const r = await runFanout({ ...f, timeoutMs: 30_000 });
      progress(`fan-out ${f.label}: ${r.eventsPerSecPerSubscriber} events/s per subscriber, p99 ${r.latencyMs.p99} ms`);
      rows.push({ ...r, label: f.label });
    }
    addFanout(report, rows);
  }

  if (args.only.has(3)) {
    const availability = plan.pulumiUp
      ? await pulumiUpAvailability()
      : { ok: false as const, reason: plan.skipReason ?? "not planned" };
    if (!plan.pulumiUp || !availability.ok) {
      const reason = availability.ok ? (plan.skipReason ?? "not planned") : availability.reason;
      progress(`pulumi up: skipped: ${reason}`);
      addPulumiUp(report, { skipped: reason });
    } else {
      const pods = args.pods ?? plan.pulumiUp.pods;
      const diagnostics = plan.pulumiUp.diagnostics?.filter((d) => pods.includes(d.pods));
      up = await runPulumiUp({
        ...plan.pulumiUp,
        pods,
        diagnostics,
        stepMs: plan.stepMs,
        pollIntervalMs: plan.pollIntervalMs,
        progress,
      });
      addPulumiUp(report, up);
    }
  }

  // Scenario 5: VMs with a password against pods (left out of --quick: 24 CLI runs of 100).
  if (args.only.has(5) && !plan.quick) {
    const vms = await runVmsVsPods({ count: args.vms ?? 100, rounds: 4, stepMs: plan.stepMs, progress });
    report.json.vms_vs_pods = vms.json;
    const byOrder = vms.json.vms_over_pods_by_order as Record<string, Record<string, number>>;
    for (const [order, r] of Object.entries(byOrder))
      report.targets.push({
        name: `VMs with a password vs pods, ${args.vms ?? 100} each, ${order} (median of 2 rounds)`,
        target: "≤ 1.3× the wall of pulumi preview and of pulumi up of a new stack",
        value: `preview ${r.preview}×, up ${r.up}× (and an unchanged stack's preview ${r["preview (no changes)"]}×)`,
        met: r.preview <= 1.3 && r.up <= 1.3,
      });
  }

  // Scenario 6: the stack program's CPU for 300 pods, by owner (mocked engine: a few seconds).
  if (args.only.has(6)) {
    const cpu = await measureProgramCpu(300);
    report.json.program_cpu = cpu;
    const owners = Object.entries(cpu.byOwner)
      .map(([owner, ms]) => `${owner} ${ms} ms`)
      .join(", ");
    progress(
      `program CPU of ${cpu.count} pods (constructed and registered, mocked engine): ${cpu.cpuMs} ms; sampled: ${owners}; most of @pulumi/pulumi's: ${cpu.topPulumi.map((f) => `${f.fn} ${f.ms} ms`).join(", ")}`,
    );
  }

  // Scenario 7: the engine's default parallelism against --parallel 200 (left out of --quick: 4 ups of 200).
  if (args.only.has(7) && !plan.quick)
    addParallel(report, await runParallel({ pods: 200, rounds: 2, stepMs: plan.stepMs, progress }));

  if (args.only.has(8)) {
    if (!plan.scale) progress("scenario 8: skipped: left out of --quick (an hour or more)");
    else {
      const scale: ScalePlan = {
        ...plan.scale,
        single: args.scale ?? plan.scale.single,
        fleet: args.fleet === "none" ? undefined : (args.fleet ?? plan.scale.fleet),
        fleetRuns: args.fleetRuns ?? plan.scale.fleetRuns,
        backends: args.backends ?? plan.scale.backends,
      };
      const { rows, failures } = await runScale(scale, { stepMs: plan.stepMs, progress });
      addFleet(report, rows);
      if (failures.length > 0) report.json.fleet_failures = failures;
    }
  }

  // Scenario 9: far from the service (0 and 100 ms added to each answer).
  if (args.only.has(9))
    addLatency(
      report,
      await runLatency({ pods: args.pods?.[0] ?? 200, latenciesMs: [0, 100], stepMs: plan.stepMs, progress }),
    );

  // Scenario 10: the drift watch, 200 pods in 2 stacks (2 × pulumi up of 100, then ~1 minute of changes).
  if (args.only.has(10) && !plan.quick)
    addWatch(report, await runWatchBench({ stacks: 2, pods: 100, changes: 120, progress }));

  // Scenario 11: the seed-only update and restart against the full ones (left out of --quick: 18 CLI runs).
  if (args.only.has(11)) {
    if (!plan.updateProfiles) progress("scenario 11: skipped: left out of --quick (about two minutes)");
    else addUpdateProfiles(report, await runUpdateProfiles({ ...plan.updateProfiles, progress }));
  }

  // Scenario 12: refresh of 200 pods against 200 no-op dynamic resources (left out of --quick: 6+ CLI runs).
  if (args.only.has(12)) {
    if (!plan.floor) progress("scenario 12: skipped: left out of --quick (about two minutes)");
    else
      addFloor(
        report,
        await runFloor({ ...plan.floor, compare: args.floorCompare, cpuProfDir: args.providerCpuProf, progress }),
      );
  }

  // Scenario 13: a rehearsal against the up of the same change (left out of --quick: about a minute).
  if (args.only.has(13) && !plan.quick)
    addRehearse(report, await runRehearseBench({ pods: args.pods?.[0] ?? 200, progress }));

  // Scenario 14: the watch as a service (left out of --quick: a few minutes of CLI runs and changes).
  if (args.only.has(14) && !plan.quick)
    addWatchFleet(report, await runWatchFleetBench({ ...WATCH_FLEET_PLAN, ...args.watchFleet }, progress));

  report.json.wall_s = round((preciseNow() - started) / 1000, 1);
  // Other tenants of a shared machine: the load average over the last 1, 5 and 15 minutes.
  report.json.load_avg = loadavg().map((l) => round(l, 1));
  const svg = args.svg ?? (plan.quick || args.only.size < 4 ? undefined : join(repoRoot(), "bench", "last-run.svg"));
  if (svg) {
    const caption = `npm run bench, ${new Date().toISOString().slice(0, 16).replace("T", " ")} UTC, ${availableParallelism()} cores (${cpus()[0]?.model ?? "unknown CPU"}), shared`;
    writeFileSync(svg, renderSvg({ readiness, up, pollIntervalMs: plan.pollIntervalMs, caption }));
    progress(`picture: ${svg}`);
  }
  return render(report);
}

if (require.main === module) {
  main(process.argv.slice(2)).then(
    (text) => process.stdout.write(`${text}\n`),
    (err: unknown) => {
      console.error(err);
      process.exit(1);
    },
  );
}
