/**
 * A soak of the drift watch, not part of CI: `node dist/bench/soak-watch.js [--minutes=30]`
 * (`npm run -s build` first). One stack of 20 pods on a local service with a data dir; for the
 * whole run a change every 2 s through the API (each undone 1 s later), the service restarted
 * every 3 minutes, every event stream cut every 4 minutes, the stack's key rotated every 5 minutes
 * (the service restarted with new keys, the new one put in the stack config a few seconds later)
 * and the stream stalled (connects unanswered for 20 s) every 5 minutes. Ends with: every change
 * reported, no false report, no "all as declared" while the watch said it was blind, the heap
 * after GC at the end within 10% of where it was after warm-up, and, over 30 s idle at the end,
 * no read and the CPU under 1%. The watch runs with `revert`, and every 3.5 minutes a
 * revert-while-editing cycle (soak-revert.ts): "not reverted" during an unapplied edit, "reverted"
 * for real after it, never a false "reverted". The webhook and /metrics are on (soak-deliver.ts):
 * every finding delivered once, signed, through the webhook's own outages; every scrape's findings
 * counter right. Prints one JSON line; exits 1 when a check fails.
 */
import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { dirname, join } from "node:path";
import { setFlagsFromString } from "node:v8";
import { runInNewContext } from "node:vm";
import { ControlClient, startService, type RunningService, type ServiceOptions } from "../server";
import { WorkspaceClient, type WorkloadType } from "../sdk";
import { Watch } from "../watch/watcher";
import type { Finding } from "../watch/finding";
import { API_KEY, CONTROL_TOKEN, WORKSPACE, sleep } from "./common";
import { cliEnv, linkPackages } from "./pulumi-stack";
import { RevertCycles, soakProgram } from "./soak-revert";
import { SoakDelivery } from "./soak-deliver";
import { pulumiBinDir, repoRoot } from "./pulumi-up";

setFlagsFromString("--expose-gc");
const gc = runInNewContext("gc") as () => void;
/** Signs the soak's webhook bodies; the soak's receiver checks each. */
const WEBHOOK_SECRET = "soak-webhook-secret";

function heapMb(): number {
  gc();
  return process.memoryUsage().heapUsed / 2 ** 20;
}

