/**
 * Sustained throttling through the real `pulumi` CLI: for the whole file, 25% of the service's
 * requests (calls, status reads and event streams alike) are answered 429 or 503 with
 * `Retry-After: 1`. Several runs (`RUNS`), each on a fresh stack and workspace: `pulumi up` of 30 workloads and
 * a template, then an `up` that restarts the 10 pods and updates the 10 browsers. Every run must
 * converge inside its ready timeout with exactly the declared workloads, one restart per pod and
 * one template: calls retry until the operation's deadline (sdk/retry/decide.ts), and a restart or a
 * template create is sent again when the service refused it (429/503: not processed).
 */
import { configuredStack, ensureBuilt } from "../e2e/harness";
import { errorLines, runOp, startRestartableService, type RestartableService } from "./cli-helpers";
import { DECLARED, fleet } from "./fleet";

/**
 * One run in CI: more runs repeat the same scenario with the faults falling elsewhere, a soak
 * (`WWS_THROTTLE_RUNS=10`) rather than another behaviour.
 */
const RUNS = Number(process.env.WWS_THROTTLE_RUNS ?? 1);
const WORKLOADS = DECLARED.length;
const READY_TIMEOUT_SECONDS = 90;
jest.setTimeout(RUNS * READY_TIMEOUT_SECONDS * 1000);

let service: RestartableService;

beforeAll(async () => {
  ensureBuilt();
  service = await startRestartableService({ prefix: "relthr", count: RUNS, service: { reconcileMs: 20 } });
});

afterAll(async () => {
  await service?.ctl.clearFaults().catch(() => undefined);
  await service?.close();
});

it(`should converge in ${RUNS} of ${RUNS} runs (create ${WORKLOADS} workloads and a template, then restart and update) while 25% of requests are refused with 429/503 and Retry-After`, async () => {
  const runs: string[] = [];
  await service.ctl.resetCounters();
  await service.ctl.setFaults({ errorRate: 0.25, errorStatuses: [503, 429], retryAfterSeconds: 1 });
  for (let run = 1; run <= RUNS; run++) {
    const timing = { readyTimeoutSeconds: READY_TIMEOUT_SECONDS };
    const s = await configuredStack(service, fleet({ ...timing, template: true, restartTrigger: "1" }));
    try {
      const before = await service.ctl.counters();
      const created = await runOp(s.stack, "up", READY_TIMEOUT_SECONDS * 1000, { parallel: WORKLOADS });
      if (!created.ok)
        throw new Error(`run ${run} of ${RUNS}: the creates did not converge:\n${errorLines(created).join("\n")}`);
      s.setProgram(fleet({ ...timing, template: true, restartTrigger: "2", browserMemory: "2Gi" }));
      const changed = await runOp(s.stack, "up", READY_TIMEOUT_SECONDS * 1000, { parallel: WORKLOADS });
      if (!changed.ok)
        throw new Error(
          `run ${run} of ${RUNS}: restarts and updates did not converge:\n${errorLines(changed).join("\n")}`,
        );
      const after = await service.ctl.counters();
      const refused = (["429", "503"] as const).reduce(
        (n, st) => n + (after.requests.byStatus[st] ?? 0) - (before.requests.byStatus[st] ?? 0),
        0,
      );
      expect(refused).toBeGreaterThan(0); // the faults were on during this run
      expect(changed.outputs.phases).toEqual(Object.fromEntries(DECLARED.map((d) => [d.id, "Running"])));
      // The test's own reads go through the same faults: they retry until a deadline too.
      const read = { deadline: Date.now() + 30_000 };
      const spec = await s.client.getSpec(read);
      expect(spec.workloads.map((w) => [w.id, w.type]).sort()).toEqual(DECLARED.map((d) => [d.id, d.kind]).sort());
      const browsers = spec.workloads.filter((w) => w.type === "browser").map((w) => w.spec.memory);
      expect(new Set(browsers)).toEqual(new Set(["2Gi"]));
      const pods = DECLARED.filter((d) => d.kind === "pod");
      const restarts = await Promise.all(pods.map(async (p) => (await s.client.getStatus(p.id, read)).restartCount));
      expect(restarts).toEqual(pods.map(() => 1));
      expect((await s.client.listTemplates(read)).map((t) => t.name)).toEqual(["fleet template"]);
      runs.push(
        `run ${run}: ${(created.ms / 1000).toFixed(1)} s + ${(changed.ms / 1000).toFixed(1)} s, ${refused} of ${after.requests.total - before.requests.total} requests refused`,
      );
    } finally {
      s.cleanup();
    }
  }
  console.log(
    `sustained 25% 429/503 (Retry-After: 1), up of ${WORKLOADS} workloads and a template, then restarts and updates, ${RUNS} of ${RUNS} converged:\n  ${runs.join("\n  ")}`,
  );
});
