import { spawn } from "node:child_process";
import { readFileSync } from "node:fs";
import { loadavg } from "node:os";
import { join } from "node:path";
import { createInterface } from "node:readline";
import { ControlClient } from "../server/control-client";
import { WorkspaceClient } from "../sdk";
import {
  CONTROL_TOKEN,
  closedPort,
  cpuShare,
  machineCpu,
  peakRssMb,
  percentile,
  preciseNow,
  processCpuMs,
  round,
  rssMb,
  sleep,
  workspaceKey,
} from "./common";
import type { DeployedWorkload } from "./watch-fleet-stacks";
import { WebhookReceiver, findingsCounted } from "./webhook-receiver";

/** One configuration of scenario 14, as measured. */
export interface WatchProcessFigures {
  label: string;
  stacks: number;
  workspaces: number;
  workloads: number;
  /** From the process's start to its "watching …" line. */
  startS: number;
  changes: number;
  reported: { stdout: number; webhook: number };
  /** From the service's record of a change (the finding's `at`, its activity row's) to the finding. */
  stdoutMs: { p50: number; p99: number; max: number };
  webhookMs: { p50: number; p99: number; max: number };
  /** Findings other than the changes' drift and their undoing, before and during the changes. */
  falseReports: number;
  /** Webhook deliveries of a finding id already delivered, and bodies whose signature did not check. */
  webhookDuplicates: number;
  badSignatures: number;
  /** `wws_watch_findings_total` scraped once the changes were over, against the findings on stdout. */
  metricsFindings: number;
  stdoutFindings: number;
  rssMb: number;
  peakRssMb: number;
  /** The V8 heap in use, as the process's own /metrics said once the changes were over. */
  heapMb: number;
  idle: {
    seconds: number;
    cpuPctOfCore: number;
    /** Requests the service got while idle, but the event streams' own. */
    requests: number;
    /** Children the watch ran while idle: seen in /proc, or their CPU time when reaped (cutime + cstime). */
    spawned: number;
    childCpuMs: number;
  };
  /** The machine while it was idle: 1-minute load average and the share of all cores busy. */
  machine: { loadAvg1: number; busyPct?: number };
}

const SECRET = "bench-webhook-secret";
const STREAM_ROUTE = /events/;

/** Children's CPU (`cutime + cstime` of /proc/PID/stat, reaped children) in ms. */
function reapedChildrenCpuMs(pid: number): number {
  const f = readFileSync(`/proc/${pid}/stat`, "utf8").split(") ")[1].split(" ");
  return (Number(f[13]) + Number(f[14])) * 10;
}

function childrenOf(pid: number): string[] {
  try {
    return readFileSync(`/proc/${pid}/task/${pid}/children`, "utf8").split(" ").filter(Boolean);
  } catch {
    return [];
  }
}

const quantiles = (xs: number[]): { p50: number; p99: number; max: number } => ({
  p50: round(percentile(xs, 50), 0),
  p99: round(percentile(xs, 99), 0),
  max: round(Math.max(...xs), 0),
});

/**
 * Runs `pulumi-wws watch --json --webhook … --listen …` of `stacks` as its own process (the built
 * CLI, `node dist/cli/main.js`), makes `changes` changes through the API one after another (each to
 * a workload of `workloads`, each undone at once), and measures the finding's latency on stdout and
 * at a webhook receiver of its own, then the process's memory and, over `idleS` without a change,
 * its CPU, the requests it made and the processes it ran.
 */
