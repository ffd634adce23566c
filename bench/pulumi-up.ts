import { existsSync, mkdirSync, mkdtempSync, readFileSync, readdirSync, rmSync, symlinkSync } from "node:fs";
import { homedir, tmpdir } from "node:os";
import { dirname, join } from "node:path";
import { ControlClient } from "../server/control-client";
import { API_KEY, CONTROL_TOKEN, STATUS_ROUTE, WORKSPACE, childrenCpuMs, preciseNow, round, sleep, spawnService } from "./common";
import type { WaitMode } from "./readiness";

export const PULUMI_VERSION = "3.259.0";
/**
 * The environment variables that select the provider's waiter mode, read by the dynamic provider
 * process. The bench sets them for every `pulumi up`; whether they took effect is checked from the
 * service's counters (poll-only opens no stream).
 */
export const WAIT_MODE_ENV = "WWS_WAIT_MODE";
export const POLL_INTERVAL_ENV = "WWS_POLL_INTERVAL_MS";

/** The checkout's root: the directory of the `pulumi-wws` package.json above this file. */
export function repoRoot(): string {
  for (let dir = __dirname; dir !== dirname(dir); dir = dirname(dir)) {
    const pkg = join(dir, "package.json");
    if (existsSync(pkg) && (JSON.parse(readFileSync(pkg, "utf8")) as { name?: string }).name === "pulumi-wws") return dir;
  }
  throw new Error("pulumi-wws package.json not found above bench/");
}

