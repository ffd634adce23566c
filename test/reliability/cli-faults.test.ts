/**
 * Faults during `pulumi up` of 30 workloads through the real `pulumi` CLI: event streams dropped
 * every 300 ms, 200-800 ms of latency on every request, the service restarted mid-wait (same port,
 * same data dir), and the reconciler paused past the ready timeout (sustained 429/503 answers have
 * their own file, cli-throttling.test.ts, where every run must converge). In each scenario `up` converges or fails saying what
 * happened, a rerun converges, and the service then holds exactly the declared workloads (no
 * duplicate, no orphan, the ids of the state); no operation runs past its bound.
 *
 * One service (with a data dir) for the file, one workspace and one stack per scenario.
 */
import { ensureBuilt, configuredStack, type E2eStack } from "../e2e/harness";
import {
  errorLines,
  fileProgramStack,
  ownPulumiChildren,
  runOp,
  sleep,
  startRestartableService,
  type OpOutcome,
  type RestartableService,
} from "./cli-helpers";
import { DECLARED, fleet } from "./fleet";

/** Bound of one `pulumi up` here; past it the CLI is interrupted and the test fails. */
const OP_TIMEOUT_MS = 150_000;
/** Every workload's operation at once (the CLI's default is 8): 30 waits share the provider's stream. */
const PARALLEL = 30;
jest.setTimeout(5 * 60_000);

let service: RestartableService;
const stacks: E2eStack[] = [];
const figures: string[] = [];

beforeAll(async () => {
  ensureBuilt();
  // Steps of 200 ms: a workload takes about a second to run, long enough for waits to meet the faults.
  // retry: 200 ms, so that a cut stream comes back (the SDK honours the server's retry:) in time to
  // be cut again every 300 ms; the default 2 s would leave one cut per hold.
  service = await startRestartableService({ prefix: "relcli", count: 7, service: { reconcileMs: 200, retryMs: 200 } });
});

afterAll(async () => {
  await service?.ctl.clearFaults().catch(() => undefined);
  await service?.ctl.resumeReconciler().catch(() => undefined);
  for (const s of stacks) s.cleanup();
  await service?.close();
  console.log(`faults during \`pulumi up\` of ${DECLARED.length} workloads:\n${figures.join("\n")}`);
});

async function newFleetStack(o: { readyTimeoutSeconds?: number } = {}) {
  const s = await configuredStack(service, fleet(o));
  stacks.push(s);
  return s;
}

type FleetStack = Awaited<ReturnType<typeof newFleetStack>>;

/** The service holds exactly the declared workloads (no duplicate, no orphan), each Running, under the ids of the state. */
async function expectExactlyDeclared(s: FleetStack, outcome: OpOutcome): Promise<void> {
  expect(outcome.ok).toBe(true);
  const spec = await s.client.getSpec();
  const ids = spec.workloads.map((w) => w.id);
  expect(new Set(ids).size).toBe(ids.length);
  expect(spec.workloads.map((w) => [w.id, w.type]).sort()).toEqual(DECLARED.map((d) => [d.id, d.kind]).sort());
  expect((await s.resources()).map((r) => r.id).sort()).toEqual(DECLARED.map((d) => `${s.ws.name}/${d.id}`).sort());
  expect(outcome.outputs.phases).toEqual(Object.fromEntries(DECLARED.map((d) => [d.id, "Running"])));
  const pulse = await s.client.getPulse();
  expect(pulse.workloads?.length).toBe(DECLARED.length);
  expect((pulse.workloads ?? []).filter((w) => w.phase !== "Running")).toEqual([]);
}

/** A failed `up` must say what happened: one of `patterns` in what it printed. */
function expectExplained(o: OpOutcome, patterns: RegExp[]): void {
  const text = `${o.stdout}\n${o.error}`;
  expect([errorLines(o, 5), patterns.some((p) => p.test(text))]).toEqual([errorLines(o, 5), true]);
}

/** The first line of a failed operation's output that matches `pattern`, shortened. */
function firstLine(o: OpOutcome, pattern: RegExp): string {
  const line = `${o.stdout}\n${o.error}`.split("\n").find((l) => pattern.test(l)) ?? "";
  return line
    .replace(/^.*?error: /, "")
    .trim()
    .slice(0, 220);
}

const up = (s: FleetStack): Promise<OpOutcome> => runOp(s.stack, "up", OP_TIMEOUT_MS, { parallel: PARALLEL });

/**
 * Runs `up` under a fault; if it fails, the failure must say what happened. Then a rerun (with the
 * fault still on unless `clear` ends it first) must converge.
 */
