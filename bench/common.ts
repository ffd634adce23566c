import { fork, type ChildProcess } from "node:child_process";
import { readFileSync } from "node:fs";
import { availableParallelism } from "node:os";
import { createServer, type AddressInfo } from "node:net";
import { join } from "node:path";
import { performance } from "node:perf_hooks";

/** Workspace and API key of every service the benchmarks start. */
export const WORKSPACE = "bench";
export const API_KEY = "bench-key";
export const CONTROL_TOKEN = "bench-control";
/** The API key of a workspace other than WORKSPACE that a benchmark's service was started with. */
export const workspaceKey = (workspace: string): string => `${API_KEY}-${workspace}`;
/** The counters' name of the status route. */
export const STATUS_ROUTE = "GET /v1/tenants/:name/workloads/:id/status";

/** Epoch ms with sub-ms precision: the clock of the service's transition records and `sentAt`. */
export const preciseNow = (): number => performance.timeOrigin + performance.now();

/** A port of 127.0.0.1 nothing listens on: bound, then closed (a wrong base URL's, or one to start a server on). */
export async function closedPort(): Promise<number> {
  const server = createServer();
  await new Promise<void>((r) => server.listen(0, "127.0.0.1", r));
  const { port } = server.address() as AddressInfo;
  await new Promise<void>((r) => server.close(() => r()));
  return port;
}

export const sleep = (ms: number): Promise<void> => new Promise((r) => setTimeout(r, ms));

export function round(n: number, digits = 2): number {
  const f = 10 ** digits;
  return Math.round(n * f) / f;
}

/** Nearest-rank percentile (p in 0..100) of unsorted values; NaN for none. */
export function percentile(values: readonly number[], p: number): number {
  if (values.length === 0) return Number.NaN;
  const sorted = [...values].sort((a, b) => a - b);
  return sorted[Math.min(sorted.length - 1, Math.max(0, Math.ceil((p / 100) * sorted.length) - 1))];
}

/** The median of values (the mean of the middle two for an even count). */
export function median(values: readonly number[]): number {
  const sorted = [...values].sort((a, b) => a - b);
  const mid = Math.floor(sorted.length / 2);
  return sorted.length % 2 ? sorted[mid] : (sorted[mid - 1] + sorted[mid]) / 2;
}

/** A small seeded PRNG (mulberry32), so that two runs stagger their waiters alike. */
export function seededRandom(seed: number): () => number {
  let a = seed >>> 0;
  return () => {
    a = (a + 0x6d2b79f5) >>> 0;
    let t = a;
    t = Math.imul(t ^ (t >>> 15), t | 1);
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  };
}

export interface SpawnedService {
  url: string;
  child: ChildProcess;
  /** SIGTERM, then SIGKILL after 3 s; resolves when the child is gone. */
  stop(): Promise<void>;
}

export interface SpawnOptions {
  /** The service's `--profile`. @default "full" */
  profile?: "full" | "spec";
  reconcileMs?: number;
  coalesceMs?: number;
  ringSize?: number;
  heartbeatMs?: number;
  /** Extra `node` flags of the child, e.g. `--cpu-prof`. */
  execArgv?: string[];
  /** More workspaces, each with its key `workspaceKey(workspace)` (a key is one workspace's only). */
  workspaces?: string[];
  /** Give up when the service has not said where it listens after this long. @default 30000 */
  startTimeoutMs?: number;
}

/**
 * Starts the local service in a child process (`server/cli`), so that it does not share an event
 * loop with the clients being measured, and parses its `listening on http://HOST:PORT` line.
 * Run from `dist/` it starts `dist/server/cli.js`; run from TypeScript sources (jest), `cli.ts`
 * through ts-node.
 */
