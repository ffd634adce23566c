import { waitForWorkload, type WorkspaceClient } from "../../../sdk";
import { pod, startHarness, uid, type Harness } from "./service";

describe("client and waiter under injected faults", () => {
  let h: Harness;
  let client: WorkspaceClient;

  beforeAll(async () => {
    h = await startHarness({ reconcileMs: 50 });
    // 0.3^10: a request that fails ten times in a row is a one-in-170,000 event.
    client = h.client({ retry: { maxAttempts: 10, initialDelayMs: 50, maxDelayMs: 500, maxElapsedMs: 30_000 } });
  });
  afterEach(() => h.ctl.clearFaults());
  afterAll(() => h.close());

  it("should wait no less than Retry-After before retrying", async () => {
    await h.ctl.resetCounters();
    await h.ctl.setFaults({ errorRate: 1, maxFaults: 1, errorStatuses: [503], retryAfterSeconds: 1 });
    const started = Date.now();
    await expect(client.getSpec()).resolves.toMatchObject({ name: "demo" });
    expect(Date.now() - started).toBeGreaterThanOrEqual(1000);
    expect((await h.ctl.counters()).requests.byStatus).toEqual({ "200": 1, "503": 1 });
  });

  it("should converge with 30% of requests answered 429 or 503", async () => {
    await h.ctl.setFaults({ errorRate: 0.3, errorStatuses: [429, 503], retryAfterSeconds: 1 });
    await h.ctl.resetCounters();
    const ids = Array.from({ length: 20 }, () => uid());
    const statuses = await Promise.all(
      ids.map(async (id) => {
        await client.upsertWorkload("pod", pod(id));
        return waitForWorkload(client, id, { until: "ready", timeoutMs: 25_000 });
      }),
    );
    expect(statuses.map((s) => s?.phase)).toEqual(ids.map(() => "Running"));
    const byStatus = (await h.ctl.counters()).requests.byStatus;
    expect((byStatus["429"] ?? 0) + (byStatus["503"] ?? 0)).toBeGreaterThan(0);
  });
});