async function upThenRerun(
  s: FleetStack,
  explained: RegExp[],
  clear?: () => Promise<void>,
): Promise<{ first: OpOutcome; rerun: OpOutcome }> {
  const first = await up(s);
  if (!first.ok) {
    console.log(`up under the fault failed, as allowed: ${errorLines(first, 3).join(" | ")}`);
    expectExplained(first, explained);
  }
  await clear?.();
  const rerun = await up(s);
  if (!rerun.ok) throw new Error(`the rerun did not converge:\n${errorLines(rerun).join("\n")}`);
  return { first, rerun };
}

const secs = (ms: number): string => `${(ms / 1000).toFixed(1)} s`;

/** Polls the service (bounded: 60 s) until `atLeast` workloads of the stack's workspace are accepted. */
async function untilAccepted(s: FleetStack, atLeast = DECLARED.length): Promise<number> {
  const deadline = Date.now() + 60_000;
  let accepted = 0;
  while ((accepted = (await s.client.getSpec()).workloads.length) < atLeast && Date.now() < deadline) await sleep(100);
  expect(accepted).toBeGreaterThanOrEqual(atLeast);
  return accepted;
}

it("should interrupt an `up` that overruns its bound, and leave no CLI process behind", async () => {
  // A program file (run by the CLI's language host): an inline program interrupted would leave its
  // engine connections in this process for a while.
  const ws = service.workspace();
  const file = await fileProgramStack("wws-rel-bound");
  try {
    await file.stack.setAllConfig({
      "wws:baseUrl": { value: service.url },
      "wws:workspace": { value: ws.name },
      "wws:apiKey": { value: ws.apiKey, secret: true },
    });
    file.setProgram(
      `const wws = require("pulumi-wws");\nfor (const id of ["slow-1", "slow-2", "slow-3"]) new wws.Controller(id, { readyTimeoutSeconds: 300 });\n`,
    );
    await service.ctl.pauseReconciler(); // the waits would last 300 s
    const started = Date.now();
    let error = "";
    try {
      await runOp(file.stack, "up", 5_000);
    } catch (err) {
      error = String(err);
    } finally {
      await service.ctl.resumeReconciler();
    }
    const ms = Date.now() - started;
    expect(error).toMatch(/did not finish within 5000 ms \(interrupted\)/);
    expect(ms).toBeLessThan(5_000 + 3 * 5_000 + 2_000); // the bound, then ^C, ^C and SIGKILL 5 s apart at most
    expect(ownPulumiChildren()).toEqual([]);
    figures.push(
      `  bound: an \`up\` waiting up to 300 s was interrupted at its 5 s bound, the CLI gone ${secs(ms - 5_000)} later`,
    );
  } finally {
    file.cleanup();
  }
});

it("(a) should converge while every event stream is dropped every 300 ms", async () => {
  const s = await newFleetStack();
  await service.ctl.resetCounters();
  let dropping = true;
  let rounds = 0;
  let dropped = 0;
  // Bounded: one round per 300 ms, for as long as `up` may run at most.
  const dropper = (async () => {
    while (dropping && rounds < OP_TIMEOUT_MS / 300) {
      await sleep(300);
      dropped += await service.ctl.dropStreams();
      rounds++;
    }
  })();
  // The waits depend on the stream: held in Pending for 3 s (10 rounds of drops) once every
  // workload is accepted, then released, so that the phase changes happen while streams are cut.
  await service.ctl.pauseReconciler();
  let first: OpOutcome;
  let rerun: OpOutcome;
  let droppedWhileHeld = 0;
  try {
    const running = up(s);
    running.catch(() => undefined); // awaited below
    await untilAccepted(s);
    const before = dropped;
    await sleep(3000);
    droppedWhileHeld = dropped - before;
    await service.ctl.resumeReconciler();
    first = await running;
    if (!first.ok) {
      console.log(`up with streams cut failed, as allowed: ${errorLines(first, 3).join(" | ")}`);
      expectExplained(first, [/stream/i, /did not become ready/]);
    }
    rerun = await up(s);
  } finally {
    await service.ctl.resumeReconciler();
    dropping = false;
    await dropper;
  }
  const c = await service.ctl.counters();
  expect(droppedWhileHeld).toBeGreaterThan(0); // the provider's stream was open while it waited, and cut
  await expectExactlyDeclared(s, rerun);
  figures.push(
    `  (a) streams dropped every 300 ms: ${rounds} rounds, ${dropped} open streams cut (${droppedWhileHeld} while 30 waits were held in Pending), ` +
      `${c.streams.opened} opened; up ${first.ok ? "converged" : "failed"} in ${secs(first.ms)}, rerun ${secs(rerun.ms)}; ${c.requests.total} requests`,
  );
});

