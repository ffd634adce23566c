/**
 * Sustained throttling through the real `pulumi` CLI: for the whole file, 25% of the service's
 * requests (calls, status reads and event streams alike) are answered 429 or 503 with
 * `Retry-After: 1`. Ten `pulumi up` runs of 30 workloads, each on a fresh stack and workspace, must
 * all converge inside their ready timeout: the provider's calls retry until the operation's
 * deadline (sdk/retry.ts), not a fixed number of attempts.
 */
import { configuredStack, ensureBuilt } from "../e2e/harness";
import { errorLines, runOp, startRestartableService, type RestartableService } from "./cli-helpers";
import { DECLARED, fleet } from "./fleet";

const RUNS = 10;
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

it(`should converge in ${RUNS} of ${RUNS} runs of \`up\` of ${WORKLOADS} workloads while 25% of requests are refused with 429/503 and Retry-After`, async () => {
  const runs: string[] = [];
  await service.ctl.resetCounters();
  await service.ctl.setFaults({ errorRate: 0.25, errorStatuses: [503, 429], retryAfterSeconds: 1 });
  for (let run = 1; run <= RUNS; run++) {
    const s = await configuredStack(service, fleet({ readyTimeoutSeconds: READY_TIMEOUT_SECONDS }));
    try {
      const before = await service.ctl.counters();
      const outcome = await runOp(s.stack, "up", READY_TIMEOUT_SECONDS * 1000, { parallel: WORKLOADS });
      const after = await service.ctl.counters();
      const refused = (["429", "503"] as const).reduce(
        (n, st) => n + (after.requests.byStatus[st] ?? 0) - (before.requests.byStatus[st] ?? 0),
        0,
      );
      if (!outcome.ok) throw new Error(`run ${run} of ${RUNS} did not converge:\n${errorLines(outcome).join("\n")}`);
      expect(refused).toBeGreaterThan(0); // the faults were on during this run
      expect(outcome.outputs.phases).toEqual(Object.fromEntries(DECLARED.map((d) => [d.id, "Running"])));
      const spec = await s.client.getSpec();
      expect(spec.workloads.map((w) => [w.id, w.type]).sort()).toEqual(DECLARED.map((d) => [d.id, d.kind]).sort());
      runs.push(
        `run ${run}: ${(outcome.ms / 1000).toFixed(1)} s, ${refused} of ${after.requests.total - before.requests.total} requests refused`,
      );
    } finally {
      s.cleanup();
    }
  }
  console.log(
    `sustained 25% 429/503 (Retry-After: 1), up of ${WORKLOADS} workloads, ${RUNS} of ${RUNS} converged:\n  ${runs.join("\n  ")}`,
  );
});
