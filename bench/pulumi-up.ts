import { existsSync, readFileSync } from "node:fs";
import { homedir } from "node:os";
import { dirname, join } from "node:path";
import { ControlClient } from "../server/control-client";
import { CONTROL_TOKEN, STATUS_ROUTE, WORKSPACE, preciseNow, round, sleep, spawnService } from "./common";
import { newBenchStack, type OpCost, type PulumiCommand } from "./pulumi-stack";
import type { WaitMode } from "./readiness";

export { POLL_INTERVAL_ENV, WAIT_MODE_ENV } from "./pulumi-stack";

export const PULUMI_VERSION = "3.259.0";

/** The checkout's root: the directory of the `pulumi-wws` package.json above this file. */
export function repoRoot(): string {
  for (let dir = __dirname; dir !== dirname(dir); dir = dirname(dir)) {
    const pkg = join(dir, "package.json");
    if (existsSync(pkg) && (JSON.parse(readFileSync(pkg, "utf8")) as { name?: string }).name === "pulumi-wws")
      return dir;
  }
  throw new Error("pulumi-wws package.json not found above bench/");
}

/** `$WWS_PULUMI_BIN_DIR`, else `~/.pulumi/versions/3.259.0/bin`. */
export function pulumiBinDir(): string {
  return process.env.WWS_PULUMI_BIN_DIR ?? join(homedir(), ".pulumi", "versions", PULUMI_VERSION, "bin");
}

/** A bench stack of this checkout on the service `svc`, waiting in stream mode: what most scenarios run. */
export function streamStackOn(
  auto: typeof import("@pulumi/pulumi/automation"),
  pulumiCommand: PulumiCommand,
  svc: { url: string; child: { pid?: number } },
  program: () => Promise<void>,
): ReturnType<typeof newBenchStack> {
  return newBenchStack(auto, pulumiCommand, {
    root: repoRoot(),
    pulumiBinDir: pulumiBinDir(),
    url: svc.url,
    mode: "stream",
    pollIntervalMs: 2000,
    servicePid: svc.child.pid,
    program,
  });
}

/** Whether scenario 3 can run here: a pulumi CLI with the dynamic provider launcher, and a built provider with resource classes. */
export async function pulumiUpAvailability(): Promise<{ ok: true } | { ok: false; reason: string }> {
  const bin = pulumiBinDir();
  for (const f of ["pulumi", "pulumi-resource-pulumi-nodejs"]) {
    if (!existsSync(join(bin, f))) return { ok: false, reason: `no ${join(bin, f)} (run scripts/get-pulumi.sh)` };
  }
  const built = join(repoRoot(), "dist", "provider", "index.js");
  if (!existsSync(built)) return { ok: false, reason: `the provider is not built (${built} missing)` };
  try {
    const provider = (await import("../provider")) as { Pod?: unknown };
    if (typeof provider.Pod !== "function") return { ok: false, reason: "provider/ has no Pod resource class yet" };
  } catch (err) {
    return { ok: false, reason: `provider/ does not load: ${err instanceof Error ? err.message : String(err)}` };
  }
  return { ok: true };
}

export interface UpRow extends Partial<OpCost> {
  /** `up` of a fresh stack, or `destroy` of the stack the `up` before it made. */
  op: "up" | "destroy";
  mode: WaitMode;
  pods: number;
  wallMs: number;
  statusGetsPerPod?: number;
  requestsPerPod?: number;
  /** Most streams open at once on the workspace during the up (sampled every 200 ms), and opened in all. */
  streamsPerWorkspace?: number;
  streamsOpened?: number;
  /** A diagnostic up (extra environment), not one of the side-by-side ones. */
  diagnostic?: string;
  /**
   * From the engine's events, seconds after the operation began: the first pod's step starting,
   * the last pod's step starting, and the last pod's step done.
   */
  timeline?: { firstCreateS: number; lastCreateStartS: number; lastCreateDoneS: number };
  note?: string;
}

export interface PulumiUpResult {
  rows: UpRow[];
  /** The wall of `up` of a program with no resource (CLI start, program, checkpoint): the engine's floor. */
  emptyUpMs?: number;
  /** The service's own time from upsert to Running (two reconcile steps). */
  serviceReadyMs: number;
  /** Set when a measurement is not what it claims (e.g. poll-only not honoured by the provider). */
  note?: string;
  json: Record<string, unknown>;
}