it("(c) should converge with 200-800 ms of latency on every request", async () => {
  const s = await newFleetStack();
  await service.ctl.resetCounters();
  await service.ctl.setFaults({ latencyMs: [200, 800] });
  let result: { first: OpOutcome; rerun: OpOutcome };
  let during: Awaited<ReturnType<typeof service.ctl.counters>>;
  try {
    result = await upThenRerun(s, [/timed out|timeout/i], async () => {
      during = await service.ctl.counters();
    });
  } finally {
    await service.ctl.clearFaults();
  }
  expect(result.first.ok).toBe(true); // latency alone is no reason to fail
  await expectExactlyDeclared(s, result.rerun);
  figures.push(
    `  (c) 200-800 ms latency on ${during!.requests.total} requests: up converged in ${secs(result.first.ms)}, rerun (still slow) ${secs(result.rerun.ms)}`,
  );
});

it("(d) should converge when the service restarts mid-wait, with its data dir, on the same port", async () => {
  const s = await newFleetStack();
  // Held in Pending until the restart, so that waits are in flight when the service goes away.
  await service.ctl.pauseReconciler();
  const running = up(s);
  running.catch(() => undefined); // awaited below
  let accepted = 0;
  let restartedAt = 0;
  const downtimeMs = 500;
  try {
    accepted = await untilAccepted(s, 15);
    await sleep(500); // waits under way: streams open, status reads going on
    restartedAt = Date.now();
    await service.restart(downtimeMs); // the new process's reconciler is not paused
  } finally {
    await service.ctl.resumeReconciler().catch(() => undefined);
  }
  const first = await running;
  const firstEnded = Date.now();
  if (!first.ok) {
    console.log(`up across the restart failed, as allowed: ${errorLines(first, 3).join(" | ")}`);
    expectExplained(first, [/connect|ECONNREFUSED|ECONNRESET|socket|closed/i, /did not become ready/]);
  }
  const rerun = await up(s);
  if (!rerun.ok) throw new Error(`the rerun did not converge:\n${errorLines(rerun).join("\n")}`);
  await expectExactlyDeclared(s, rerun);
  const c = await service.ctl.counters(); // since the restart
  figures.push(
    `  (d) restart after ${accepted} workloads were accepted (all Pending), ${downtimeMs} ms down: up ${first.ok ? "converged" : `failed ("${firstLine(first, /error: /)}")`} ` +
      `${secs(firstEnded - restartedAt)} after the restart (${secs(first.ms)} in all), rerun ${secs(rerun.ms)}; ${c.requests.total} requests to the new process`,
  );
});

it("(e) should fail naming the phase when the reconciler is paused past the ready timeout, then converge once resumed", async () => {
  const s = await newFleetStack({ readyTimeoutSeconds: 5 });
  await service.ctl.pauseReconciler();
  let first: OpOutcome;
  try {
    first = await up(s);
  } finally {
    await service.ctl.resumeReconciler();
  }
  expect(first!.ok).toBe(false);
  const stuck = firstLine(first!, /did not become ready/);
  expect(stuck).toMatch(/Pending/); // the phase it was stuck in
  const timedOut = `${first!.stdout}\n${first!.error}`.match(/did not become ready/g)?.length ?? 0;
  // Every accepted workload is in the stack (with its init error): nothing orphaned.
  const spec = await s.client.getSpec();
  expect((await s.resources()).map((r) => r.id).sort()).toEqual(
    spec.workloads.map((w) => `${s.ws.name}/${w.id}`).sort(),
  );

  const rerun = await up(s);
  if (!rerun.ok) throw new Error(`the rerun did not converge:\n${errorLines(rerun).join("\n")}`);
  await expectExactlyDeclared(s, rerun);
  const generations = (await Promise.all(DECLARED.map((d) => s.client.getStatus(d.id)))).map((st) => st.generation);
  expect(new Set(generations)).toEqual(new Set([1])); // awaited again, not sent again
  figures.push(
    `  (e) reconciler paused, readyTimeoutSeconds 5: up failed in ${secs(first!.ms)} (${spec.workloads.length} accepted and kept in the stack, ` +
      `"did not become ready" printed ${timedOut} times): "${stuck}"; resumed, rerun converged in ${secs(rerun.ms)}`,
  );
});
