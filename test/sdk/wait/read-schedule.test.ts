import { DEFAULT_WAIT_TIMING, type WorkspaceEvent } from "../../../sdk";
import {
  JUST_REQUESTED_MS,
  initialReadState,
  nextRead,
  type ReadDecision,
  type ReadEvent,
  type ReadRules,
  type ReadState,
} from "../../../sdk/wait/read-schedule";

/** The rule's timings: the waiter's defaults, untargeted reads from 100 ms doubling to 1.6 s. */
const T = { ...DEFAULT_WAIT_TIMING, untargetedReadMinMs: 100, untargetedReadMaxMs: 1600 };
const rules = (over: Partial<ReadRules> = {}): ReadRules => ({
  id: "web",
  goal: "ready",
  timing: T,
  random: () => 0,
  ...over,
});
const NOW = 1_000_000;
/** A wait started 1 s ago, stream open, nothing in flight, no burst open. */
const started = (over: Partial<ReadState> = {}): ReadState => {
  const s = initialReadState(rules());
  return {
    ...s,
    started: true,
    stream: "open",
    activityAt: NOW - 1000,
    untargeted: { ...s.untargeted, lastReadAt: NOW - 1000 },
    ...over,
  };
};
const row = (target?: string, phase?: string): WorkspaceEvent => ({
  type: "activity",
  data: {
    id: "1",
    action: "workload.phase",
    ...(target ? { target: { type: "workload", id: target } } : {}),
    ...(phase ? { detail: { phase } } : {}),
  },
});
const read = (reason: string, at = NOW): ReadDecision[] => [
  { do: "clear", timer: "poll" },
  { do: "read", at, reason } as ReadDecision,
];
const arm = (timer: string, at: number, reason: string): ReadDecision[] => [
  { do: "arm", timer, at, reason } as ReadDecision,
];
const burstEnds = arm("burst", NOW + T.debounceMs, "burst window");
const openBurst = (over: Partial<ReadState["burst"]>): Partial<ReadState> => ({
  burst: { reopened: false, look: false, untargeted: false, specChanged: false, lastRow: undefined, ...over },
  burstEndsAt: NOW,
});

type Row = [string, Partial<ReadState> | ReadState, ReadEvent, ReadDecision[], Partial<ReadRules>?];