export interface PulumiUpOptions {
  pods: number[];
  rounds: number;
  /** Poll-only ups only up to this many pods (stream mode at every size). @default every size */
  pollMaxPods?: number;
  /** `destroy` after each stream-mode up, measured the same way. @default false */
  destroy?: boolean;
  /** Measure `up` of an empty program first (the floor). @default false */
  floor?: boolean;
  /** More ups after the side-by-side ones, to attribute costs (e.g. `PULUMI_SKIP_CHECKPOINTS`). */
  diagnostics?: Array<{ pods: number; mode: WaitMode; env: Record<string, string>; label: string }>;
  /** The service's reconcile step (the same for every size). */
  stepMs: number;
  pollIntervalMs?: number;
  /** `pulumi up --parallel`; `default`: the flag left out (the CLI's default, 4 × cores). @default 1000: every create at once */
  parallel?: number | "default";
  /** More environment for the CLI (e.g. `PULUMI_SKIP_CHECKPOINTS`). */
  env?: Record<string, string>;
  /** Bound of one `pulumi up` or `destroy`. @default 600000 (10 min) */
  timeoutMs?: number;
  progress?: (line: string) => void;
}

type Automation = typeof import("@pulumi/pulumi/automation");

const seconds = (ms: number): string => `${(ms / 1000).toFixed(1)} s`;

/**
 * Scenario 3: `pulumi up` of a fresh stack of `pods` pods (inline program, local file backend,
 * the real CLI and its dynamic provider process), stream mode and poll-only side by side for
 * each size, against one service process with the same reconcile step throughout; the floor
 * (`up` of no resource) first, and `destroy` after each stream-mode up.
 */
export async function runPulumiUp(options: PulumiUpOptions): Promise<PulumiUpResult> {
  const progress = options.progress ?? (() => undefined);
  const auto: Automation = await import("@pulumi/pulumi/automation");
  const pulumiCommand = await auto.PulumiCommand.get({ root: dirname(pulumiBinDir()) });
  const svc = await spawnService({ reconcileMs: options.stepMs });
  const run = (pods: number, mode: WaitMode, extra: Partial<PulumiUpOptions> = {}): Promise<UpRow[]> =>
    oneStack(auto, pulumiCommand, { url: svc.url, pid: svc.child.pid }, pods, mode, { ...options, ...extra });
  const rows: UpRow[] = [];
  let emptyUpMs: number | undefined;
  try {
    if (options.floor) {
      // Twice: the first also warms the CLI's and the provider's files into the page cache.
      for (let i = 0; i < 2; i++) emptyUpMs = (await run(0, "stream", { destroy: false }))[0].wallMs;
      progress(`pulumi up of no resource (the floor): ${seconds(emptyUpMs ?? 0)}`);
    }
    for (const pods of options.pods) {
      for (let r = 0; r < options.rounds; r++) {
        for (const mode of ["stream", "poll"] as const) {
          if (mode === "poll" && pods > (options.pollMaxPods ?? Infinity)) continue;
          rows.push(...(await run(pods, mode, { destroy: mode === "stream" && options.destroy })));
        }
      }
    }
    for (const d of options.diagnostics ?? []) {
      const [row] = await run(d.pods, d.mode, { env: { ...options.env, ...d.env }, destroy: false });
      row.diagnostic = d.label;
      progress(`pulumi up ${d.mode} ${d.pods} pods, ${d.label}: ${seconds(row.wallMs)}`);
      rows.push(row);
    }
  } finally {
    await svc.stop();
  }
  const pollIgnored = rows.some((r) => r.mode === "poll" && (r.streamsOpened ?? 0) > 0);
  if (pollIgnored) for (const r of rows) if (r.mode === "poll") r.note = "NOT poll-only: the provider ignored the mode";
  const note = pollIgnored
    ? `the provider ignores WWS_WAIT_MODE=poll (poll rows opened event streams): poll-only was not measured, those rows are stream mode too`
    : undefined;
  const serviceReadyMs = 2 * options.stepMs;
  return {
    rows,
    emptyUpMs,
    serviceReadyMs,
    note,
    json: {
      parallel: options.parallel ?? 1000,
      reconcile_step_ms: options.stepMs,
      ...(emptyUpMs !== undefined
        ? { floor: { empty_up_s: round(emptyUpMs / 1000, 2), service_ready_s: round(serviceReadyMs / 1000, 2) } }
        : {}),
      ...(note ? { note } : {}),
      rows: rows.map((r) => ({
        ...(r.diagnostic ? { diagnostic: r.diagnostic } : {}),
        op: r.op,
        mode: r.mode,
        pods: r.pods,
        wall_s: round(r.wallMs / 1000, 2),
        provider_peak_rss_mb: r.peakRssMb !== undefined ? round(r.peakRssMb, 1) : undefined,
        written_mb: r.writtenBytes !== undefined ? round(r.writtenBytes / 2 ** 20, 1) : undefined,
        checkpoint_kb: r.checkpointBytes !== undefined ? round(r.checkpointBytes / 1024, 1) : undefined,
        status_gets_per_pod: r.statusGetsPerPod,
        requests_per_pod: r.requestsPerPod,
        streams_per_workspace: r.streamsPerWorkspace,
        streams_opened: r.streamsOpened,
        cpu_s: r.cpuS,
        ...(r.timeline
          ? {
              first_step_s: r.timeline.firstCreateS,
              last_step_start_s: r.timeline.lastCreateStartS,
              last_step_done_s: r.timeline.lastCreateDoneS,
            }
          : {}),
      })),
    },
  };
}

