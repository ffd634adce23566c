import { DEFAULT_WAIT_TIMING, type ObserverTiming, type StreamState } from "../../../sdk";
import { StatusObserver } from "../../../sdk/wait/observer";
import { systemClock } from "../../../sdk/clock";
import { FakeEvents, FakeReads } from "./fakes";

const running = { phase: "Running" };
const flush = () => jest.advanceTimersByTimeAsync(0);

describe("StatusObserver", () => {
  let log: string[];
  let events: FakeEvents;
  let reads: FakeReads;
  let observed: number;
  let observer: StatusObserver;

  function start(
    state: StreamState = "open",
    timing: Partial<ObserverTiming> = {},
    goal: "ready" | "gone" = "ready",
    random: () => number = () => 0,
  ): void {
    log = [];
    events = new FakeEvents(state, log);
    reads = new FakeReads(log);
    observed = 0;
    observer = new StatusObserver({
      id: "web",
      goal,
      timing: { ...DEFAULT_WAIT_TIMING, ...timing },
      clock: systemClock,
      random,
      read: reads.read,
      subscribe: events.subscribe,
      onObservation: () => observed++,
      onReadError: () => undefined,
    });
    observer.start();
  }

  beforeEach(() => jest.useFakeTimers());
  afterEach(() => {
    observer.stop();
    expect(jest.getTimerCount()).toBe(0);
    jest.useRealTimers();
  });

  it("should subscribe before the first read, and not read again for the state reported at subscription", async () => {
    start("open");
    expect(log).toEqual(["subscribe", "read"]);
    reads.answer(running);
    await flush();
    expect(observed).toBe(1);
    await jest.advanceTimersByTimeAsync(9_000);
    expect(reads.count).toBe(1);
  });

  it("should never have two reads in flight, and read once more after triggers during a read", async () => {
    start("open");
    for (let i = 0; i < 5; i++) {
      events.row("web", "Running");
      events.emit({ type: "resync", data: {} });
      await jest.advanceTimersByTimeAsync(10);
    }
    expect(reads.pending).toHaveLength(1);
    reads.answer(running);
    await flush();
    expect(reads.count).toBe(2);
    reads.answer(running);
    await flush();
    expect(reads.count).toBe(2);
  });

  it("should take a burst of events as one trigger", async () => {
    start("open");
    reads.answer(running);
    await flush();
    for (let i = 0; i < 10; i++) events.row("web");
    await jest.advanceTimersByTimeAsync(DEFAULT_WAIT_TIMING.debounceMs);
    expect(reads.count).toBe(2);
  });

  it("should ignore rows of other workloads and rows naming a phase the wait cannot end in", async () => {
    start("open");
    reads.answer(running);
    await flush();
    events.row("db", "Running");
    events.row("web", "Provisioning");
    events.emit({ type: "agent-busy", data: { key: "daemon:web", busy: true } });
    await jest.advanceTimersByTimeAsync(100);
    expect(reads.count).toBe(1);
    events.row("web", "Provisioning");
    events.row("web", "Running");
    await jest.advanceTimersByTimeAsync(10);
    expect(reads.count).toBe(2);
  });

  it("should let the newest row of a burst decide", async () => {
    start("open");
    reads.answer(running);
    await flush();
    events.row("web"); // workload.created: no phase
    events.row("web", "Pending");
    await jest.advanceTimersByTimeAsync(10);
    expect(reads.count).toBe(1);
  });

  it("should read on spec-changed, spaced from the start, until the stream has shown it names targets", async () => {
    start("open");
    reads.answer(running);
    await flush();
    events.emit({ type: "spec-changed", data: {} });
    await jest.advanceTimersByTimeAsync(10);
    expect(reads.count).toBe(1);
    await jest.advanceTimersByTimeAsync(100);
    expect(reads.count).toBe(2);
    reads.answer(running);
    await flush();
    events.row("db", "Pending");
    events.emit({ type: "spec-changed", data: {} });
    await jest.advanceTimersByTimeAsync(10);
    expect(reads.count).toBe(2);
  });

  it("should space the reads for rows that name no workload, 100 ms after the start then doubling up to 1.6 s", async () => {
    // Random 0 is the schedule itself; just under 1, each gap is up to half a step later, capped at 1.6 s.
    for (const [random, gaps] of [
      [() => 0, [100, 200, 400, 800, 1600]],
      [() => 0.999999, [149, 299, 599, 1199, 1600]],
    ] as const) {
      start("open", {}, "ready", random);
      const t0 = Date.now();
      reads.answer(running);
      await flush();
      for (let t = 0; t < 4000; t += 20) {
        events.emit({ type: "activity", data: { id: String(t), action: "workload.phase" } });
        const before = reads.count;
        await jest.advanceTimersByTimeAsync(20);
        if (reads.count > before) {
          reads.answer(running);
          await flush();
        }
      }
      // 5 reads in 4 s, not 200.
      const readsAt = reads.at.slice(1).map((at) => at - t0);
      expect(readsAt.map((at, i) => at - (i === 0 ? 0 : readsAt[i - 1]))).toEqual(gaps);
      observer.stop();
    }
  });

  it("should space untargeted reads from 100 ms again once a read finds the phase moved", async () => {
    start("open");
    const t0 = Date.now();
    reads.answer({ phase: "Pending" });
    await flush();
    // Rows every 20 ms; the workload shows Provisioning from the fourth read on.
    const phases = ["Pending", "Pending", "Provisioning", "Provisioning", "Provisioning"];
    for (let t = 0; t < 2000 && phases.length > 0; t += 20) {
      events.emit({ type: "activity", data: { id: String(t), action: "workload.phase" } });
      const before = reads.count;
      await jest.advanceTimersByTimeAsync(20);
      if (reads.count > before) {
        reads.answer({ phase: phases.shift()! });
        await flush();
      }
    }
    const readsAt = reads.at.slice(1).map((at) => at - t0);
    expect(readsAt.map((at, i) => at - (i === 0 ? 0 : readsAt[i - 1]))).toEqual([100, 200, 400, 100, 200]);
  });

  it("should read on resync and when the stream reopens", async () => {
    start("open");
    reads.answer(running);
    await flush();
    events.emit({ type: "resync", data: {} });
    await jest.advanceTimersByTimeAsync(10);
    expect(reads.count).toBe(2);
    reads.answer(running);
    await flush();
    events.set("down");
    events.set("open");
    await jest.advanceTimersByTimeAsync(10);
    expect(reads.count).toBe(3);
    reads.answer(running);
    await flush();
  });

  it("should poll with backoff from 250 ms to 5 s while the stream is down, up to half a step later at random", async () => {
    for (const [random, gaps] of [
      [() => 0, [250, 500, 1000, 2000, 4000, 5000, 5000, 5000]],
      [() => 0.999999, [374, 749, 1499, 2999, 5000, 5000, 5000, 5000]],
    ] as const) {
      start("down", {}, "ready", random);
      const t0 = Date.now();
      for (let i = 0; i < 8; i++) {
        reads.answer(running);
        await flush();
        await jest.advanceTimersToNextTimerAsync(); // the poll timer: the only one while down
      }
      const times = reads.at.slice(1).map((at) => at - t0);
      expect(times.map((t, i) => t - (i === 0 ? 0 : times[i - 1]))).toEqual(gaps);
      reads.answer(running);
      await flush();
      observer.stop();
    }
  });

  it("should restart the backoff each time the stream goes down", async () => {
    start("open");
    reads.answer(running);
    await flush();
    events.set("down");
    await jest.advanceTimersByTimeAsync(250);
    expect(reads.count).toBe(2);
    reads.answer(running);
    await flush();
  });

  it("should poll only every safetyPollMs while the stream is open", async () => {
    start("open");
    reads.answer(running);
    await flush();
    await jest.advanceTimersByTimeAsync(9_990);
    expect(reads.count).toBe(1);
    await jest.advanceTimersByTimeAsync(10);
    expect(reads.count).toBe(2);
    reads.answer(running);
    await flush();
  });

  it("should poll at a fixed interval without a stream in mode poll", async () => {
    start("open", { mode: "poll", pollIntervalMs: 2000 });
    expect(events.subscriptions).toBe(0);
    for (let i = 1; i <= 3; i++) {
      reads.answer(running);
      await flush();
      await jest.advanceTimersByTimeAsync(1999);
      expect(reads.count).toBe(i);
      await jest.advanceTimersByTimeAsync(1);
      expect(reads.count).toBe(i + 1);
    }
    reads.answer(running);
    await flush();
  });

  it("should back off after a failed read even while the stream is open", async () => {
    start("open");
    reads.fail(new Error("503"));
    await flush();
    await jest.advanceTimersByTimeAsync(250);
    expect(reads.count).toBe(2);
    reads.fail(new Error("503"));
    await flush();
    await jest.advanceTimersByTimeAsync(499);
    expect(reads.count).toBe(2);
    await jest.advanceTimersByTimeAsync(1);
    expect(reads.count).toBe(3);
    reads.answer(running);
    await flush();
  });

  it("should unsubscribe and clear its timers on stop, and deliver nothing after", async () => {
    start("open");
    events.row("web", "Running");
    observer.stop();
    expect(log).toEqual(["subscribe", "read", "unsubscribe"]);
    reads.answer(running);
    await flush();
    expect(observed).toBe(0);
  });
});