export async function measureWatchProcess(o: {
  label: string;
  root: string;
  url: string;
  workDir: string;
  env: Record<string, string>;
  stacks: string[];
  workloads: DeployedWorkload[];
  changes: number;
  idleS: number;
  progress: (line: string) => void;
}): Promise<WatchProcessFigures> {
  const receiver = new WebhookReceiver({ secret: SECRET, keep: false });
  const webhookAt = new Map<string, number>();
  receiver.onFirst = (_id, body) => {
    const f = JSON.parse(body) as { kind: string; id: string; at: string; fields?: Array<{ live?: unknown }> };
    if (f.kind === "drift")
      webhookAt.set(`${f.id}=${String(f.fields?.[0]?.live)}`, receiver.firstAt.get(_id)! - Date.parse(f.at));
  };
  await receiver.accept();
  const metricsPort = await closedPort();
  const args = [join(o.root, "dist", "cli", "main.js"), "watch", "--json", "--status-every", "3600"];
  for (const s of o.stacks) args.push("--stack", s);
  args.push("--webhook", receiver.url, "--listen", `127.0.0.1:${metricsPort}`);
  const began = preciseNow();
  const child = spawn(process.execPath, args, {
    cwd: o.workDir,
    env: { ...o.env, WWS_WEBHOOK_SECRET: SECRET },
    stdio: ["ignore", "pipe", "pipe"],
  });
  const pid = child.pid!;
  const findings: Array<{ kind: string; id: string; at: string; live: string; seenAt: number }> = [];
  createInterface({ input: child.stdout! }).on("line", (line) => {
    const f = JSON.parse(line) as { kind: string; id: string; at: string; fields?: Array<{ live?: unknown }> };
    findings.push({ kind: f.kind, id: f.id, at: f.at, live: String(f.fields?.[0]?.live), seenAt: preciseNow() });
  });
  let watching = false;
  const stderr: string[] = [];
  createInterface({ input: child.stderr! }).on("line", (line) => {
    if (/ watching \d+/.test(line)) watching = true;
    stderr.push(line);
  });
  const exited = new Promise<number | null>((resolve) => child.once("exit", (code) => resolve(code)));
  const ctl = new ControlClient(o.url, CONTROL_TOKEN);
  const clients = new Map<string, WorkspaceClient>();
  const clientOf = (ws: string): WorkspaceClient => {
    if (!clients.has(ws))
      clients.set(ws, new WorkspaceClient({ baseUrl: o.url, workspace: ws, apiKey: workspaceKey(ws) }));
    return clients.get(ws)!;
  };
  try {
    const startDeadline = Date.now() + 15 * 60_000;
    while (!watching && child.exitCode === null && Date.now() < startDeadline) await sleep(50);
    if (!watching) throw new Error(`${o.label}: the watch did not start: ${stderr.slice(-5).join(" | ")}`);
    const startS = round((preciseNow() - began) / 1000, 1);
    o.progress(`${o.label}: watching after ${startS} s; ${o.changes} changes`);
    await sleep(3000);
    const stdoutMs: number[] = [];
    for (let i = 0; i < o.changes; i++) {
      const w = o.workloads[(i * 37) % o.workloads.length];
      const key = `${w.workspace}/${w.id}=${256 + i}Mi`;
      await clientOf(w.workspace).upsertWorkload(w.type, { ...w.spec, id: w.id, memory: `${256 + i}Mi` } as never);
      const deadline = Date.now() + 10_000;
      const found = (): (typeof findings)[number] | undefined =>
        findings.find((f) => f.kind === "drift" && `${f.id}=${f.live}` === key);
      while ((!found() || !webhookAt.has(key)) && Date.now() < deadline) await sleep(5);
      const f = found();
      if (f) stdoutMs.push(f.seenAt - Date.parse(f.at));
      await clientOf(w.workspace).upsertWorkload(w.type, { ...w.spec, id: w.id } as never);
      await sleep(150);
      if (i % 50 === 49) o.progress(`${o.label}: ${i + 1} changes, stdout p50 ${percentile(stdoutMs, 50)} ms`);
    }
    // Settled: every undo compared and delivered.
    await sleep(5000);
    const metricsText = await (await fetch(`http://127.0.0.1:${metricsPort}/metrics`)).text();
    const stdoutFindings = findings.length;
    // Idle: no change, no scrape.
    await sleep(5000);
    await ctl.resetCounters();
    const cpu0 = processCpuMs(pid)!;
    const children0 = reapedChildrenCpuMs(pid);
    const machine0 = machineCpu();
    const t0 = preciseNow();
    const seenChildren = new Set<string>();
    while (preciseNow() - t0 < o.idleS * 1000) {
      for (const c of childrenOf(pid)) seenChildren.add(c);
      await sleep(100);
    }
    const idleMs = preciseNow() - t0;
    const cpuMs = processCpuMs(pid)! - cpu0;
    const childCpuMs = reapedChildrenCpuMs(pid) - children0;
    const share = cpuShare(machine0, machineCpu());
    const byRoute = (await ctl.counters()).requests.byRoute;
    const requests = Object.entries(byRoute)
      .filter(([route]) => !STREAM_ROUTE.test(route))
      .reduce((a, [, n]) => a + n, 0);
    const figures: WatchProcessFigures = {
      label: o.label,
      stacks: o.stacks.length,
      workspaces: new Set(o.workloads.map((w) => w.workspace)).size,
      workloads: o.workloads.length,
      startS,
      changes: o.changes,
      reported: { stdout: stdoutMs.length, webhook: webhookAt.size },
      stdoutMs: quantiles(stdoutMs),
      webhookMs: quantiles([...webhookAt.values()]),
      falseReports: findings.filter((f) => f.kind !== "drift" && f.kind !== "changed-back").length,
      webhookDuplicates: [...receiver.deliveries.values()].filter((n) => n > 1).length,
      badSignatures: receiver.badSignatures,
      metricsFindings: findingsCounted(metricsText),
      stdoutFindings,
      rssMb: round(rssMb(pid) ?? Number.NaN, 0),
      peakRssMb: round(peakRssMb(pid) ?? Number.NaN, 0),
      heapMb: round(Number(/^nodejs_heap_size_used_bytes ([0-9.e+]+)$/m.exec(metricsText)?.[1]) / 2 ** 20, 0),
      idle: {
        seconds: round(idleMs / 1000, 0),
        cpuPctOfCore: round((100 * cpuMs) / idleMs, 2),
        requests,
        spawned: seenChildren.size,
        childCpuMs,
      },
      machine: { loadAvg1: round(loadavg()[0], 1), busyPct: share?.busyPct },
    };
    o.progress(`${o.label}: ${JSON.stringify(figures)}`);
    return figures;
  } finally {
    child.kill("SIGTERM");
    const hard = setTimeout(() => child.kill("SIGKILL"), 5000);
    await exited;
    clearTimeout(hard);
    await Promise.all([...clients.values()].map((c) => c.close()));
    await receiver.close();
  }
}
