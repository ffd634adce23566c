import { waitForWorkload, type StreamState, type WorkspaceClient, type WorkspaceEvent } from "../../../sdk";
import { STATUS_ROUTE, pod, startHarness, uid, until, type Harness } from "./service";

/** Subscribes through the client's hub and records everything. */
function record(client: WorkspaceClient) {
  const seen = { events: [] as WorkspaceEvent[], states: [] as StreamState[] };
  const unsubscribe = client.subscribe({ onEvent: (e) => seen.events.push(e), onState: (s) => seen.states.push(s) });
  return { seen, unsubscribe };
}

const STREAM_PREFIX = "/v1/tenants/demo/events";

describe("event stream against the local service", () => {
  let h: Harness;
  let client: WorkspaceClient;

  afterEach(async () => {
    await h.ctl.clearFaults();
    await h.close();
  });

  it("should share one stream among 100 concurrent waiters, each with at most 3 status reads", async () => {
    h = await startHarness({ reconcileMs: 200 });
    client = h.client();
    await h.ctl.resetCounters();
    const ids = Array.from({ length: 100 }, () => uid());
    let maxOpen = 0;
    const sampler = setInterval(
      () => void h.ctl.counters().then((c) => (maxOpen = Math.max(maxOpen, c.streams.byWorkspace.demo ?? 0))),
      20,
    );
    try {
      await Promise.all(
        ids.map(async (id) => {
          await client.upsertWorkload("pod", pod(id));
          return waitForWorkload(client, id, { until: "ready", timeoutMs: 20_000 });
        }),
      );
    } finally {
      clearInterval(sampler);
    }
    const counters = await h.ctl.counters();
    expect(counters.streams.opened).toBe(1);
    expect(maxOpen).toBe(1);
    expect(counters.requests.byRoute[STATUS_ROUTE]).toBeLessThanOrEqual(3 * ids.length);
    await until(async () => (await h.ctl.counters()).streams.open === 0); // the last waiter closed it
  });

  it("should reconnect a dropped stream with Last-Event-ID and miss nothing", async () => {
    h = await startHarness({ reconcileMs: 30 });
    client = h.client({ stream: { reconnectInitialDelayMs: 20, reconnectMaxDelayMs: 50 } });
    const { seen, unsubscribe } = record(client);
    try {
      await until(() => seen.states.includes("open"));
      const id = uid();
      await h.ctl.pauseReconciler();
      await client.upsertWorkload("pod", pod(id));
      const waited = waitForWorkload(client, id, { until: "ready", timeoutMs: 10_000 });
      await until(() => seen.events.length >= 2);
      // Refuse reconnects for a while, and make the workload progress while the stream is down.
      await h.ctl.setFaults({ pathPrefix: STREAM_PREFIX, errorRate: 1, errorStatuses: [503], retryAfterSeconds: 0 });
      expect(await h.ctl.dropStreams()).toBe(1);
      await until(() => seen.states.at(-1) === "down");
      await h.ctl.resumeReconciler();
      await until(async () => (await h.ctl.transitions("demo", id)).some((t) => t.phase === "Running"));
      const missed = await client.listActivity({ limit: 1000 });
      await h.ctl.clearFaults();
      await until(() => seen.states.at(-1) === "open");
      await expect(waited).resolves.toMatchObject({ phase: "Running" });
      await until(() => seen.events.some((e) => e.id === missed.at(-1)?.id));
      const ids = seen.events.map((e) => Number(e.id));
      expect(ids).toEqual(ids.map((_, i) => ids[0] + i)); // consecutive: none twice, none skipped
      expect(seen.events.some((e) => e.type === "resync")).toBe(false);
      expect(
        seen.events.filter(
          (e) =>
            e.type === "activity" &&
            e.data.target?.id === id &&
            (e.data.detail as { phase?: string }).phase === "Running",
        ),
      ).toHaveLength(1);
    } finally {
      unsubscribe();
    }
  });

  it("should reconnect transparently when the service closes the stream at its lifetime cap", async () => {
    h = await startHarness({ reconcileMs: 20, streamMaxMs: 150 });
    client = h.client();
    const { seen, unsubscribe } = record(client);
    try {
      await until(() => seen.states.includes("open"));
      // Keep the workspace busy until the service has cut the stream twice.
      while (seen.states.filter((st) => st === "down").length < 2) {
        const id = uid();
        await client.upsertWorkload("pod", pod(id));
        await waitForWorkload(client, id, { until: "ready", timeoutMs: 10_000 });
      }
      await until(() => seen.states.at(-1) === "open");
      const eventIds = seen.events.map((e) => Number(e.id));
      expect(eventIds).toEqual(eventIds.map((_, i) => eventIds[0] + i));
      expect((await h.ctl.counters()).streams.opened).toBeGreaterThanOrEqual(2);
    } finally {
      unsubscribe();
    }
  });

  it("should answer a too-old id with resync, and waiters should read again", async () => {
    h = await startHarness({ reconcileMs: 20, ringSize: 5 });
    client = h.client({ stream: { reconnectInitialDelayMs: 20, reconnectMaxDelayMs: 50 } });
    const { seen, unsubscribe } = record(client);
    try {
      await until(() => seen.states.includes("open"));
      const id = uid();
      await h.ctl.pauseReconciler();
      await client.upsertWorkload("pod", pod(id));
      // No polls: the waiter can only learn of Running through the stream.
      const waited = waitForWorkload(client, id, {
        until: "ready",
        timeoutMs: 10_000,
        pollMinMs: 60_000,
        pollMaxMs: 60_000,
        safetyPollMs: 60_000,
      });
      await until(() => seen.events.length >= 2);
      await h.ctl.setFaults({ pathPrefix: STREAM_PREFIX, errorRate: 1, errorStatuses: [503], retryAfterSeconds: 0 });
      await h.ctl.dropStreams();
      await until(() => seen.states.at(-1) === "down");
      await h.ctl.resumeReconciler();
      await until(async () => (await h.ctl.transitions("demo", id)).some((t) => t.phase === "Running"));
      await h.ctl.emitEvents("demo", 20); // pushes the Running row out of the 5-event ring
      await h.ctl.resetCounters();
      await h.ctl.clearFaults();
      await expect(waited).resolves.toMatchObject({ phase: "Running" });
      expect(seen.events.some((e) => e.type === "resync")).toBe(true);
      expect((await h.ctl.counters()).requests.byRoute[STATUS_ROUTE]).toBe(1);
    } finally {
      unsubscribe();
    }
  });
});
