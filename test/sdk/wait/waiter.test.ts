import {
  AbortedError,
  ConnectionError,
  InvalidOptionError,
  NotFoundError,
  ReadinessTimeoutError,
  UnauthorizedError,
  UnavailableError,
  WorkloadFailedError,
  waitForWorkload,
  type CallOptions,
  type WaitOptions,
  type WaitProgress,
  type WaitableClient,
  type WorkloadStatus,
} from "../../../sdk";
import { FakeEvents, FakeReads } from "./fakes";

const http = { operation: "get status", status: 0, code: "http_error", serviceMessage: "x" } as const;
const flush = () => jest.advanceTimersByTimeAsync(0);

describe("waitForWorkload", () => {
  let events: FakeEvents;
  let reads: FakeReads;
  let signals: AbortSignal[];
  let client: WaitableClient;

  beforeEach(() => {
    jest.useFakeTimers();
    events = new FakeEvents("open");
    reads = new FakeReads();
    signals = [];
    client = {
      getStatus: (_id: string, options?: CallOptions) => {
        if (options?.signal) signals.push(options.signal);
        return reads.read() as Promise<WorkloadStatus>;
      },
      subscribe: events.subscribe,
    };
  });

  afterEach(() => {
    // Every exit path leaves nothing behind.
    expect(jest.getTimerCount()).toBe(0);
    expect(events.listeners.size).toBe(0);
    expect(signals.every((s) => s.aborted)).toBe(true);
    jest.useRealTimers();
  });

  // Random 0: the polls keep to their schedule, without jitter.
  const wait = (options: Partial<WaitOptions> = {}) =>
    waitForWorkload(client, "web", { until: "ready", timeoutMs: 30_000, random: () => 0, ...options });

  it("should resolve with the ready record when an event says to look, and report each phase", async () => {
    const progress: WaitProgress[] = [];
    const done = wait({ onProgress: (p) => progress.push(p) });
    reads.answer({ id: "web", type: "pod", phase: "Provisioning", generation: 1, observedGeneration: 0 });
    await jest.advanceTimersByTimeAsync(1000);
    events.row("web", "Running");
    await jest.advanceTimersByTimeAsync(5);
    reads.answer({ id: "web", type: "pod", phase: "Running", generation: 1, observedGeneration: 1 });
    await expect(done).resolves.toMatchObject({ phase: "Running", observedGeneration: 1 });
    expect(reads.count).toBe(2);
    expect(progress.map((p) => [p.phase, p.elapsedMs])).toEqual([
      ["Provisioning", 0],
      ["Running", 1005],
    ]);
  });

  it("should reject at once on Failed with the service's message", async () => {
    const done = wait();
    reads.answer({ id: "web", type: "pod", phase: "Failed", message: "image nginx:nope not found" });
    const err = await done.catch((e: unknown) => e);
    expect(err).toBeInstanceOf(WorkloadFailedError);
    expect((err as WorkloadFailedError).serviceMessage).toBe("image nginx:nope not found");
    expect((err as Error).message).toContain("pod web failed: image nginx:nope not found");
  });

  it("should time out with the last phase and message seen", async () => {
    const done = wait({ timeoutMs: 30_000 });
    const caught = done.catch((e: unknown) => e);
    reads.answer({ id: "web", type: "pod", phase: "Provisioning", message: "pulling image" });
    await jest.advanceTimersByTimeAsync(10_000);
    reads.answer({ id: "web", type: "pod", phase: "Provisioning", message: "pulling image" });
    await jest.advanceTimersByTimeAsync(20_000);
    const err = await caught;
    expect(err).toBeInstanceOf(ReadinessTimeoutError);
    expect((err as Error).message).toBe(
      "timed out after 30 s waiting for pod web to be ready: last phase Provisioning (message: pulling image)",
    );
    expect((err as ReadinessTimeoutError).lastStatus).toMatchObject({ phase: "Provisioning" });
  });

  it("should give up at its deadline, naming the whole budget of the operation it is part of", async () => {
    // An operation of 30 s whose calls took 12 s: the wait has 18 s left, and says 30 s.
    let settled = false;
    const caught = wait({ timeoutMs: 30_000, deadline: Date.now() + 18_000 }).catch((e: unknown) => e);
    void caught.then(() => (settled = true));
    reads.answer({ id: "web", type: "pod", phase: "Provisioning" });
    await jest.advanceTimersByTimeAsync(17_999);
    expect(settled).toBe(false);
    await jest.advanceTimersByTimeAsync(1);
    expect(((await caught) as Error).message).toBe(
      "timed out after 30 s waiting for pod web to be ready: last phase Provisioning",
    );
  });

  it("should say why a Running record was not enough when it times out", async () => {
    const previous = { phase: "Running", generation: 2, observedGeneration: 2 };
    const caught = wait({ timeoutMs: 500, since: { previous, requestedAt: Date.now() } }).catch((e: unknown) => e);
    reads.answer({ type: "pod", ...previous });
    await jest.advanceTimersByTimeAsync(500);
    expect(((await caught) as Error).message).toBe(
      "timed out after 500 ms waiting for pod web to be ready: last phase Running; still the Running record from before the request",
    );
  });

  it("should name the admin console in its goal when it waits for one", async () => {
    const caught = wait({ timeoutMs: 500, adminReady: true }).catch((e: unknown) => e);
    reads.answer({ id: "web", type: "storage", phase: "Running", adminReady: false });
    await jest.advanceTimersByTimeAsync(500);
    expect(((await caught) as Error).message).toBe(
      "timed out after 500 ms waiting for storage web to be ready with its admin console: last phase Running; admin console not ready yet",
    );
  });

  it("should cancel through the caller's signal", async () => {
    const ac = new AbortController();
    const caught = wait({ signal: ac.signal }).catch((e: unknown) => e);
    await flush();
    ac.abort();
    expect(await caught).toBeInstanceOf(AbortedError);
    await expect(wait({ signal: AbortSignal.abort() })).rejects.toThrow(AbortedError);
  });

  it("should resolve undefined when waiting for gone and the status is 404", async () => {
    const done = wait({ until: "gone" });
    reads.answer({ phase: "Deleting" });
    await flush();
    events.emit({ type: "activity", data: { action: "workload.deleted", target: { type: "workload", id: "web" } } });
    await jest.advanceTimersByTimeAsync(5);
    reads.fail(new NotFoundError({ ...http, status: 404, code: "not_found" }));
    await expect(done).resolves.toBeUndefined();
  });

  it("should fail at once when a read cannot succeed by retrying", async () => {
    const done = wait();
    reads.fail(new UnauthorizedError({ ...http, status: 401, code: "unauthorized" }));
    await expect(done).rejects.toThrow(UnauthorizedError);
  });

  it("should keep waiting through transient read failures, and name the last one on timeout", async () => {
    const caught = wait({ timeoutMs: 1000 }).catch((e: unknown) => e);
    reads.fail(new UnavailableError({ ...http, status: 503, code: "unavailable", serviceMessage: "busy" }));
    await jest.advanceTimersByTimeAsync(250);
    expect(reads.count).toBe(2);
    reads.fail(new UnavailableError({ ...http, status: 503, code: "unavailable", serviceMessage: "busy" }));
    await jest.advanceTimersByTimeAsync(750);
    const err = (await caught) as Error;
    expect(err).toBeInstanceOf(ReadinessTimeoutError);
    expect(err.message).toMatch(
      /^timed out after 1 s waiting for workload web to be ready: no status read yet; last error: .*busy/,
    );
  });

  it("should read no status before a Retry-After the service asked for, and fail at once on one past its end", async () => {
    const busy = (retryAfterMs: number) =>
      new UnavailableError({ ...http, status: 503, code: "unavailable", serviceMessage: "busy", retryAfterMs });
    const caught = wait({ timeoutMs: 60_000 }).catch((e: unknown) => e);
    reads.fail(busy(10_000));
    // Events that ask for a look wait for the Retry-After too.
    await jest.advanceTimersByTimeAsync(1000);
    events.row("web", "Running");
    await jest.advanceTimersByTimeAsync(8000);
    expect(reads.count).toBe(1);
    await jest.advanceTimersByTimeAsync(1100);
    expect(reads.count).toBe(2);
    // 999999 s: past the wait's end, so the wait fails now, naming the service's answer.
    reads.fail(busy(3_600_000));
    const err = (await caught) as Error;
    expect(err).toBeInstanceOf(UnavailableError);
    expect(err.message).toContain("retry after 3600 s");
    expect(reads.count).toBe(2);
  });

  describe("a service that stops answering", () => {
    const refused = () => new ConnectionError("get status of workload web", true, new Error("ECONNREFUSED"));
    /** Fails every read for `ms` of fake time with `error()`. */
    const failReadsFor = async (ms: number, error: () => unknown) => {
      for (let t = 0; t < ms; t += 50) {
        while (reads.pending.length > 0) reads.fail(error());
        await jest.advanceTimersByTimeAsync(50);
      }
    };

    beforeEach(() => {
      events = new FakeEvents("down"); // polls only: every read is the test's
      client.subscribe = events.subscribe;
    });

    it("should ride out an outage shorter than the unreachable window", async () => {
      const progress: WaitProgress[] = [];
      const done = wait({ unreachableMs: 10_000, onProgress: (p) => progress.push(p) });
      reads.answer({ id: "web", type: "pod", phase: "Pending" });
      await failReadsFor(8_000, refused);
      // Back: the next read (within the 5 s the poll backoff reaches) is answered.
      while (reads.pending.length === 0) await jest.advanceTimersByTimeAsync(50);
      reads.answer({ id: "web", type: "pod", phase: "Running" });
      await expect(done).resolves.toMatchObject({ phase: "Running" });
      expect(progress.find((p) => p.readError)?.readError).toMatchObject({ unreachableMs: 10_000 });
    });

    it("should give up once the reads have had no answer for the window, with the last phase and error", async () => {
      const caught = wait({ unreachableMs: 10_000 }).catch((e: unknown) => e);
      reads.answer({ id: "web", type: "pod", phase: "Pending" });
      await jest.advanceTimersByTimeAsync(250);
      const silentFrom = Date.now();
      reads.fail(refused());
      await failReadsFor(10_000, refused);
      const err = (await caught) as ReadinessTimeoutError;
      expect(err).toBeInstanceOf(ReadinessTimeoutError);
      expect(err.lastStatus).toMatchObject({ phase: "Pending" });
      expect(err.message).toMatch(
        /^the service has not answered for 10 s \(last error: .*could not reach the service.*\); gave up waiting for pod web to be ready after 10.3 s, last phase Pending$/,
      );
      expect(Date.now() - silentFrom).toBeLessThanOrEqual(10_050);
    });

    it("should count only silence: a service answering 503 is there, and its answers start the window again", async () => {
      const busy = () => new UnavailableError({ ...http, status: 503, code: "unavailable", serviceMessage: "busy" });
      const caught = wait({ unreachableMs: 10_000, timeoutMs: 40_000 }).catch((e: unknown) => e);
      // Reads come at least every 5 s (the poll backoff's cap): each stretch holds one.
      await failReadsFor(4_000, refused);
      await failReadsFor(6_000, busy);
      await failReadsFor(4_000, refused);
      await failReadsFor(30_000, busy);
      expect(((await caught) as Error).message).toMatch(/^timed out after 40 s/);
    });
  });

  it("should poll when the stream is down and resolve on a poll", async () => {
    events = new FakeEvents("down");
    client.subscribe = events.subscribe;
    const done = wait();
    reads.answer({ phase: "Provisioning" });
    await jest.advanceTimersByTimeAsync(250);
    reads.answer({ phase: "Running" });
    await expect(done).resolves.toEqual({ phase: "Running" });
  });

  it("should reject invalid options naming them", async () => {
    await expect(wait({ until: "up" as never })).rejects.toThrow(
      new InvalidOptionError("until", 'must be "ready" or "gone"'),
    );
    await expect(wait({ timeoutMs: 0 })).rejects.toThrow(/timeoutMs/);
    await expect(wait({ pollMinMs: 100, pollMaxMs: 50 })).rejects.toThrow(/pollMaxMs/);
    await expect(wait({ mode: "push" as never })).rejects.toThrow(/mode/);
  });
});
