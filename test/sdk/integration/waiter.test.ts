import { ReadinessTimeoutError, WorkloadFailedError, waitForWorkload, type WorkspaceClient } from "../../../sdk";
import { STATUS_ROUTE, pod, preciseNow, runningAt, startHarness, uid, until, type Harness } from "./service";

/**
 * No poll after the first read can come within the 10 s timeouts below, stream up or down: a wait
 * that ends has ended on an event. (How fast it does is a speed figure: `npm run bench`.)
 */
const EVENTS_ONLY = { pollMinMs: 60_000, pollMaxMs: 60_000, safetyPollMs: 60_000 };

describe("waitForWorkload against the local service", () => {
  let h: Harness;
  let client: WorkspaceClient;

  beforeAll(async () => {
    h = await startHarness({ reconcileMs: 150 });
    client = h.client();
  });
  afterAll(() => h.close());
  beforeEach(() => h.ctl.resumeReconciler());

  it("should resolve on the event, not on a poll, within 3 status reads", async () => {
    const id = uid();
    await client.upsertWorkload("pod", pod(id));
    await h.ctl.resetCounters();
    const status = await waitForWorkload(client, id, { until: "ready", timeoutMs: 10_000, ...EVENTS_ONLY });
    const resolvedAt = preciseNow();
    expect(status).toMatchObject({ id, phase: "Running", generation: 1, observedGeneration: 1 });
    const reads = (await h.ctl.counters()).requests.byRoute[STATUS_ROUTE];
    expect(reads).toBeLessThanOrEqual(3);
    expect(resolvedAt).toBeGreaterThanOrEqual(await runningAt(h.ctl, id));
  });

  it("should let waiters of the same workload share their status reads", async () => {
    const id = uid();
    await client.upsertWorkload("pod", pod(id));
    await h.ctl.resetCounters();
    const all = await Promise.all(
      Array.from({ length: 10 }, () => waitForWorkload(client, id, { until: "ready", timeoutMs: 10_000 })),
    );
    expect(all.every((s) => s?.phase === "Running")).toBe(true);
    // Unshared, each waiter would read 2-3 times (20-30 in all); shared, about 6.
    expect((await h.ctl.counters()).requests.byRoute[STATUS_ROUTE]).toBeLessThanOrEqual(8);
  });

  it("should report progress on each phase change it sees", async () => {
    const id = uid();
    await client.upsertWorkload("pod", pod(id));
    const phases: string[] = [];
    await waitForWorkload(client, id, {
      until: "ready",
      timeoutMs: 10_000,
      mode: "poll",
      pollIntervalMs: 50,
      onProgress: (p) => phases.push(p.phase),
    });
    expect(phases).toEqual(["Pending", "Provisioning", "Running"]);
  });

  it("should reject on the failure event with the service's message when the workload fails", async () => {
    const id = uid();
    await h.ctl.pauseReconciler();
    await client.upsertWorkload("pod", pod(id));
    const outcome = waitForWorkload(client, id, { until: "ready", timeoutMs: 10_000, ...EVENTS_ONLY }).catch(
      (e: unknown) => ({ e, at: preciseNow() }),
    );
    await new Promise((r) => setTimeout(r, 50));
    const failedAt = preciseNow();
    await h.ctl.failWorkload("demo", id, "image nginx:nope not found");
    const { e, at } = (await outcome) as { e: unknown; at: number };
    expect(e).toBeInstanceOf(WorkloadFailedError);
    expect((e as WorkloadFailedError).serviceMessage).toBe("image nginx:nope not found");
    expect(at).toBeGreaterThanOrEqual(failedAt);
  });

  it("should time out with the last phase when the reconciler is paused past the timeout", async () => {
    const id = uid();
    await client.upsertWorkload("pod", pod(id));
    await until(async () => (await client.getStatus(id)).phase === "Provisioning");
    await h.ctl.pauseReconciler();
    const err = await waitForWorkload(client, id, { until: "ready", timeoutMs: 400 }).catch((e: unknown) => e);
    expect(err).toBeInstanceOf(ReadinessTimeoutError);
    expect((err as Error).message).toBe(
      `timed out after 400 ms waiting for pod ${id} to be ready: last phase Provisioning`,
    );
    expect((err as ReadinessTimeoutError).lastStatus).toMatchObject({
      phase: "Provisioning",
      generation: 1,
      observedGeneration: 0,
    });
  });

  it("should never resolve an update or a restart on the previous generation's Running", async () => {
    const id = uid();
    await client.upsertWorkload("pod", pod(id));
    const first = await waitForWorkload(client, id, { until: "ready", timeoutMs: 10_000 });

    const updateAt = Date.now();
    await client.upsertWorkload("pod", pod(id, "nginx:1.28"));
    const updated = await waitForWorkload(client, id, {
      until: "ready",
      timeoutMs: 10_000,
      since: { previous: first, requestedAt: updateAt },
    });
    expect(updated).toMatchObject({ generation: 2, observedGeneration: 2 });
    expect(preciseNow()).toBeGreaterThanOrEqual(await runningAt(h.ctl, id, 2));

    const restartAt = Date.now();
    await client.restartWorkload(id);
    const restarted = await waitForWorkload(client, id, {
      until: "ready",
      timeoutMs: 10_000,
      since: { previous: updated, requestedAt: restartAt },
    });
    expect(restarted).toMatchObject({ generation: 3, observedGeneration: 3, restartCount: 1 });
    const transitions = await h.ctl.transitions("demo", id);
    expect(transitions.map((t) => `${t.phase}@${t.generation}`)).toEqual([
      "Pending@1",
      "Provisioning@1",
      "Running@1",
      "Pending@2",
      "Provisioning@2",
      "Running@2",
      "Restarting@3",
      "Running@3",
    ]);
  });

  it("should wait for the admin console when asked", async () => {
    const id = uid("db");
    await client.upsertWorkload("storage", {
      id,
      engine: "postgres",
      adminConsole: true,
      credentials: { password: "db-Pa55word!" },
    });
    const status = await waitForWorkload(client, id, { until: "ready", adminReady: true, timeoutMs: 10_000 });
    expect(status).toMatchObject({ phase: "Running", adminReady: true });
  });

  it("should resolve when a deleted workload is gone", async () => {
    const id = uid();
    await client.upsertWorkload("pod", pod(id));
    await waitForWorkload(client, id, { until: "ready", timeoutMs: 10_000 });
    await client.deleteWorkload(id);
    await expect(waitForWorkload(client, id, { until: "gone", timeoutMs: 10_000 })).resolves.toBeUndefined();
    await expect(client.getStatus(id)).rejects.toMatchObject({ status: 404 });
  });
});
