import { spawn } from "node:child_process";
import { copyFileSync, existsSync, mkdirSync, mkdtempSync, readdirSync, rmSync, statSync } from "node:fs";
import { loadavg, tmpdir } from "node:os";
import { join } from "node:path";
import { childrenCpuMs, childrenWrittenBytes, preciseNow, processCpuMs, processTreeCpuMs, round } from "./common";
import type { Postgres } from "./postgres";
import { cliEnv, linkPackages } from "./pulumi-stack";
import { readUsage } from "./usage-hook";

/**
 * Scenario 8: pods at scale through examples/fleet as it ships, its program run by the CLI's
 * language host and its driver (fleet.js) run as a user runs it: one stack of N pods, or N pods in
 * S stacks at once, on a local file backend or on PostgreSQL. Each operation of the driver is
 * measured: its wall (and the gate's previews and the apply inside it), the CPU of every process
 * by kind, peak RSS, the bytes the CLIs and their processes wrote, and the state's size after it.
 */
export type Backend = "file" | "postgres";
export type FleetOp = "up" | "preview" | "refresh" | "destroy";

export interface FleetRunPlan {
  /** What the run shows: `1 stack`, `fleet`, or a diagnostic such as `PULUMI_SKIP_CHECKPOINTS=true`. */
  label: string;
  backend: Backend;
  stacks: number;
  podsPerSlice: number;
  ops: FleetOp[];
  /** More environment for the driver and every process it starts. */
  env?: Record<string, string>;
  /** `--parallel` of each `pulumi` run; `default`: the CLI's own (8 on 2 cores). @default 1000 */
  parallel?: number | "default";
  /** Settings of the run's PostgreSQL database (`ALTER DATABASE … SET`), e.g. its TOAST compression. */
  databaseSettings?: Record<string, string>;
}

export interface FleetRow {
  label: string;
  backend: Backend;
  stacks: number;
  pods: number;
  op: FleetOp;
  wallMs: number;
  /** Inside `up` and `preview`: the slowest stack's gate preview; inside the others and `up`: its apply. */
  gateMs?: number;
  applyMs?: number;
  /** CPU seconds: the pulumi CLIs, the programs, the providers, the other node processes (language hosts, the driver), the service, PostgreSQL. */
  cpuS: Record<string, number>;
  /** Largest peak RSS of one process of each kind, MiB. */
  peakRssMb: { provider?: number; program?: number };
  writtenBytes?: number;
  /** The stacks' checkpoints together, after the operation. */
  stateBytes?: number;
  /** The load average (1 min) when the operation began and ended. */
  load: [number, number];
  /** The plan (`preview`) or the changes (the others), summed over the stacks. */
  changes: Record<string, number>;
}

export interface FleetContext {
  root: string;
  pulumiBinDir: string;
  serviceUrl: string;
  servicePid?: number;
  /** Needed by runs on the `postgres` backend. */
  postgres?: Postgres;
  progress?: (line: string) => void;
}

/** The driver's last line (`--json`). */
export interface DriverOutput {
  failed: boolean;
  stacks: Array<{
    name?: string;
    /** When its `up` (or other operation) began and ended, epoch ms. */
    appliedAt?: [number, number];
    previewMs?: number;
    applyMs?: number;
    plan?: Record<string, number>;
    changes?: Record<string, number>;
  }>;
}

let runCounter = 0;

/** How one run of the driver ended: its exit, its output's last 16,000 characters, its JSON line if it printed one. */
export interface DriverRun {
  code: number | null;
  signal: NodeJS.Signals | null;
  out: string;
  result?: DriverOutput;
}

/**
 * `node examples/fleet/fleet.js <args> --json` with `env`, killed (its whole process group) after
 * `timeoutMs`, however it ends; its output also goes to this process's stdout with `echo`.
 */