export async function spawnService(options: SpawnOptions = {}): Promise<SpawnedService> {
  const ts = __filename.endsWith(".ts");
  const cli = join(__dirname, "..", "server", ts ? "cli.ts" : "cli.js");
  const args = ["--port", "0", "--quiet", "--control-token", CONTROL_TOKEN, "--key", `${WORKSPACE}=${API_KEY}`];
  for (const w of options.workspaces ?? []) args.push("--key", `${w}=${workspaceKey(w)}`);
  args.push("--ring-size", String(options.ringSize ?? 10_000));
  if (options.profile !== undefined) args.push("--profile", options.profile);
  if (options.reconcileMs !== undefined) args.push("--reconcile-ms", String(options.reconcileMs));
  if (options.coalesceMs !== undefined) args.push("--coalesce-ms", String(options.coalesceMs));
  if (options.heartbeatMs !== undefined) args.push("--heartbeat-ms", String(options.heartbeatMs));
  const child = fork(cli, args, {
    execArgv: [...(ts ? ["-r", "ts-node/register/transpile-only"] : []), ...(options.execArgv ?? [])],
    silent: true,
  });
  let out = "";
  child.stderr!.on("data", (d) => (out += d));
  const url = await new Promise<string>((resolve, reject) => {
    const timer = setTimeout(() => {
      child.kill("SIGKILL");
      reject(new Error(`service did not start in ${options.startTimeoutMs ?? 30_000} ms: ${out}`));
    }, options.startTimeoutMs ?? 30_000);
    child.stdout!.on("data", (d) => {
      out += d;
      const m = /listening on (http:\/\/\S+)/.exec(out);
      if (m) {
        clearTimeout(timer);
        resolve(m[1]);
      }
    });
    child.once("exit", (code) => {
      clearTimeout(timer);
      reject(new Error(`service exited with ${code}: ${out}`));
    });
  });
  const exited = new Promise<void>((resolve) => {
    if (child.exitCode !== null || child.signalCode !== null) resolve();
    else child.once("exit", () => resolve());
  });
  return {
    url,
    child,
    stop: async () => {
      child.kill("SIGTERM");
      const hard = setTimeout(() => child.kill("SIGKILL"), 3000);
      await exited;
      clearTimeout(hard);
    },
  };
}

function procFile(path: string): string {
  try {
    return readFileSync(path, "utf8");
  } catch {
    return "";
  }
}

/** Resident set size of a process in MiB (`/proc/<pid>/status`), undefined where there is no /proc. */
export function rssMb(pid: number | undefined): number | undefined {
  if (pid === undefined) return undefined;
  const m = /VmRSS:\s+(\d+) kB/.exec(procFile(`/proc/${pid}/status`));
  return m ? Number(m[1]) / 1024 : undefined;
}

/** Peak resident set size of a process in MiB (`VmHWM`). */
export function peakRssMb(pid: number | undefined): number | undefined {
  if (pid === undefined) return undefined;
  const m = /VmHWM:\s+(\d+) kB/.exec(procFile(`/proc/${pid}/status`));
  return m ? Number(m[1]) / 1024 : undefined;
}

/** User + system CPU time of a process in ms (`/proc/<pid>/stat`, clock ticks of 10 ms). */
export function processCpuMs(pid: number | undefined): number | undefined {
  if (pid === undefined) return undefined;
  const fields = procFile(`/proc/${pid}/stat`).split(") ")[1]?.split(" ");
  return fields && fields.length > 13 ? (Number(fields[11]) + Number(fields[12])) * 10 : undefined;
}

/**
 * CPU time of a process, of its children it reaped and of its live children, ms: a server that
 * forks a process per connection (PostgreSQL).
 */
export function processTreeCpuMs(pid: number): number | undefined {
  const fields = procFile(`/proc/${pid}/stat`).split(") ")[1]?.split(" ");
  if (!fields || fields.length < 15) return undefined;
  const own = fields.slice(11, 15).reduce((a, f) => a + Number(f), 0) * 10;
  const children = procFile(`/proc/${pid}/task/${pid}/children`).split(" ").filter(Boolean);
  return own + children.reduce((a, c) => a + (processCpuMs(Number(c)) ?? 0), 0);
}