/** `$WWS_PULUMI_BIN_DIR`, else `~/.pulumi/versions/3.259.0/bin`. */
export function pulumiBinDir(): string {
  return process.env.WWS_PULUMI_BIN_DIR ?? join(homedir(), ".pulumi", "versions", PULUMI_VERSION, "bin");
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

export interface UpRow {
  mode: WaitMode;
  pods: number;
  /** Wall time of `stack.up()`: CLI start, program, every create (upsert + wait), state written. */
  wallMs: number;
  /** Peak RSS of the dynamic provider process, MiB. */
  peakRssMb?: number;
  statusGetsPerPod?: number;
  requestsPerPod?: number;
  /** Most streams open at once on the workspace during the up (sampled every 200 ms), and opened in all. */
  streamsPerWorkspace?: number;
  streamsOpened?: number;
  /** A diagnostic up (extra environment), not one of the side-by-side ones. */
  diagnostic?: string;
  /**
   * From the engine's events, seconds after the up began: the first pod's create starting, the
   * last pod's create starting, and the last pod's create done.
   */
  timeline?: { firstCreateS: number; lastCreateStartS: number; lastCreateDoneS: number };
  /**
   * CPU seconds during the up: the `pulumi` CLI (the engine, and the CLI calls the Automation API
   * makes), the dynamic provider process, and this process (the inline program, the language
   * server, the Automation API).
   */
  cpuS?: { cli?: number; provider?: number; program: number };
  note?: string;
}

export interface PulumiUpResult {
  rows: UpRow[];
  /** Set when a measurement is not what it claims (e.g. poll-only not honoured by the provider). */
  note?: string;
  json: Record<string, unknown>;
}

export interface PulumiUpOptions {
  pods: number[];
  rounds: number;
  /** More ups after the side-by-side ones, to attribute costs (e.g. `PULUMI_SKIP_CHECKPOINTS`). */
  diagnostics?: Array<{ pods: number; mode: WaitMode; env: Record<string, string>; label: string }>;
  /** The service's reconcile step (the same for every size). */
  stepMs: number;
  pollIntervalMs?: number;
  /** `pulumi up --parallel`. @default 1000: every create at once (the CLI's default is 4 × cores). */
  parallel?: number;
  /** More environment for the CLI (e.g. `PULUMI_SKIP_CHECKPOINTS`). */
  env?: Record<string, string>;
  /** Bound of one `pulumi up`. @default 300000 (5 min) */
  timeoutMs?: number;
  progress?: (line: string) => void;
}

type Automation = typeof import("@pulumi/pulumi/automation");

/**
 * Scenario 3: `pulumi up` of a fresh stack of `pods` pods (inline program, local file backend,
 * the real CLI and its dynamic provider process), stream mode and poll-only side by side for
 * each size, against one service process with the same reconcile step throughout.
 */
export async function runPulumiUp(options: PulumiUpOptions): Promise<PulumiUpResult> {
  const progress = options.progress ?? (() => undefined);
  const auto: Automation = await import("@pulumi/pulumi/automation");
  const pulumiCommand = await auto.PulumiCommand.get({ root: dirname(pulumiBinDir()) });
  const svc = await spawnService({ reconcileMs: options.stepMs });
  const control = new ControlClient(svc.url, CONTROL_TOKEN);
  const rows: UpRow[] = [];
  try {
    for (const pods of options.pods) {
      for (let r = 0; r < options.rounds; r++) {
        for (const mode of ["stream", "poll"] as const) {
          const row = await oneUp(auto, pulumiCommand, control, svc.url, pods, mode, options);
          progress(`pulumi up ${mode} ${pods} pods: ${(row.wallMs / 1000).toFixed(1)} s, provider peak RSS ${row.peakRssMb?.toFixed(0) ?? "?"} MiB`);
          rows.push(row);
        }
      }
    }
    for (const d of options.diagnostics ?? []) {
      const row = await oneUp(auto, pulumiCommand, control, svc.url, d.pods, d.mode, { ...options, env: { ...options.env, ...d.env } });
      row.diagnostic = d.label;
      progress(`pulumi up ${d.mode} ${d.pods} pods, ${d.label}: ${(row.wallMs / 1000).toFixed(1)} s`);
      rows.push(row);
    }
  } finally {
    await svc.stop();
  }
  const pollIgnored = rows.some((r) => r.mode === "poll" && (r.streamsOpened ?? 0) > 0);
  if (pollIgnored) for (const r of rows) if (r.mode === "poll") r.note = "NOT poll-only: the provider ignored the mode";
  const note = pollIgnored
    ? `the provider ignores ${WAIT_MODE_ENV}=poll (poll rows opened event streams): poll-only was not measured, those rows are stream mode too`
    : undefined;
  return {
    rows,
    note,
    json: {
      parallel: options.parallel ?? 1000,
      reconcile_step_ms: options.stepMs,
      ...(note ? { note } : {}),
      rows: rows.map((r) => ({
        ...(r.diagnostic ? { diagnostic: r.diagnostic } : {}),
        mode: r.mode,
        pods: r.pods,
        wall_s: round(r.wallMs / 1000, 2),
        provider_peak_rss_mb: r.peakRssMb !== undefined ? round(r.peakRssMb, 1) : undefined,
        status_gets_per_pod: r.statusGetsPerPod,
        requests_per_pod: r.requestsPerPod,
        streams_per_workspace: r.streamsPerWorkspace,
        streams_opened: r.streamsOpened,
        cpu_s: r.cpuS,
        ...(r.timeline
          ? { first_create_s: r.timeline.firstCreateS, last_create_start_s: r.timeline.lastCreateStartS, last_create_done_s: r.timeline.lastCreateDoneS }
          : {}),
      })),
    },
  };
}

let upCounter = 0;

async function oneUp(
  auto: Automation,
  pulumiCommand: Awaited<ReturnType<Automation["PulumiCommand"]["get"]>>,
  control: ControlClient,
  url: string,
  pods: number,
  mode: WaitMode,
  options: PulumiUpOptions,
): Promise<UpRow> {
  const root = repoRoot();
  const tmp = mkdtempSync(join(tmpdir(), "wws-bench-up-"));
  const workDir = join(tmp, "project");
  const backendDir = join(tmp, "backend");
  const rssDir = join(tmp, "rss");
  for (const d of [join(workDir, "node_modules"), backendDir, rssDir]) mkdirSync(d, { recursive: true });
  // The provider process evaluates the serialized provider relative to its cwd (the project dir):
  // `pulumi-wws` (this checkout's dist/) and `@pulumi/pulumi` must resolve from there.
  symlinkSync(root, join(workDir, "node_modules", "pulumi-wws"), "dir");
  symlinkSync(join(root, "node_modules", "@pulumi"), join(workDir, "node_modules", "@pulumi"), "dir");
  const hook = join(root, "dist", "bench", "provider-rss-hook.js");
  const envVars: Record<string, string> = {
    PULUMI_BACKEND_URL: `file://${backendDir}`,
    PULUMI_CONFIG_PASSPHRASE: "wws-bench",
    PULUMI_SKIP_UPDATE_CHECK: "true",
    PULUMI_DISABLE_AUTOMATIC_PLUGIN_ACQUISITION: "true",
    // The dynamic provider launcher, and this Node (>= 22), first on PATH.
    PATH: [pulumiBinDir(), dirname(process.execPath), process.env.PATH ?? ""].join(":"),
    WWS_BASE_URL: url,
    WWS_WORKSPACE: WORKSPACE,
    WWS_API_KEY: API_KEY,
    [WAIT_MODE_ENV]: mode,
    [POLL_INTERVAL_ENV]: String(options.pollIntervalMs ?? 2000),
    WWS_BENCH_RSS_DIR: rssDir,
    ...options.env,
  };
  if (existsSync(hook)) envVars.NODE_OPTIONS = `${process.env.NODE_OPTIONS ?? ""} --require ${hook}`.trim();
  const prefix = `up${process.pid}x${++upCounter}`;
  const program = async (): Promise<void> => {
    const { Pod } = await import("../provider");
    for (let i = 0; i < pods; i++) new Pod(`pod-${i}`, { workloadId: `${prefix}-${i}`, image: "nginx:1.27", readyTimeoutSeconds: 120 });
  };
  const controller = new AbortController();
  const timer = setTimeout(() => controller.abort(), options.timeoutMs ?? 300_000);
  let active = true;
  let streamsMax = 0;
  let output = "";
  const starts: number[] = [];
  const dones: number[] = [];
  const isPod = (type: string | undefined): boolean => type !== undefined && type.endsWith("wws:Pod");
  try {
    const stack = await auto.LocalWorkspace.createOrSelectStack(
      { stackName: "bench", projectName: "wws-bench", program },
      { workDir, pulumiCommand, envVars, projectSettings: { name: "wws-bench", runtime: "nodejs" } },
    );
    await control.resetCounters();
    const sampler = (async () => {
      while (active) {
        const c = await control.counters();
        streamsMax = Math.max(streamsMax, c.streams.byWorkspace[WORKSPACE] ?? 0);
        await sleep(200);
      }
    })();
    const children0 = childrenCpuMs();
    const self0 = process.cpuUsage();
    const t0 = preciseNow();
    let result;
    try {
      result = await stack.up({
        parallel: options.parallel ?? 1000,
        signal: controller.signal,
        onOutput: (s) => (output = (output + s).slice(-4000)),
        onEvent: (e) => {
          if (e.resourcePreEvent?.metadata.op === "create" && isPod(e.resourcePreEvent.metadata.type)) starts.push(preciseNow() - t0);
          if (e.resOutputsEvent?.metadata.op === "create" && isPod(e.resOutputsEvent.metadata.type)) dones.push(preciseNow() - t0);
        },
      });
    } finally {
      active = false;
      await sampler;
    }
    const wallMs = preciseNow() - t0;
    const self = process.cpuUsage(self0);
    const children1 = childrenCpuMs();
    const created = result.summary.resourceChanges?.create ?? 0;
    if (created !== pods + 1) throw new Error(`pulumi up created ${created} resources, expected ${pods} pods and the stack`);
    const counters = await control.counters();
    const reports = readdirSync(rssDir).map((f) => JSON.parse(readFileSync(join(rssDir, f), "utf8")) as { maxRssKb: number; cpuMs: number });
    const peaks = reports.map((r) => r.maxRssKb);
    const providerCpuMs = reports.length > 0 ? reports.reduce((a, r) => a + r.cpuMs, 0) : undefined;
    const childrenMs = children0 !== undefined && children1 !== undefined ? children1 - children0 : undefined;
    return {
      mode,
      pods,
      wallMs,
      ...(peaks.length > 0 ? { peakRssMb: Math.max(...peaks) / 1024 } : {}),
      statusGetsPerPod: round((counters.requests.byRoute[STATUS_ROUTE] ?? 0) / pods),
      requestsPerPod: round(counters.requests.total / pods),
      streamsPerWorkspace: streamsMax,
      streamsOpened: counters.streams.opened,
      cpuS: {
        ...(childrenMs !== undefined ? { cli: round((childrenMs - (providerCpuMs ?? 0)) / 1000, 1) } : {}),
        ...(providerCpuMs !== undefined ? { provider: round(providerCpuMs / 1000, 1) } : {}),
        program: round((self.user + self.system) / 1e6, 1),
      },
      ...(starts.length > 0 && dones.length > 0
        ? { timeline: { firstCreateS: round(Math.min(...starts) / 1000), lastCreateStartS: round(Math.max(...starts) / 1000), lastCreateDoneS: round(Math.max(...dones) / 1000) } }
        : {}),
    };
  } catch (err) {
    throw new Error(`pulumi up of ${pods} pods (${mode}) failed: ${err instanceof Error ? err.message : String(err)}\n${output}`);
  } finally {
    clearTimeout(timer);
    rmSync(tmp, { recursive: true, force: true });
  }
}