const ROWS: Row[] = [
  // Start and the stream's state.
  ["start: a read at once", { started: false }, { type: "start", now: NOW }, read("start")],
  [
    "start under a Retry-After hold: at its end",
    { started: false, heldUntil: NOW + 3000 },
    { type: "start", now: NOW },
    arm("poll", NOW + 3000, "Retry-After ended"),
  ],
  [
    "the state reported at subscription: no read (the start's read follows)",
    { started: false, stream: "closed" },
    { type: "stream", state: "open", now: NOW },
    [],
  ],
  ["the stream reopens: a burst opens", { stream: "down" }, { type: "stream", state: "open", now: NOW }, burstEnds],
  [
    "the stream goes down: the down backoff's first step",
    {},
    { type: "stream", state: "down", now: NOW },
    arm("poll", NOW + T.pollMinMs, "poll (stream down)"),
  ],
  [
    "the stream goes down during a read: the read's end schedules",
    { inFlight: true },
    { type: "stream", state: "down", now: NOW },
    [],
  ],
  ["the same state again: nothing", {}, { type: "stream", state: "open", now: NOW }, []],
  // Workspace events open a burst; its end decides.
  ["a row of this workload: a burst opens", {}, { type: "event", event: row("web", "Running"), now: NOW }, burstEnds],
  ["an untargeted row: a burst opens", {}, { type: "event", event: row(), now: NOW }, burstEnds],
  [
    "an event while a burst is open: the same burst",
    { burstEndsAt: NOW + 2 },
    { type: "event", event: row("web"), now: NOW },
    [],
  ],
  ["a row of another workload: nothing", {}, { type: "event", event: row("db", "Running"), now: NOW }, []],
  [
    "an agent event: nothing",
    {},
    { type: "event", event: { type: "agent-busy", data: { key: "daemon:web", busy: true } }, now: NOW },
    [],
  ],
  [
    "burst end, the stream reopened in it: a read",
    openBurst({ reopened: true }),
    { type: "timer", timer: "burst", now: NOW },
    read("stream reopened"),
  ],
  [
    "burst end, a resync in it: a read",
    openBurst({ look: true }),
    { type: "timer", timer: "burst", now: NOW },
    read("event"),
  ],
  [
    "burst end, its last row of ours names Running: a read",
    openBurst({ lastRow: row("web", "Running").data as never }),
    { type: "timer", timer: "burst", now: NOW },
    read("event"),
  ],
  [
    "burst end, its last row of ours names Provisioning (the wait cannot end there): nothing",
    openBurst({ lastRow: row("web", "Provisioning").data as never }),
    { type: "timer", timer: "burst", now: NOW },
    [],
  ],
  [
    "burst end, Provisioning in a wait for gone (a phase: still there): nothing",
    openBurst({ lastRow: row("web", "Provisioning").data as never }),
    { type: "timer", timer: "burst", now: NOW },
    [],
    { goal: "gone" },
  ],
  // Untargeted events: reads spaced from the previous such read.
  [
    "burst end, untargeted, the gap since the last such read passed: a read",
    openBurst({ untargeted: true }),
    { type: "timer", timer: "burst", now: NOW },
    read("untargeted event"),
  ],
  [
    "burst end, untargeted, within the gap: a read when it ends",
    { ...openBurst({ untargeted: true }), untargeted: { lastReadAt: NOW - 50, step: 1, gapMs: 100, dueAt: undefined } },
    { type: "timer", timer: "burst", now: NOW },
    arm("untargeted", NOW + 50, "untargeted event"),
  ],
  [
    "burst end, untargeted, a spaced read already waits: nothing more",
    { ...openBurst({ untargeted: true }), untargeted: { lastReadAt: NOW - 50, step: 1, gapMs: 100, dueAt: NOW + 50 } },
    { type: "timer", timer: "burst", now: NOW },
    [],
  ],
  [
    "the spaced read is due: a read",
    { untargeted: { lastReadAt: NOW - 100, step: 1, gapMs: 100, dueAt: NOW } },
    { type: "timer", timer: "untargeted", now: NOW },
    read("untargeted event"),
  ],
  [
    "burst end, spec-changed on a stream that names no target: untargeted",
    openBurst({ specChanged: true }),
    { type: "timer", timer: "burst", now: NOW },
    read("untargeted event"),
  ],
  [
    "burst end, spec-changed on a stream that names targets: nothing (our row comes)",
    { ...openBurst({ specChanged: true }), streamNamesTargets: true },
    { type: "timer", timer: "burst", now: NOW },
    [],
  ],
  // One read at a time.
  [
    "a trigger during a read: none now, one after it",
    { ...openBurst({ look: true }), inFlight: true },
    { type: "timer", timer: "burst", now: NOW },
    [],
  ],
  [
    "the read ends, a trigger came during it: one more read",
    { inFlight: true, dirty: true },
    { type: "read-done", ok: true, now: NOW },
    read("trigger during the read"),
  ],
  [
    "the read ends, stream open: the safety poll",
    { inFlight: true },
    { type: "read-done", ok: true, now: NOW },
    arm("poll", NOW + T.safetyPollMs, "poll (stream open)"),
  ],
  [
    "the read ends, stream down: the down backoff at its step",
    { inFlight: true, stream: "down", downStep: 3 },
    { type: "read-done", ok: true, now: NOW },
    arm("poll", NOW + 4 * T.pollMinMs, "poll (stream down)"),
  ],
  [
    "the read failed: the failure backoff's first step",
    { inFlight: true },
    { type: "read-done", ok: false, now: NOW },
    arm("poll", NOW + T.pollMinMs, "poll (after a failed read)"),
  ],
  [
    "the second failure in a row: its second step",
    { inFlight: true, failures: 1 },
    { type: "read-done", ok: false, now: NOW },
    arm("poll", NOW + 2 * T.pollMinMs, "poll (after a failed read)"),
  ],
  [
    "the read ends in mode poll: the fixed interval",
    { inFlight: true },
    { type: "read-done", ok: true, now: NOW },
    arm("poll", NOW + T.pollIntervalMs, "poll"),
    { timing: { ...T, mode: "poll" } },
  ],
  [
    "the backoff's delay, half a step late at most (random 0.5: a quarter)",
    {},
    { type: "stream", state: "down", now: NOW },
    arm("poll", NOW + T.pollMinMs + Math.floor(T.pollMinMs / 4), "poll (stream down)"),
    { random: () => 0.5 },
  ],
  // Polls.
  [
    "a poll fires: a read",
    { pollReason: "poll (stream open)" },
    { type: "timer", timer: "poll", now: NOW },
    read("poll (stream open)"),
  ],
  // Settle and Retry-After.
  [
    "the settle time asked for: a read then",
    {},
    { type: "settle-at", at: NOW + 1500, now: NOW },
    arm("settle", NOW + 1500, "settle check"),
  ],
  [
    "a settle time already past: a read at once",
    {},
    { type: "settle-at", at: NOW - 10, now: NOW },
    arm("settle", NOW, "settle check"),
  ],
  ["the settle time comes: a read", {}, { type: "timer", timer: "settle", now: NOW }, read("settle check")],
  ["a Retry-After: nothing now", {}, { type: "hold", until: NOW + 2000, now: NOW }, []],
  [
    "a read asked for during a hold: at its end",
    { heldUntil: NOW + 2000 },
    { type: "timer", timer: "settle", now: NOW },
    arm("poll", NOW + 2000, "Retry-After ended"),
  ],
  [
    "the hold's end: a read",
    { heldUntil: NOW, pollReason: "Retry-After ended" },
    { type: "timer", timer: "poll", now: NOW },
    read("Retry-After ended"),
  ],
];