let upCounter = 0;

/** `up` of a fresh stack of `pods` pods, then (with `options.destroy`) its `destroy`: a row each. */
async function oneStack(
  auto: Automation,
  pulumiCommand: PulumiCommand,
  service: { url: string; pid?: number },
  pods: number,
  mode: WaitMode,
  options: PulumiUpOptions,
): Promise<UpRow[]> {
  const control = new ControlClient(service.url, CONTROL_TOKEN);
  const prefix = `up${process.pid}x${++upCounter}`;
  const program = async (): Promise<void> => {
    const { Pod } = await import("../provider");
    for (let i = 0; i < pods; i++)
      new Pod(`pod-${i}`, { workloadId: `${prefix}-${i}`, image: "nginx:1.27", readyTimeoutSeconds: 120 });
  };
  const s = await newBenchStack(auto, pulumiCommand, {
    root: repoRoot(),
    pulumiBinDir: pulumiBinDir(),
    url: service.url,
    mode,
    pollIntervalMs: options.pollIntervalMs ?? 2000,
    servicePid: service.pid,
    env: options.env,
    program,
  });
  const controller = new AbortController();
  const timer = setTimeout(() => controller.abort(), options.timeoutMs ?? 600_000);
  let output = "";
  const isPod = (type: string | undefined): boolean => type !== undefined && type.endsWith("wws:Pod");
  /** One operation with its counters, stream sampling and per-pod timeline. */
  const operation = async (op: "up" | "destroy"): Promise<UpRow> => {
    const starts: number[] = [];
    const dones: number[] = [];
    let t0 = preciseNow();
    let active = true;
    let streamsMax = 0;
    await control.resetCounters();
    const sampler = (async () => {
      while (active) {
        const c = await control.counters();
        streamsMax = Math.max(streamsMax, c.streams.byWorkspace[WORKSPACE] ?? 0);
        await sleep(200);
      }
    })();
    const common = {
      signal: controller.signal,
      onOutput: (text: string) => (output = (output + text).slice(-4000)),
      onEvent: (e: import("@pulumi/pulumi/automation").EngineEvent) => {
        if (e.resourcePreEvent && isPod(e.resourcePreEvent.metadata.type)) starts.push(preciseNow() - t0);
        if (e.resOutputsEvent && isPod(e.resOutputsEvent.metadata.type)) dones.push(preciseNow() - t0);
      },
    };
    const parallel = options.parallel === "default" ? {} : { parallel: options.parallel ?? 1000 };
    let measured;
    try {
      measured = await s.measure(async () => {
        t0 = preciseNow();
        return op === "up"
          ? (await s.stack.up({ ...common, ...parallel })).summary
          : (await s.stack.destroy({ ...common, ...parallel })).summary;
      });
    } finally {
      active = false;
      await sampler;
    }
    const changed = measured.result.resourceChanges?.[op === "up" ? "create" : "delete"] ?? 0;
    if (changed !== pods + 1)
      throw new Error(`pulumi ${op} changed ${changed} resources, expected ${pods} pods and the stack`);
    const counters = await control.counters();
    const per = (n: number): number | undefined => (pods > 0 ? round(n / pods) : undefined);
    return {
      op,
      mode,
      pods,
      ...measured.cost,
      statusGetsPerPod: per(counters.requests.byRoute[STATUS_ROUTE] ?? 0),
      requestsPerPod: per(counters.requests.total),
      streamsPerWorkspace: streamsMax,
      streamsOpened: counters.streams.opened,
      ...(starts.length > 0 && dones.length > 0
        ? {
            timeline: {
              firstCreateS: round(Math.min(...starts) / 1000),
              lastCreateStartS: round(Math.max(...starts) / 1000),
              lastCreateDoneS: round(Math.max(...dones) / 1000),
            },
          }
        : {}),
    };
  };
  const report = (row: UpRow): UpRow => {
    options.progress?.(
      `pulumi ${row.op} ${mode} ${pods} pods: ${seconds(row.wallMs)}, provider peak RSS ${row.peakRssMb?.toFixed(0) ?? "?"} MiB`,
    );
    return row;
  };
  try {
    const rows = [report(await operation("up"))];
    if (options.destroy) rows.push(report(await operation("destroy")));
    return rows;
  } catch (err) {
    throw new Error(
      `pulumi up/destroy of ${pods} pods (${mode}) failed: ${err instanceof Error ? err.message : String(err)}\n${output}`,
    );
  } finally {
    clearTimeout(timer);
    s.cleanup();
  }
}
