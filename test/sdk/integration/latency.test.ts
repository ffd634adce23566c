import { waitForWorkload, type WorkspaceClient } from "../../../sdk";
import { STATUS_ROUTE, pod, preciseNow, runningAt, startHarness, uid, type Harness } from "./service";

interface Sample {
  latencies: number[];
  readsPerWait: number;
}

/**
 * `waiters` workloads created at once, each waited for; latency = when the waiter resolved minus
 * when the service flipped the workload to Running (the service's own transition record).
 */
async function sample(h: Harness, client: WorkspaceClient, waiters: number, mode: "stream" | "poll"): Promise<Sample> {
  await h.ctl.resetCounters();
  const ids = Array.from({ length: waiters }, () => uid());
  const resolved = await Promise.all(
    ids.map(async (id) => {
      await client.upsertWorkload("pod", pod(id));
      await waitForWorkload(client, id, { until: "ready", timeoutMs: 30_000, mode, pollIntervalMs: 2000 });
      return preciseNow();
    }),
  );
  const latencies = await Promise.all(ids.map(async (id, i) => resolved[i] - (await runningAt(h.ctl, id))));
  const reads = (await h.ctl.counters()).requests.byRoute[STATUS_ROUTE] ?? 0;
  return { latencies, readsPerWait: reads / waiters };
}

describe("readiness latency after the service flips to Running", () => {
  let h: Harness;
  let client: WorkspaceClient;

  beforeAll(async () => {
    h = await startHarness({ reconcileMs: 200 });
    client = h.client();
  });
  afterAll(() => h.close());

  // How soon after Running a wait resolves is a speed figure: `npm run bench` measures it.
  it("should resolve 100 waiters on the stream, each after its workload became Running, within 3 status reads each", async () => {
    const hundred = await sample(h, client, 100, "stream");
    expect(hundred.latencies).toHaveLength(100);
    expect(hundred.latencies.filter((l) => l < 0)).toEqual([]);
    expect(hundred.readsPerWait).toBeLessThanOrEqual(3);
  });
});