describe("nextRead: when a wait reads /status", () => {
  // A rest parameter: jest takes a function of more parameters than a row has for one that calls `done`.
  it.each(ROWS)("%s", (...[, state, event, expected, over]: Row) => {
    const { decisions } = nextRead(started(state), event, rules(over));
    expect(decisions).toEqual(expected);
  });

  it("should not change the state it was given", () => {
    const before = started(openBurst({ untargeted: true }));
    const copy = structuredClone(before);
    nextRead(before, { type: "timer", timer: "burst", now: NOW }, rules());
    expect(before).toEqual(copy);
  });

  it("should double the gap after each untargeted read, up to the maximum, and keep it at the maximum", () => {
    let s = started({ untargeted: { lastReadAt: NOW - 100, step: 1, gapMs: 100, dueAt: undefined } });
    const gaps: number[] = [];
    for (let i = 0; i < 6; i++) {
      s = nextRead(
        s,
        { type: "timer", timer: "untargeted", now: s.untargeted.lastReadAt + s.untargeted.gapMs },
        rules(),
      ).state;
      s = { ...s, inFlight: false };
      gaps.push(s.untargeted.gapMs);
    }
    expect(gaps).toEqual([200, 400, 800, 1600, 1600, 1600]);
  });

  it("should hold the spacing at its second step just after a request while the workload is read moving, and only then", () => {
    /** The gaps of six untargeted reads in a row, each at its due time, the last read having found `phase`. */
    const gapsAfter = (phase: string | undefined, over: Partial<ReadRules>, start = NOW): number[] => {
      let s = started({
        lastPhase: phase,
        untargeted: { lastReadAt: start - 100, step: 1, gapMs: 100, dueAt: undefined },
      });
      const gaps: number[] = [];
      for (let i = 0; i < 6; i++) {
        const at = s.untargeted.lastReadAt + s.untargeted.gapMs;
        s = { ...nextRead(s, { type: "timer", timer: "untargeted", now: at }, rules(over)).state, inFlight: false };
        gaps.push(s.untargeted.gapMs);
      }
      return gaps;
    };
    // Restarting (or Pending, Provisioning) 0.5 s after the request: 200 ms apart until 2 s after it, then doubling.
    expect(gapsAfter("Restarting", { requestedAt: NOW - 500 })).toEqual([200, 200, 200, 200, 200, 200]);
    expect(gapsAfter("Provisioning", { requestedAt: NOW - 1500 })).toEqual([200, 200, 200, 400, 800, 1600]);
    // Read Running (the wait may end there), no request (a create's wait), or long after it: doubling as before.
    expect(gapsAfter("Running", { requestedAt: NOW - 500 })).toEqual([200, 400, 800, 1600, 1600, 1600]);
    expect(gapsAfter("Restarting", {})).toEqual([200, 400, 800, 1600, 1600, 1600]);
    expect(gapsAfter("Restarting", { requestedAt: NOW - JUST_REQUESTED_MS })).toEqual([
      200, 400, 800, 1600, 1600, 1600,
    ]);
    expect(gapsAfter(undefined, { requestedAt: NOW - 500 })).toEqual([200, 400, 800, 1600, 1600, 1600]);
  });

  it("should start the untargeted spacing again when a read finds the phase moved, and only then", () => {
    const spaced = started({
      inFlight: true,
      lastPhase: "Provisioning",
      untargeted: { lastReadAt: NOW - 100, step: 4, gapMs: 800, dueAt: undefined },
    });
    const moved = nextRead(spaced, { type: "read-done", ok: true, phase: "Running", now: NOW }, rules()).state
      .untargeted;
    expect(moved).toEqual({ lastReadAt: NOW - 100, step: 1, gapMs: T.untargetedReadMinMs, dueAt: undefined });
    const still = nextRead(spaced, { type: "read-done", ok: true, phase: "Provisioning", now: NOW }, rules()).state
      .untargeted;
    expect(still).toEqual(spaced.untargeted);
    const first = started({ inFlight: true, untargeted: spaced.untargeted });
    const seen = nextRead(first, { type: "read-done", ok: true, phase: "Running", now: NOW }, rules()).state;
    expect(seen.untargeted).toEqual(spaced.untargeted);
    expect(seen.lastPhase).toBe("Running");
  });

  it("should move the down backoff on only when its poll fires, and start it again each time the stream drops", () => {
    const fired = nextRead(
      started({ stream: "down", pollReason: "poll (stream down)", downStep: 2 }),
      { type: "timer", timer: "poll", now: NOW },
      rules(),
    );
    expect(fired.state.downStep).toBe(3);
    const safety = nextRead(
      started({ pollReason: "poll (stream open)", downStep: 2 }),
      { type: "timer", timer: "poll", now: NOW },
      rules(),
    );
    expect(safety.state.downStep).toBe(2);
    const dropped = nextRead(started({ downStep: 4 }), { type: "stream", state: "down", now: NOW }, rules());
    expect(dropped.state.downStep).toBe(1);
  });

  it("should count as activity what could be this workload's, and the stream's reopening, not other workloads' rows", () => {
    const at = (event: ReadEvent): number => nextRead(started(), event, rules()).state.activityAt;
    expect(at({ type: "event", event: row(), now: NOW })).toBe(NOW);
    expect(at({ type: "event", event: { type: "spec-changed", data: {} }, now: NOW })).toBe(NOW);
    expect(at({ type: "event", event: row("db", "Running"), now: NOW })).toBe(NOW - 1000);
    expect(
      nextRead(started({ stream: "down" }), { type: "stream", state: "open", now: NOW }, rules()).state.activityAt,
    ).toBe(NOW);
  });
});
