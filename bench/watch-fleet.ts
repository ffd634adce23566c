import { execFileSync } from "node:child_process";
import { mkdirSync, mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { dirname, join } from "node:path";
import { spawnService } from "./common";
import { cliEnv, linkPackages } from "./pulumi-stack";
import { pulumiBinDir, repoRoot } from "./pulumi-up";
import type { Report } from "./report";
import { deployFleet, type FleetStack } from "./watch-fleet-stacks";
import { measureWatchProcess, type WatchProcessFigures } from "./watch-process";

export interface WatchFleetPlan {
  stacks: number;
  workspaces: number;
  workloads: number;
  /** The one stack measured beside the fleet. */
  single: number;
  changes: number;
  idleS: number;
}

export const WATCH_FLEET_PLAN: WatchFleetPlan = {
  stacks: 50,
  workspaces: 10,
  workloads: 2000,
  single: 200,
  changes: 200,
  idleS: 30,
};

const PROJECT = "wws-bench-fleet";

/**
 * The RSS of a `node` that has only loaded what `pulumi-wws watch` loads (the CLI's entry, then the
 * watch command's modules) and watches nothing: the floor under the watch's own memory. From the
 * entry, not the command alone: the entry once loaded every command's modules, Pulumi's language
 * SDK among them, and a floor taken from the command alone did not show it.
 */
export function modulesRssMb(root: string): number {
  const cli = join(root, "dist", "cli");
  const script = `require(${JSON.stringify(join(cli, "main.js"))});
require(${JSON.stringify(join(cli, "watch", "run.js"))});
setTimeout(() => process.stdout.write(String(process.memoryUsage().rss)), 1000);`;
  return Math.round(Number(execFileSync(process.execPath, ["-e", script], { encoding: "utf8" })) / 2 ** 20);
}

/**
 * Scenario 14: the drift watch as a team's service. One `pulumi-wws watch` process (the built CLI,
 * with a webhook and `--listen`) of `stacks` stacks across `workspaces` workspaces holding
 * `workloads` pods, and, in the same run against the same service, one of a single stack of
 * `single` pods: latency from the service's record of a change to the finding on stdout and at the
 * webhook, the process's memory, and while idle its CPU, requests and spawned processes. The
 * stacks are deployed by `deployFleet` (one real `pulumi up` per size, the others cloned).
 */
export async function runWatchFleetBench(
  plan: WatchFleetPlan,
  progress: (line: string) => void,
): Promise<{ processes: WatchProcessFigures[]; modulesRssMb: number }> {
  const ws = (i: number): string => `bench-w${String(i).padStart(2, "0")}`;
  const fleet: FleetStack[] = Array.from({ length: plan.stacks }, (_, i) => ({
    name: `fleet-s${String(i).padStart(2, "0")}`,
    workspace: ws(i % plan.workspaces),
    pods: Math.round(plan.workloads / plan.stacks),
  }));
  const single: FleetStack = { name: "single-s00", workspace: "bench-single", pods: plan.single };
  const svc = await spawnService({
    reconcileMs: 20,
    workspaces: [...new Set(fleet.map((s) => s.workspace)), single.workspace],
  });
  const tmp = mkdtempSync(join(tmpdir(), "wws-bench-fleet-"));
  const workDir = join(tmp, "project");
  mkdirSync(join(tmp, "backend"));
  linkPackages(repoRoot(), workDir);
  const env = {
    ...(process.env as Record<string, string>),
    ...cliEnv(pulumiBinDir(), svc.url),
    PULUMI_BACKEND_URL: `file://${join(tmp, "backend")}`,
  };
  try {
    const auto = await import("@pulumi/pulumi/automation");
    const pulumiCommand = await auto.PulumiCommand.get({ root: dirname(pulumiBinDir()) });
    const t0 = Date.now();
    const deployed = await deployFleet([single, ...fleet], {
      auto,
      pulumiCommand,
      url: svc.url,
      workDir,
      env,
      project: PROJECT,
      concurrency: 4,
      progress,
    });
    progress(`watch fleet: deployed in ${Math.round((Date.now() - t0) / 1000)} s`);
    const common = { root: repoRoot(), url: svc.url, workDir, env, idleS: plan.idleS, progress };
    const inFleet = new Set(fleet.map((s) => s.workspace));
    const processes = [
      await measureWatchProcess({
        ...common,
        label: `${plan.stacks} stacks`,
        stacks: fleet.map((s) => s.name),
        workloads: deployed.filter((w) => inFleet.has(w.workspace)),
        changes: plan.changes,
      }),
      await measureWatchProcess({
        ...common,
        label: "1 stack",
        stacks: [single.name],
        workloads: deployed.filter((w) => w.workspace === single.workspace),
        changes: Math.ceil(plan.changes / 2),
      }),
    ];
    return { processes, modulesRssMb: modulesRssMb(repoRoot()) };
  } finally {
    await svc.stop();
    rmSync(tmp, { recursive: true, force: true });
  }
}

const plural = (n: number, noun: string): string => `${n} ${noun}${n === 1 ? "" : "s"}`;

/** Scenario 14's table and targets (issue 49's figures). */
export function addWatchFleet(
  report: Report,
  { processes: all, modulesRssMb }: { processes: WatchProcessFigures[]; modulesRssMb: number },
): void {
  const ms = (x: { p50: number; p99: number }): string => `${x.p50} / ${x.p99} ms`;
  report.sections.push({
    title: "14 drift watch as a service: one `pulumi-wws watch` process (--webhook, --listen), changes through the API",
    columns: [
      "watch of",
      "reported stdout / webhook",
      "stdout p50 / p99",
      "webhook p50 / p99",
      "false / dup",
      "RSS (peak)",
      "idle CPU",
      "idle requests / spawned",
      "load (busy)",
    ],
    rows: all.map((r) => [
      `${plural(r.stacks, "stack")}, ${plural(r.workspaces, "workspace")}, ${r.workloads} pods`,
      `${r.reported.stdout}/${r.changes} / ${r.reported.webhook}/${r.changes}`,
      ms(r.stdoutMs),
      ms(r.webhookMs),
      `${r.falseReports} / ${r.webhookDuplicates}`,
      `${r.rssMb} MB (${r.peakRssMb}), heap ${r.heapMb} MB`,
      `${r.idle.cpuPctOfCore}% of a core`,
      `${r.idle.requests} / ${r.idle.spawned} (${r.idle.childCpuMs} ms)`,
      `${r.machine.loadAvg1} (${r.machine.busyPct ?? "?"}%)`,
    ]),
  });
  for (const r of all) {
    const of = `watch of ${plural(r.stacks, "stack")}, ${r.workloads} pods`;
    const complete = r.reported.stdout === r.changes && r.reported.webhook === r.changes;
    report.targets.push(
      {
        name: `${of}: service record → stdout and webhook, p50`,
        target: "≤ 200 ms",
        value: `${r.stdoutMs.p50} ms, ${r.webhookMs.p50} ms`,
        met: complete && Math.max(r.stdoutMs.p50, r.webhookMs.p50) <= 200,
      },
      {
        name: `${of}: service record → stdout and webhook, p99`,
        target: "≤ 1 s",
        value: `${r.stdoutMs.p99} ms, ${r.webhookMs.p99} ms`,
        met: complete && Math.max(r.stdoutMs.p99, r.webhookMs.p99) <= 1000,
      },
      {
        name: `${of}: resident memory`,
        target: "≤ 150 MB",
        value: `${r.rssMb} MB (its modules alone: ${modulesRssMb} MB)`,
        met: r.rssMb <= 150,
      },
      {
        name: `${of}: CPU while idle`,
        target: "≤ 1% of a core",
        value: `${r.idle.cpuPctOfCore}%`,
        met: r.idle.cpuPctOfCore <= 1,
      },
      {
        name: `${of}: requests and spawned processes while idle`,
        target: "none",
        value: `${r.idle.requests} requests, ${r.idle.spawned} processes`,
        met: r.idle.requests === 0 && r.idle.spawned === 0 && r.idle.childCpuMs === 0,
      },
    );
  }
  report.json.watch_fleet = { processes: all, modulesRssMb };
}