export function spawnDriver(
  root: string,
  args: string[],
  env: NodeJS.ProcessEnv,
  timeoutMs: number,
  echo = false,
): Promise<DriverRun> {
  const child = spawn(process.execPath, [join(root, "examples", "fleet", "fleet.js"), ...args, "--json"], {
    env,
    detached: true,
    stdio: ["ignore", "pipe", "pipe"],
  });
  let out = "";
  const keep = (d: Buffer): void => {
    out = (out + d.toString()).slice(-16_000);
    // The JSON line is for this process, not for a reader.
    if (echo) process.stdout.write(d.toString().replace(/^\{.*\n?/gm, ""));
  };
  child.stdout.on("data", keep);
  child.stderr.on("data", keep);
  const timer = setTimeout(() => process.kill(-child.pid!, "SIGKILL"), timeoutMs);
  return new Promise((resolve) =>
    child.on("close", (code, signal) => {
      clearTimeout(timer);
      const last = out.trim().split("\n").pop() ?? "";
      resolve({ code, signal, out, result: last.startsWith("{") ? (JSON.parse(last) as DriverOutput) : undefined });
    }),
  );
}

/** `spawnDriver`, for a run that must succeed: its JSON line, or an error with the end of its output. */
export async function runDriver(
  root: string,
  args: string[],
  env: NodeJS.ProcessEnv,
  timeoutMs: number,
  echo = false,
): Promise<DriverOutput> {
  const run = await spawnDriver(root, args, env, timeoutMs, echo);
  if (run.code === 0 && run.result) return run.result;
  throw new Error(`fleet.js ${args.join(" ")} ended with ${run.signal ?? run.code}:\n${run.out.slice(-4000)}`);
}

const sum = (values: Array<number | undefined>): number => values.reduce<number>((a, v) => a + (v ?? 0), 0);

function addCounts(into: Record<string, number>, counts: Record<string, number> | undefined): void {
  for (const [k, v] of Object.entries(counts ?? {})) into[k] = (into[k] ?? 0) + v;
}

/** The stacks' checkpoints, in bytes: files of the file backend, rows of PostgreSQL's `pulumi_state`. */
function stateBytes(backendDir: string | undefined, pg: Postgres | undefined, database: string): number | undefined {
  if (backendDir) {
    const dir = join(backendDir, ".pulumi", "stacks", "wws-fleet");
    if (!existsSync(dir)) return 0;
    return sum(readdirSync(dir).map((f) => (/^slice-\d+\.json$/.test(f) ? statSync(join(dir, f)).size : 0)));
  }
  const sql = `SELECT coalesce(sum(octet_length(data::text)), 0) FROM pulumi_state WHERE key ~ 'stacks/wws-fleet/slice-[0-9]+\\.json$'`;
  return pg ? Number(pg.query(sql, database).trim()) : undefined;
}

export interface FleetProject {
  /** The project: examples/fleet's Pulumi.yaml and index.js, with this checkout as `pulumi-wws`. */
  workDir: string;
  /** The driver's environment: the backend, the service, the usage hook. */
  env: NodeJS.ProcessEnv;
  /** The stacks' checkpoints together, in bytes. */
  stateBytes(): number | undefined;
  /** Where each operation's usage reports go. */
  tmp: string;
  cleanup(): void;
}

/** A fresh copy of examples/fleet and a fresh backend: a directory, or a database of `ctx.postgres`. */
export function fleetProject(
  ctx: FleetContext,
  backend: Backend,
  env: Record<string, string> = {},
  databaseSettings: Record<string, string> = {},
): FleetProject {
  const tmp = mkdtempSync(join(tmpdir(), "wws-bench-fleet-"));
  const workDir = join(tmp, "project");
  linkPackages(ctx.root, workDir);
  for (const f of ["Pulumi.yaml", "index.js"]) copyFileSync(join(ctx.root, "examples", "fleet", f), join(workDir, f));
  const database = `fleet${process.pid}x${++runCounter}`;
  const backendDir = backend === "file" ? join(tmp, "backend") : undefined;
  if (backendDir) mkdirSync(backendDir);
  if (backend === "postgres" && !ctx.postgres) throw new Error("a postgres run needs ctx.postgres");
  const hook = join(ctx.root, "dist", "bench", "usage-hook.js");
  const backendUrl = backendDir ? `file://${backendDir}` : ctx.postgres!.database(database);
  for (const [key, value] of Object.entries(databaseSettings))
    ctx.postgres?.query(`ALTER DATABASE "${database}" SET ${key} = '${value}'`);
  return {
    workDir,
    tmp,
    env: {
      ...process.env,
      ...cliEnv(ctx.pulumiBinDir, ctx.serviceUrl),
      PULUMI_BACKEND_URL: backendUrl,
      NODE_OPTIONS: `${process.env.NODE_OPTIONS ?? ""} --require ${hook}`.trim(),
      ...env,
    },
    stateBytes: () => stateBytes(backendDir, ctx.postgres, database),
    cleanup: () => rmSync(tmp, { recursive: true, force: true }),
  };
}

/** One operation of the driver, measured. */
async function measureOp(
  ctx: FleetContext,
  project: FleetProject,
  plan: FleetRunPlan,
  op: FleetOp,
  args: string[],
): Promise<FleetRow> {
  const usageDir = mkdtempSync(join(project.tmp, "usage-"));
  const before = {
    cpu: childrenCpuMs(),
    written: childrenWrittenBytes(),
    service: processCpuMs(ctx.servicePid),
    pg: ctx.postgres && processTreeCpuMs(ctx.postgres.pid),
    load: loadavg()[0],
  };
  const pods = plan.stacks * plan.podsPerSlice;
  const t0 = preciseNow();
  const out = await runDriver(
    ctx.root,
    [op, ...args],
    { ...project.env, WWS_BENCH_RSS_DIR: usageDir },
    timeoutOf(pods),
  );
  const wallMs = preciseNow() - t0;
  const [cpu, written] = [childrenCpuMs(), childrenWrittenBytes()];
  const usage = readUsage(usageDir);
  const cpuOf = (kinds: string[]): number => sum(usage.filter((u) => kinds.includes(u.kind)).map((u) => u.cpuMs));
  const rssOf = (kind: string): number | undefined => {
    const kb = usage.filter((u) => u.kind === kind).map((u) => u.maxRssKb);
    return kb.length > 0 ? round(Math.max(...kb) / 1024, 0) : undefined;
  };
  const delta = (a: number | undefined, b: number | undefined): number | undefined =>
    a !== undefined && b !== undefined ? a - b : undefined;
  const s = (ms: number | undefined): number => round((ms ?? 0) / 1000, 1);
  const service = processCpuMs(ctx.servicePid);
  const pg = ctx.postgres && processTreeCpuMs(ctx.postgres.pid);
  const nodeKinds = ["provider", "program", "language host", "node"];
  const changes: Record<string, number> = {};
  for (const st of out.stacks) addCounts(changes, op === "preview" ? st.plan : st.changes);
  return {
    label: plan.label,
    backend: plan.backend,
    stacks: plan.stacks,
    pods,
    op,
    wallMs,
    gateMs: Math.max(0, ...out.stacks.map((st) => st.previewMs ?? 0)) || undefined,
    applyMs: Math.max(0, ...out.stacks.map((st) => st.applyMs ?? 0)) || undefined,
    cpuS: {
      cli: s((delta(cpu, before.cpu) ?? 0) - cpuOf(nodeKinds)),
      program: s(cpuOf(["program"])),
      provider: s(cpuOf(["provider"])),
      "other node": s(cpuOf(["language host", "node"])),
      service: s(delta(service, before.service)),
      ...(pg !== undefined && before.pg !== undefined ? { postgres: s(pg - before.pg) } : {}),
    },
    peakRssMb: { provider: rssOf("provider"), program: rssOf("program") },
    writtenBytes: delta(written, before.written),
    stateBytes: project.stateBytes(),
    load: [round(before.load, 1), round(loadavg()[0], 1)],
    changes,
  };
}

/** An operation on `pods` pods is given up after this long. */
const timeoutOf = (pods: number): number => Math.max(10 * 60_000, pods * 1500);

/** The driver's arguments for the stacks of `plan`. */
export function driverArgs(
  workDir: string,
  plan: Pick<FleetRunPlan, "stacks" | "podsPerSlice" | "parallel">,
): string[] {
  const args = [`--dir=${workDir}`, `--stacks=${plan.stacks}`, `--pods=${plan.podsPerSlice}`];
  if (plan.parallel !== undefined) args.push(`--parallel=${plan.parallel}`);
  return args;
}

/** One run: a fresh project and backend, each of `plan.ops` measured, then whatever is left destroyed. */
export async function runFleet(ctx: FleetContext, plan: FleetRunPlan): Promise<FleetRow[]> {
  const project = fleetProject(ctx, plan.backend, plan.env, plan.databaseSettings);
  const args = driverArgs(project.workDir, plan);
  const rows: FleetRow[] = [];
  try {
    for (const op of plan.ops) {
      const row = await measureOp(ctx, project, plan, op, args);
      ctx.progress?.(
        `${plan.label}, ${plan.backend}, ${plan.stacks} × ${plan.podsPerSlice} pods: ${op} ${(row.wallMs / 1000).toFixed(1)} s, changes ${JSON.stringify(row.changes)}, CPU s ${JSON.stringify(row.cpuS)}, load ${row.load.join("→")}`,
      );
      rows.push(row);
    }
  } finally {
    if (plan.ops[plan.ops.length - 1] !== "destroy")
      await runDriver(ctx.root, ["destroy", ...args], project.env, timeoutOf(plan.stacks * plan.podsPerSlice)).catch(
        (err: unknown) => ctx.progress?.(`cleanup destroy failed: ${String(err)}`),
      );
    project.cleanup();
  }
  return rows;
}
