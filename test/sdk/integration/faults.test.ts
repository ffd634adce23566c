import { waitForWorkload, type StreamState, type WorkspaceClient } from "../../../sdk";
import { pod, startHarness, uid, until, type Harness } from "./service";

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

  // Retry-After is a floor above the client's own backoff (at most 500 ms for calls, 50 ms for the
  // stream here): both a call and the event stream wait the service's 1 s before trying again.
  it("should wait no less than Retry-After before retrying a call or reconnecting the event stream", async () => {
    await h.ctl.resetCounters();
    await h.ctl.setFaults({ errorRate: 1, maxFaults: 1, errorStatuses: [503], retryAfterSeconds: 1 });
    const started = Date.now();
    await expect(client.getSpec()).resolves.toMatchObject({ name: "demo" });
    expect(Date.now() - started).toBeGreaterThanOrEqual(1000);
    expect((await h.ctl.counters()).requests.byStatus).toEqual({ "200": 1, "503": 1 });

    await h.ctl.setFaults({
      pathPrefix: "/v1/tenants/demo/events",
      errorRate: 1,
      maxFaults: 1,
      errorStatuses: [503],
      retryAfterSeconds: 1,
    });
    const streaming = h.client({ stream: { reconnectInitialDelayMs: 20, reconnectMaxDelayMs: 50 } });
    const errors: string[] = [];
    let openedAt = 0;
    const subscribedAt = Date.now();
    const unsubscribe = streaming.subscribe({
      onError: (e) => errors.push(e.name),
      onState: (state: StreamState) => void (state === "open" && openedAt === 0 && (openedAt = Date.now())),
    });
    try {
      await until(() => openedAt > 0, 5000);
      expect(errors).toEqual(["UnavailableError"]);
      expect(openedAt - subscribedAt).toBeGreaterThanOrEqual(1000);
    } finally {
      unsubscribe();
    }
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