async function main(): Promise<number> {
  const minutes = Number(process.argv.find((a) => a.startsWith("--minutes="))?.slice(10) ?? 30);
  const pods = 20;
  const dataDir = mkdtempSync(join(tmpdir(), "wws-soak-data-"));
  const base: ServiceOptions = {
    port: 0,
    keys: { [WORKSPACE]: [{ key: API_KEY }, { key: `${API_KEY}-ops`, label: "soak-ops" }] },
    controlToken: CONTROL_TOKEN,
    dataDir,
    reconcileMs: 20,
    log: () => undefined,
  };
  let svc: RunningService = await startService(base);
  let stackKey = API_KEY;
  const port = svc.port;
  const url = svc.url;
  const ctl = new ControlClient(url, CONTROL_TOKEN);
  let ops = new WorkspaceClient({ baseUrl: url, workspace: WORKSPACE, apiKey: `${API_KEY}-ops` });
  const tmp = mkdtempSync(join(tmpdir(), "wws-soak-"));
  const workDir = join(tmp, "project");
  mkdirSync(join(tmp, "backend"));
  linkPackages(repoRoot(), workDir);
  const env = { ...process.env, ...cliEnv(pulumiBinDir(), url), PULUMI_BACKEND_URL: `file://${join(tmp, "backend")}` };
  const auto = await import("@pulumi/pulumi/automation");
  const pulumiCommand = await auto.PulumiCommand.get({ root: dirname(pulumiBinDir()) });
  // A program in the working directory (not inline): the revert previews it for unapplied edits.
  writeFileSync(
    join(workDir, "Pulumi.yaml"),
    "name: wws-soak\nruntime:\n  name: nodejs\n  options:\n    typescript: false\n",
  );
  writeFileSync(join(workDir, "package.json"), JSON.stringify({ name: "wws-soak", private: true, main: "index.js" }));
  writeFileSync(join(workDir, "index.js"), soakProgram(pods));
  const stack = await auto.LocalWorkspace.createOrSelectStack(
    { stackName: "soak", workDir },
    { workDir, pulumiCommand, envVars: env as Record<string, string> },
  );
  await stack.up({ parallel: pods + 5 });
  // The key from the stack config (it beats the environment's), so that a rotation is a config change.
  await stack.setConfig("wws:apiKey", { value: stackKey, secret: true });
  const declared = new Map((await ops.getSpec()).workloads.map((w) => [w.id, w]));
  const findings: Finding[] = [];
  let blindNow = false;
  let falseAllAsDeclared = 0;
  let reads = 0;
  const expected = new Set<string>();
  /** When each change was live (its upsert sent → its undo answered): a `changed-back` finding in it reports it. */
  const lifetimes = new Map<string, { id: string; from: number; to: number }>();
  const cycles = new RevertCycles({
    workDir,
    pods,
    findings,
    ops: () => ops,
    declared: declared as never,
    changed: (id, memory, from, to) => {
      expected.add(`${id}=${memory}`);
      lifetimes.set(`${id}=${memory}`, { id, from, to });
    },
  });
  // The webhook and /metrics on, as a team runs it (soak-deliver.ts).
  const deliver = new SoakDelivery(WEBHOOK_SECRET);
  await deliver.start(WEBHOOK_SECRET);
  const watch = new Watch({
    stacks: ["soak"],
    placeOf: () => ({ cwd: workDir, env }),
    env,
    revert: true,
    onCompared: (ms, ok) => deliver.onCompared(ms, ok),
    onFinding: (f) => {
      deliver.onFinding(f);
      findings.push(f);
      cycles.onFinding(f);
      if (f.kind === "blind") blindNow = true;
      if (f.kind === "watching-again") blindNow = false;
    },
    onStatus: (l) => {
      if (blindNow && /all as declared/.test(l) && !/NOT watched/.test(l)) falseAllAsDeclared++;
      process.stderr.write(`${new Date().toISOString()} ${l}\n`);
    },
    onRead: () => void reads++,
    statusEveryMs: 10_000,
  });
  await watch.start();
  deliver.watching(watch);
  let restarts = 0;
  let cuts = 0;
  let rotations = 0;
  let stalls = 0;
  let heapStart = 0;
  const start = Date.now();
  const end = start + minutes * 60_000;
  let nextRestart = start + 3 * 60_000;
  let nextCut = start + 4 * 60_000;
  let nextRotation = start + 2.5 * 60_000;
  let nextStall = start + 1.5 * 60_000;
  let nextCycle = start + 60_000;
  let cycle: Promise<void> | undefined;
  let i = 0;
  let idle = { reads: -1, cpuPct: -1 };
  try {
    while (Date.now() < end) {
      if (heapStart === 0 && Date.now() - start > 2 * 60_000) heapStart = heapMb();
      if (Date.now() >= nextRestart) {
        await svc.close();
        await sleep(1000);
        svc = await startService({ ...base, port });
        restarts++;
        nextRestart += 3 * 60_000;
      }
      if (Date.now() >= nextCut) {
        await ctl.dropStreams();
        cuts++;
        nextCut += 4 * 60_000;
      }
      if (Date.now() >= nextRotation) {
        // The old key refused from now on; the new one reaches the stack config a few seconds later.
        stackKey = `${API_KEY}-r${++rotations}`;
        base.keys = { [WORKSPACE]: [{ key: stackKey }, { key: `${stackKey}-ops`, label: "soak-ops" }] };
        await svc.close();
        svc = await startService({ ...base, port });
        await ops.close();
        ops = new WorkspaceClient({ baseUrl: url, workspace: WORKSPACE, apiKey: `${stackKey}-ops` });
        setTimeout(() => void stack.setConfig("wws:apiKey", { value: stackKey, secret: true }), 3000);
        nextRotation += 5 * 60_000;
      }
      if (Date.now() >= nextStall) {
        // Stream connects left unanswered for 20 s: the watch is blind past its 10 s bound, and says so.
        await ctl.setFaults({ latencyMs: 20_000, pathPrefix: `/v1/tenants/${WORKSPACE}/events` });
        await ctl.dropStreams();
        setTimeout(() => void ctl.clearFaults().catch(() => undefined), 20_000);
        stalls++;
        nextStall += 5 * 60_000;
      }
      if (Date.now() >= nextCycle && !cycle) {
        cycle = cycles.cycle().catch((err: unknown) => void cycles.failures.push(`cycle: ${String(err)}`));
        void cycle.finally(() => (cycle = undefined));
        nextCycle += 3.5 * 60_000;
      }
      const id = `soak-${i % pods}`;
      const entry = declared.get(id)!;
      const memory = `${200 + i}Mi`;
      try {
        const from = Date.now();
        await ops.upsertWorkload(entry.type as WorkloadType, { ...entry.spec, id, memory } as never);
        expected.add(`${id}=${memory}`);
        await sleep(1000);
        await ops.upsertWorkload(entry.type as WorkloadType, { ...entry.spec, id } as never);
        lifetimes.set(`${id}=${memory}`, { id, from, to: Date.now() });
      } catch (err) {
        process.stderr.write(`change ${i} not made: ${String(err)}\n`);
      }
      i++;
      await sleep(1000);
    }
    await cycle;
    await sleep(3000);
    // The webhook's outages and scrapes end, and every finding is delivered, before the idle window:
    // outages come every 6 minutes, so a 30-minute soak's last one overlapped it with retries.
    await deliver.settle(60_000);
    // Idle: no change for 30 s after things settle; no read, and the CPU the whole process used.
    await sleep(15_000);
    const readsBefore = reads;
    const cpuBefore = process.cpuUsage();
    const idleFrom = Date.now();
    await sleep(30_000);
    const cpu = process.cpuUsage(cpuBefore);
    idle = {
      reads: reads - readsBefore,
      cpuPct: Math.round(((cpu.user + cpu.system) / 1000 / (Date.now() - idleFrom)) * 10_000) / 100,
    };
  } finally {
    await watch.stop();
    await deliver.close();
    await ops.close();
    await svc.close();
  }
  const heapEnd = heapMb();
  const delivered = deliver.result();
  const workloadOf = (f: Finding): string => f.id.split("/")[1];
  const seen = new Set(
    findings.filter((f) => f.kind === "drift").map((f) => `${workloadOf(f)}=${String(f.fields?.[0]?.live)}`),
  );
  // A change made and undone while the stream was down is reported without its values: by its row's time.
  const coveredBy = (f: Finding): string[] =>
    [...lifetimes]
      .filter(([, l]) => l.id === workloadOf(f) && Date.parse(f.at) >= l.from - 50 && Date.parse(f.at) <= l.to + 50)
      .map(([change]) => change);
  for (const f of findings) if (f.kind === "changed-back") coveredBy(f).forEach((c) => seen.add(c));
  const missed = [...expected].filter((e) => !seen.has(e));
  const sight = (f: Finding): boolean => f.kind === "blind" || f.kind === "watching-again";
  // The watch's own acts: "reverted" is checked against the live workload as it comes (cycles.falseReverted),
  // "not reverted" says why it did not act, "contested" must follow a revert of that resource.
  const revertedAt = (f: Finding): boolean =>
    findings.some((r) => r.kind === "reverted" && r.urn === f.urn && Date.parse(r.at) <= Date.parse(f.at));
  const act = (f: Finding): boolean =>
    f.kind === "reverted" || f.kind === "revert-refused" || (f.kind === "contested" && revertedAt(f));
  const falseReports = findings.filter((f) =>
    sight(f) || act(f)
      ? false
      : f.kind === "changed-back"
        ? coveredBy(f).length === 0
        : f.kind !== "drift" || !expected.has(`${workloadOf(f)}=${String(f.fields?.[0]?.live)}`),
  );
  const result = {
    minutes,
    changes: expected.size,
    reported: expected.size - missed.length,
    reportedAsChangedBack: findings.filter((f) => f.kind === "changed-back").length,
    missed: missed.slice(0, 10),
    falseReports: falseReports.length,
    falseExamples: falseReports.slice(0, 3),
    restarts,
    cuts,
    rotations,
    stalls,
    blindSaid: findings.filter((f) => f.kind === "blind").length,
    watchingAgain: findings.filter((f) => f.kind === "watching-again").length,
    falseAllAsDeclared,
    revert: {
      cycles: cycles.cycles,
      notRevertedDuringEdit: cycles.refusedDuringEdit,
      revertedForReal: cycles.revertedForReal,
      retried: cycles.retried,
      failures: cycles.failures.slice(0, 5),
      falseReverted: cycles.falseReverted.slice(0, 5),
      reverted: findings.filter((f) => f.kind === "reverted").length,
      notReverted: findings.filter((f) => f.kind === "revert-refused").length,
      contested: findings.filter((f) => f.kind === "contested").length,
      // Why the watch did not act, in its own words: the first few.
      notRevertedSaid: [...new Set(findings.filter((f) => f.kind === "revert-refused").map((f) => f.message))].slice(
        0,
        3,
      ),
    },
    idle,
    heapMb: { afterWarmup: Math.round(heapStart * 10) / 10, end: Math.round(heapEnd * 10) / 10 },
    heapWithin10Pct: heapEnd <= heapStart * 1.1,
    rssMb: Math.round(process.memoryUsage().rss / 2 ** 20),
    webhook: delivered.figures,
  };
  process.stdout.write(`${JSON.stringify(result)}\n`);
  rmSync(tmp, { recursive: true, force: true });
  rmSync(dataDir, { recursive: true, force: true });
  const ok =
    missed.length === 0 &&
    falseReports.length === 0 &&
    falseAllAsDeclared === 0 &&
    idle.reads === 0 &&
    idle.cpuPct >= 0 &&
    idle.cpuPct < 1 &&
    cycles.failures.length === 0 &&
    cycles.falseReverted.length === 0 &&
    cycles.revertedForReal === cycles.cycles &&
    result.heapWithin10Pct &&
    delivered.ok;
  return ok ? 0 : 1;
}

main().then(
  (code) => process.exit(code),
  (err: unknown) => {
    console.error(err);
    process.exit(1);
  },
);
