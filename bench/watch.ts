import { mkdirSync, mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { dirname, join } from "node:path";
import { ControlClient } from "../server/control-client";
import { WorkspaceClient, type WorkloadType } from "../sdk";
import { Watch } from "../watch/watcher";
import type { Finding } from "../watch/finding";
import { API_KEY, CONTROL_TOKEN, WORKSPACE, percentile, round, sleep, spawnService } from "./common";
import { cliEnv, linkPackages } from "./pulumi-stack";
import { pulumiBinDir, repoRoot } from "./pulumi-up";
import type { Report } from "./report";

export interface WatchBenchResult {
  workloads: number;
  stacks: number;
  changes: number;
  reported: number;
  falseReports: number;
  latencyMs: { p50: number; p99: number; max: number };
  /** Requests of /spec and /status the watch made per write it compared (a change, or its undo). */
  readsPerChange: number;
  /** Requests of the watch while nothing changed (a quiet 5 s). */
  readsWhileQuiet: number;
}

const SPEC_ROUTE = "GET /v1/tenants/:name/spec";
const STATUS_ROUTE = "GET /v1/tenants/:name/workloads/:id/status";

/**
 * Scenario 10: the drift watch. `pods` pods in each of `stacks` stacks (deployed with `pulumi up`),
 * one watch of them all; `changes` changes made through the service's API one after another, each
 * to a random pod. Latency is from the service's record of the change (its activity row's `at`) to
 * the watch's finding; reads are the requests of the workspace's spec and statuses it made.
 */
export async function runWatchBench(options: {
  stacks: number;
  pods: number;
  changes: number;
  progress?: (line: string) => void;
}): Promise<WatchBenchResult> {
  const auto = await import("@pulumi/pulumi/automation");
  const pulumiCommand = await auto.PulumiCommand.get({ root: dirname(pulumiBinDir()) });
  const svc = await spawnService({ reconcileMs: 20 });
  const ctl = new ControlClient(svc.url, CONTROL_TOKEN);
  const client = new WorkspaceClient({ baseUrl: svc.url, workspace: WORKSPACE, apiKey: API_KEY });
  const tmp = mkdtempSync(join(tmpdir(), "wws-bench-watch-"));
  const workDir = join(tmp, "project");
  mkdirSync(join(tmp, "backend"));
  linkPackages(repoRoot(), workDir);
  const env = {
    ...process.env,
    ...cliEnv(pulumiBinDir(), svc.url),
    PULUMI_BACKEND_URL: `file://${join(tmp, "backend")}`,
  };
  const names = Array.from({ length: options.stacks }, (_, i) => `watch-${i}`);
  let watch: Watch | undefined;
  try {
    for (const name of names) {
      const program = async (): Promise<void> => {
        const { Pod } = await import("../provider");
        for (let i = 0; i < options.pods; i++)
          new Pod(`p-${i}`, { workloadId: `${name}-${i}`, image: "nginx:1.27", memory: "128Mi" });
      };
      const stack = await auto.LocalWorkspace.createOrSelectStack(
        { stackName: name, projectName: "wws-bench-watch", program },
        {
          workDir,
          pulumiCommand,
          envVars: env as Record<string, string>,
          projectSettings: { name: "wws-bench-watch", runtime: "nodejs" },
        },
      );
      options.progress?.(`watch: pulumi up of ${options.pods} pods in stack ${name}`);
      await stack.up({ parallel: options.pods });
    }
    const findings: Array<{ f: Finding; at: number }> = [];
    watch = new Watch({
      stacks: names,
      placeOf: () => ({ cwd: workDir, env }),
      env,
      onFinding: (f) => findings.push({ f, at: Date.now() }),
      statusEveryMs: 3_600_000,
    });
    await watch.start();
    await sleep(2000);
    const initial = findings.length;
    await ctl.resetCounters();
    await sleep(5000);
    const quiet = await reads(ctl);
    await ctl.resetCounters();
    const declared = new Map((await client.getSpec()).workloads.map((w) => [w.id, w]));
    await ctl.resetCounters();
    const latencies: number[] = [];
    for (let i = 0; i < options.changes; i++) {
      const id = `${names[i % names.length]}-${(i * 37) % options.pods}`;
      const before = findings.length;
      const entry = declared.get(id)!;
      await client.upsertWorkload(entry.type as WorkloadType, { ...entry.spec, id, memory: `${256 + i}Mi` } as never);
      const deadline = Date.now() + 10_000;
      while (findings.length === before && Date.now() < deadline) await sleep(5);
      const got = findings.slice(before).find((x) => x.f.id.endsWith(`/${id}`));
      if (got) latencies.push(got.at - Date.parse(got.f.at));
      // Put it back outside the watch's count: the next change starts from the declared spec.
      await client.upsertWorkload(entry.type as WorkloadType, { ...entry.spec, id } as never);
      await sleep(150);
      if (i % 20 === 19) options.progress?.(`watch: ${i + 1} changes, p50 ${percentile(latencies, 50)} ms`);
    }
    const changeReads = await reads(ctl);
    const reported = latencies.length;
    const falseReports = initial + findings.filter((x) => x.f.kind !== "drift").length;
    return {
      workloads: options.stacks * options.pods,
      stacks: options.stacks,
      changes: options.changes,
      reported,
      falseReports,
      latencyMs: {
        p50: round(percentile(latencies, 50), 0),
        p99: round(percentile(latencies, 99), 0),
        max: round(Math.max(...latencies), 0),
      },
      // Each change is two writes (the change and its undo, which is compared too).
      readsPerChange: round(changeReads / (2 * options.changes), 2),
      readsWhileQuiet: quiet,
    };
  } finally {
    await watch?.stop();
    await client.close();
    await svc.stop();
    rmSync(tmp, { recursive: true, force: true });
  }
}

async function reads(ctl: ControlClient): Promise<number> {
  const byRoute = (await ctl.counters()).requests.byRoute;
  return (byRoute[SPEC_ROUTE] ?? 0) + (byRoute[STATUS_ROUTE] ?? 0);
}

/** Scenario 10's table and targets: p50 ≤ 1 s, p99 ≤ 3 s, no read between events. */
export function addWatch(report: Report, r: WatchBenchResult): void {
  report.sections.push({
    title: `10 drift watch: ${r.workloads} managed pods in ${r.stacks} stacks, ${r.changes} changes made through the API`,
    columns: [
      "reported",
      "false reports",
      "p50",
      "p99",
      "max",
      "reads per compared write",
      "reads in 5 s without events",
    ],
    rows: [
      [
        `${r.reported}/${r.changes}`,
        String(r.falseReports),
        `${r.latencyMs.p50} ms`,
        `${r.latencyMs.p99} ms`,
        `${r.latencyMs.max} ms`,
        String(r.readsPerChange),
        String(r.readsWhileQuiet),
      ],
    ],
  });
  report.targets.push(
    {
      name: "drift watch: service record → report line, p50",
      target: "≤ 1 s",
      value: `${r.latencyMs.p50} ms`,
      met: r.latencyMs.p50 <= 1000 && r.reported === r.changes,
    },
    {
      name: "drift watch: service record → report line, p99",
      target: "≤ 3 s",
      value: `${r.latencyMs.p99} ms`,
      met: r.latencyMs.p99 <= 3000,
    },
    {
      name: "drift watch: reads while the stream is up and quiet",
      target: "none",
      value: String(r.readsWhileQuiet),
      met: r.readsWhileQuiet === 0,
    },
  );
  report.json.watch = r;
}