/** CPU time of this process's reaped children (`cutime + cstime` of `/proc/self/stat`), ms. */
export function childrenCpuMs(): number | undefined {
  const fields = procFile("/proc/self/stat").split(") ")[1]?.split(" ");
  return fields && fields.length > 14 ? (Number(fields[13]) + Number(fields[14])) * 10 : undefined;
}

/**
 * Bytes written through write syscalls (`wchar` of `/proc/self/io`) by this process and its reaped
 * children, theirs included (the kernel adds a child's counts to its parent's when it is reaped).
 */
export function childrenWrittenBytes(): number | undefined {
  const m = /wchar:\s+(\d+)/.exec(procFile("/proc/self/io"));
  return m ? Number(m[1]) : undefined;
}

export interface CpuSample {
  user: number;
  system: number;
  softirq: number;
  idle: number;
  steal: number;
  total: number;
}

/** The machine's CPU time so far (all cores, clock ticks), from the first line of `/proc/stat`. */
export function machineCpu(): CpuSample | undefined {
  const f = procFile("/proc/stat").split("\n")[0]?.split(/\s+/).slice(1).map(Number);
  if (!f || f.length < 8 || f.some((n) => Number.isNaN(n))) return undefined;
  const [user, nice, system, idle, iowait, irq, softirq, steal] = f;
  return {
    user: user + nice,
    system: system + irq,
    softirq,
    idle: idle + iowait,
    steal,
    total: f.slice(0, 8).reduce((a, b) => a + b, 0),
  };
}

/** Share of the machine's CPU time between two samples, in percent. */
export function cpuShare(
  a: CpuSample | undefined,
  b: CpuSample | undefined,
): { busyPct: number; softirqPct: number; stealPct: number } | undefined {
  if (!a || !b || b.total <= a.total) return undefined;
  const t = b.total - a.total;
  const pct = (x: number): number => round((100 * x) / t, 1);
  return {
    busyPct: pct(t - (b.idle - a.idle)),
    softirqPct: pct(b.softirq - a.softirq),
    stealPct: pct(b.steal - a.steal),
  };
}

/**
 * How far the service's clock is ahead of ours, in ms, NTP-style: the `now` of
 * `GET /_control/…/transitions` against the midpoint of the request, over the fastest of `samples`
 * round trips. Both clocks are `performance.timeOrigin + performance.now()`, so this is normally a
 * fraction of a ms; it is measured, not assumed.
 */
export async function clockOffset(
  url: string,
  samples = 15,
): Promise<{ offsetMs: number; uncertaintyMs: number } | undefined> {
  let best: { offsetMs: number; uncertaintyMs: number } | undefined;
  for (let i = 0; i < samples; i++) {
    const t0 = preciseNow();
    const res = await fetch(`${url}/_control/workloads/${WORKSPACE}/clock-probe/transitions`, {
      headers: { "x-control-token": CONTROL_TOKEN },
    });
    const body = (await res.json()) as { now?: unknown };
    const t1 = preciseNow();
    if (typeof body.now !== "number") return undefined;
    const sample = { offsetMs: body.now - (t0 + t1) / 2, uncertaintyMs: (t1 - t0) / 2 };
    if (!best || sample.uncertaintyMs < best.uncertaintyMs) best = sample;
  }
  return best && { offsetMs: round(best.offsetMs, 3), uncertaintyMs: round(best.uncertaintyMs, 3) };
}

/**
 * Share of the machine's CPU (all cores) that neither the measured processes (`ownCpuMs` in
 * `wallMs`) nor kernel network processing (softirq) account for: other tenants of a shared
 * machine, in percent. Approximate: clock ticks of 10 ms.
 */
export function othersPct(
  share: { busyPct: number; softirqPct: number } | undefined,
  ownCpuMs: number,
  wallMs: number,
): number | undefined {
  if (!share || wallMs <= 0) return undefined;
  const own = (100 * ownCpuMs) / (wallMs * availableParallelism());
  return round(Math.max(0, share.busyPct - share.softirqPct - own), 1);
}
