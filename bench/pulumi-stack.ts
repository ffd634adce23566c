import { existsSync, mkdirSync, mkdtempSync, rmSync, statSync, symlinkSync } from "node:fs";
import { tmpdir } from "node:os";
import { dirname, join } from "node:path";
import { API_KEY, WORKSPACE, childrenCpuMs, childrenWrittenBytes, preciseNow, processCpuMs, round } from "./common";
import type { WaitMode } from "./readiness";
import { readUsage } from "./usage-hook";

/**
 * One stack of scenario 3 on a fresh local file backend, and what one operation on it costs: wall
 * time, CPU of the `pulumi` CLI, of the dynamic provider process, of this process (the inline
 * program, the Automation API) and of the service, the provider's peak RSS, and the bytes the CLI
 * and its children wrote. The CLI rewrites its whole checkpoint after every step, so those bytes
 * grow with N × the checkpoint's size; its gRPC and its event log add a little, linear in N.
 */

type Automation = typeof import("@pulumi/pulumi/automation");
export type PulumiCommand = Awaited<ReturnType<Automation["PulumiCommand"]["get"]>>;
export type Stack = Awaited<ReturnType<Automation["LocalWorkspace"]["createOrSelectStack"]>>;

/** The environment variables that select the provider's waiter mode, read by the dynamic provider process. */
export const WAIT_MODE_ENV = "WWS_WAIT_MODE";
export const POLL_INTERVAL_ENV = "WWS_POLL_INTERVAL_MS";

export interface OpCost {
  wallMs: number;
  /** CPU seconds: the CLI (with the Automation API's own CLI calls), the provider process, this process, the service. */
  cpuS: { cli?: number; provider?: number; program: number; service?: number };
  peakRssMb?: number;
  /** Bytes written (write syscalls) by the CLI and every process it started, during the operation. */
  writtenBytes?: number;
  /** The checkpoint's size when the operation ended. */
  checkpointBytes?: number;
}

export interface BenchStack {
  stack: Stack;
  /** Runs `op` (an `up` or `destroy` of `stack`) and measures it. */
  measure<T>(op: () => Promise<T>): Promise<{ result: T; cost: OpCost }>;
  cleanup(): void;
}

export interface BenchStackOptions {
  root: string;
  pulumiBinDir: string;
  url: string;
  mode: WaitMode;
  pollIntervalMs: number;
  /** The service process, for its CPU time. */
  servicePid?: number;
  env?: Record<string, string>;
  program: () => Promise<void>;
}

/**
 * `workDir` with a `node_modules` where `pulumi-wws` is this checkout (its dist/) and `@pulumi` the
 * checkout's: the program and the provider process (which loads `__provider` from the project
 * dir) resolve both from there.
 */
export function linkPackages(root: string, workDir: string): void {
  mkdirSync(join(workDir, "node_modules"), { recursive: true });
  symlinkSync(root, join(workDir, "node_modules", "pulumi-wws"), "dir");
  symlinkSync(join(root, "node_modules", "@pulumi"), join(workDir, "node_modules", "@pulumi"), "dir");
}

/** The environment of every `pulumi` run of the benchmarks, but its backend: the service's connection, no plugin downloads. */
export function cliEnv(pulumiBinDir: string, url: string): Record<string, string> {
  return {
    PULUMI_CONFIG_PASSPHRASE: "wws-bench",
    PULUMI_SKIP_UPDATE_CHECK: "true",
    PULUMI_DISABLE_AUTOMATIC_PLUGIN_ACQUISITION: "true",
    // The dynamic provider launcher, and this Node (>= 22), first on PATH.
    PATH: [pulumiBinDir, dirname(process.execPath), process.env.PATH ?? ""].join(":"),
    WWS_BASE_URL: url,
    WWS_WORKSPACE: WORKSPACE,
    WWS_API_KEY: API_KEY,
  };
}

let stackCounter = 0;

export async function newBenchStack(
  auto: Automation,
  pulumiCommand: PulumiCommand,
  options: BenchStackOptions,
): Promise<BenchStack> {
  const tmp = mkdtempSync(join(tmpdir(), "wws-bench-up-"));
  const workDir = join(tmp, "project");
  const backendDir = join(tmp, "backend");
  const rssRoot = join(tmp, "rss");
  for (const d of [backendDir, rssRoot]) mkdirSync(d, { recursive: true });
  linkPackages(options.root, workDir);
  const hook = join(options.root, "dist", "bench", "usage-hook.js");
  const envVars: Record<string, string> = {
    ...cliEnv(options.pulumiBinDir, options.url),
    PULUMI_BACKEND_URL: `file://${backendDir}`,
    [WAIT_MODE_ENV]: options.mode,
    [POLL_INTERVAL_ENV]: String(options.pollIntervalMs),
    ...options.env,
  };
  if (existsSync(hook)) envVars.NODE_OPTIONS = `${process.env.NODE_OPTIONS ?? ""} --require ${hook}`.trim();
  const stack = await auto.LocalWorkspace.createOrSelectStack(
    { stackName: "bench", projectName: "wws-bench", program: options.program },
    { workDir, pulumiCommand, envVars, projectSettings: { name: "wws-bench", runtime: "nodejs" } },
  );
  const checkpoint = join(backendDir, ".pulumi", "stacks", "wws-bench", "bench.json");
  return {
    stack,
    async measure(op) {
      // Each operation's provider process reports into a directory of its own.
      const rssDir = join(rssRoot, String(++stackCounter));
      mkdirSync(rssDir);
      stack.workspace.envVars.WWS_BENCH_RSS_DIR = rssDir;
      const cpu0 = childrenCpuMs();
      const written0 = childrenWrittenBytes();
      const service0 = processCpuMs(options.servicePid);
      const self0 = process.cpuUsage();
      const t0 = preciseNow();
      const result = await op();
      const wallMs = preciseNow() - t0;
      const self = process.cpuUsage(self0);
      const [cpu1, written1, service1] = [childrenCpuMs(), childrenWrittenBytes(), processCpuMs(options.servicePid)];
      const reports = readUsage(rssDir).filter((r) => r.kind === "provider");
      const providerMs = reports.length > 0 ? reports.reduce((a, r) => a + r.cpuMs, 0) : undefined;
      const childrenMs = cpu0 !== undefined && cpu1 !== undefined ? cpu1 - cpu0 : undefined;
      const cost: OpCost = {
        wallMs,
        cpuS: {
          ...(childrenMs !== undefined ? { cli: round((childrenMs - (providerMs ?? 0)) / 1000, 2) } : {}),
          ...(providerMs !== undefined ? { provider: round(providerMs / 1000, 2) } : {}),
          program: round((self.user + self.system) / 1e6, 2),
          ...(service0 !== undefined && service1 !== undefined
            ? { service: round((service1 - service0) / 1000, 2) }
            : {}),
        },
        ...(reports.length > 0 ? { peakRssMb: Math.max(...reports.map((r) => r.maxRssKb)) / 1024 } : {}),
        ...(written0 !== undefined && written1 !== undefined ? { writtenBytes: written1 - written0 } : {}),
        ...(existsSync(checkpoint) ? { checkpointBytes: statSync(checkpoint).size } : {}),
      };
      return { result, cost };
    },
    cleanup: () => rmSync(tmp, { recursive: true, force: true }),
  };
}
