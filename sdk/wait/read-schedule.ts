/**
 * When a wait reads `/status`: the rule, as a pure function of plain state and one event.
 *
 * Why: the event stream is only a doorbell, and on a spec-only service its rows name no workload,
 * so every waiter would read at every row. This rule decides, for one waiter, which rings are worth
 * a read and when; `StatusObserver` keeps the state, owns the timers and does the reads.
 * Readiness itself is never decided here (see `condition.ts`).
 *
 * Words used across `sdk/wait/`:
 * - **burst**: the events that arrive within `debounceMs` of a first one; they are taken together,
 *   one decision (and at most one read) per burst.
 * - **untargeted** event: one that may be this workload's or any other's (a row that names no
 *   workload; `spec-changed` on a stream that never names one). Reads for them are spaced from
 *   `untargetedReadMinMs`, doubling up to `untargetedReadMaxMs` while they find nothing new; a read
 *   that finds the phase changed starts the spacing again. Just after a request see `JUST_REQUESTED_MS`.
 * - **freshness** of a record: about the request or from before it (`condition.ts`); **settle**:
 *   taking a `Running` record without it once `settle.ts` allows (a read at `settle-at`).
 *
 * Reads happen: once at start (after subscribing); when the stream (re)opens; after a burst worth
 * a look; for untargeted bursts, spaced; at the settle time the waiter asks for; and by poll
 * (`pollMinMs`→`pollMaxMs` backoff while the stream is down, `safetyPollMs` while it is open,
 * `pollIntervalMs` in mode `poll`). Every backoff is jittered (`backoffDelay`): waits must not read in lockstep.
 * Invariants: at most one read in flight, and a trigger during a read is served by one more read
 * after it (its answer may predate the trigger); no read starts before a `Retry-After` hold ends.
 */
import { backoffDelay, type Random } from "../retry/backoff";
import type { StreamState } from "../events/types";
import type { ActivityRow, WorkspaceEvent } from "../schemas";
import type { WaitGoal } from "./condition";
import { cannotEndIn, namesTarget, relevanceOf, rowWorthALook } from "./relevance";
import type { ReadTiming } from "./timing";

/** What the rule reads besides its state: whose wait it is, and the source of the jitter. */
export interface ReadRules {
  id: string;
  goal: WaitGoal;
  timing: ReadTiming;
  random: Random;
  /** When the request a wait for an update or a restart is about was sent (epoch ms); undefined for other waits. */
  requestedAt?: number;
}

/**
 * Just after its request, a workload read in a phase its wait cannot end in (`Restarting`,
 * `Pending`, `Provisioning`) is about to land: for this long after the request, the spacing of
 * untargeted reads grows no further than its second step while the last read found it so (else the
 * rows of the requests sent beside it, a `pulumi up` restarting ten pods, would space the read that
 * sees it): at most one read per 200-300 ms then.
 */
export const JUST_REQUESTED_MS = 2 * 1000; // 2 s
const JUST_REQUESTED_MAX_STEP = 2;

export type TimerName = "burst" | "poll" | "untargeted" | "settle";

interface Burst {
  /** The stream (re)opened: events while it was down may be lost. */
  reopened: boolean;
  /** A `resync`: something may have changed that no event describes. */
  look: boolean;
  untargeted: boolean;
  specChanged: boolean;
  lastRow: ActivityRow | undefined;
}

export interface ReadState {
  stream: StreamState;
  started: boolean;
  inFlight: boolean;
  /** A trigger came during the read in flight: one more read follows it. */
  dirty: boolean;
  /** No read starts before this (epoch ms): a `Retry-After` the service sent. */
  heldUntil: number;
  /** Failed reads in a row: the step of the failure backoff. */
  failures: number;
  /** Step of the backoff while the stream is down; back to 1 each time it goes down. */
  downStep: number;
  /** Why the armed poll reads, when one is armed; a step of the down backoff moves on only when it fires. */
  pollReason: ReadReason | undefined;
  /** The stream has named the target of a row: then it sends one for every change of ours. */
  streamNamesTargets: boolean;
  /** The phase of the last record read ("gone" for a 404): a new one means the workload moves. */
  lastPhase: string | undefined;
  burst: Burst;
  /** When the open burst's window ends; undefined when none is open. */
  burstEndsAt: number | undefined;
  /** The last event that could be this workload's, or the stream's last (re)opening (epoch ms). */
  activityAt: number;
  untargeted: {
    lastReadAt: number;
    step: number;
    /** Drawn once per step, so re-checking the same due time does not redraw it. */
    gapMs: number;
    /** When the spaced read is due, while one waits; undefined otherwise. */
    dueAt: number | undefined;
  };
}

export type ReadEvent =
  | { type: "start"; now: number }
  | { type: "stream"; state: StreamState; now: number }
  | { type: "event"; event: WorkspaceEvent; now: number }
  | { type: "timer"; timer: TimerName; now: number }
  /** `phase`: the record's, when the read answered ("gone" for a 404). */
  | { type: "read-done"; ok: boolean; phase?: string; now: number }
  | { type: "settle-at"; at: number; now: number }
  | { type: "hold"; until: number; now: number };

type ReadReason =
  | "start"
  | "event"
  | "untargeted event"
  | "stream reopened"
  | "trigger during the read"
  | "settle check"
  | "poll"
  | "poll (stream open)"
  | "poll (stream down)"
  | "poll (after a failed read)"
  | "Retry-After ended";

/** Read now; arm a timer (replacing the one of that name); or clear one. */
export type ReadDecision =
  | { do: "read"; at: number; reason: ReadReason }
  | { do: "arm"; timer: TimerName; at: number; reason: ReadReason | "burst window" }
  | { do: "clear"; timer: TimerName };

interface ReadStep {
  state: ReadState;
  decisions: ReadDecision[];
}

const emptyBurst = (): Burst => ({
  reopened: false,
  look: false,
  untargeted: false,
  specChanged: false,
  lastRow: undefined,
});

function untargetedGap(step: number, rules: ReadRules): number {
  const t = rules.timing;
  return backoffDelay(step, t.untargetedReadMinMs, t.untargetedReadMaxMs, rules.random, "late");
}

export function initialReadState(rules: ReadRules): ReadState {
  return {
    stream: "closed",
    started: false,
    inFlight: false,
    dirty: false,
    heldUntil: 0,
    failures: 0,
    downStep: 1,
    pollReason: undefined,
    streamNamesTargets: false,
    lastPhase: undefined,
    burst: emptyBurst(),
    burstEndsAt: undefined,
    activityAt: 0,
    untargeted: { lastReadAt: 0, step: 1, gapMs: untargetedGap(1, rules), dueAt: undefined },
  };
}

/** The rule: what `event` changes in `state`, and which reads and timers follow. */
export function nextRead(state: ReadState, event: ReadEvent, rules: ReadRules): ReadStep {
  const s: ReadState = { ...state, burst: { ...state.burst }, untargeted: { ...state.untargeted } };
  const now = event.now;
  switch (event.type) {
    case "start":
      s.started = true;
      s.untargeted.lastReadAt = now;
      return step(s, read(s, now, "start"));
    case "stream":
      return step(s, onStream(s, event.state, now, rules));
    case "event":
      return step(s, onEvent(s, event.event, now, rules));
    case "timer":
      return step(s, onTimer(s, event.timer, now, rules));
    case "read-done": {
      s.inFlight = false;
      s.failures = event.ok ? 0 : s.failures + 1;
      // The workload is changing: the untargeted rows around are likely its own, and its next
      // phase is worth seeing soon. The spacing starts again; what it bounds is reads that find nothing.
      const moved = event.phase !== undefined && s.lastPhase !== undefined && event.phase !== s.lastPhase;
      if (event.phase !== undefined) s.lastPhase = event.phase;
      if (moved) Object.assign(s.untargeted, { step: 1, gapMs: untargetedGap(1, rules) });
      if (!s.dirty) return step(s, schedulePoll(s, now, rules));
      s.dirty = false;
      return step(s, read(s, now, "trigger during the read"));
    }
    case "settle-at":
      return step(s, [{ do: "arm", timer: "settle", at: Math.max(now, event.at), reason: "settle check" }]);
    case "hold":
      s.heldUntil = Math.max(s.heldUntil, event.until);
      return step(s, []);
  }
}

const step = (state: ReadState, decisions: ReadDecision[]): ReadStep => ({ state, decisions });

/** A read now, unless one is in flight (then one more after it) or reads are held (then at the hold's end). */
function read(s: ReadState, now: number, reason: ReadReason): ReadDecision[] {
  if (s.inFlight) {
    s.dirty = true;
    return [];
  }
  if (s.heldUntil > now) {
    // Whatever asked for this read is served by the first read after the hold.
    s.pollReason = "Retry-After ended";
    return [{ do: "arm", timer: "poll", at: s.heldUntil, reason: s.pollReason }];
  }
  s.inFlight = true;
  s.pollReason = undefined;
  return [
    { do: "clear", timer: "poll" },
    { do: "read", at: now, reason },
  ];
}

function schedulePoll(s: ReadState, now: number, rules: ReadRules): ReadDecision[] {
  const t = rules.timing;
  const backoff = (n: number): number => backoffDelay(n, t.pollMinMs, t.pollMaxMs, rules.random, "late");
  let poll: { delay: number; reason: ReadReason };
  if (t.mode === "poll") poll = { delay: t.pollIntervalMs, reason: "poll" };
  else if (s.failures > 0) poll = { delay: backoff(s.failures), reason: "poll (after a failed read)" };
  else if (s.stream === "open") poll = { delay: t.safetyPollMs, reason: "poll (stream open)" };
  else poll = { delay: backoff(s.downStep), reason: "poll (stream down)" };
  s.pollReason = poll.reason;
  return [{ do: "arm", timer: "poll", at: now + poll.delay, reason: poll.reason }];
}

function onStream(s: ReadState, state: StreamState, now: number, rules: ReadRules): ReadDecision[] {
  const before = s.stream;
  s.stream = state;
  if (state === "open" && before !== "open") s.activityAt = now;
  // The state reported at subscription needs no read: the first read comes right after it.
  if (!s.started || state === before) return [];
  if (state === "open") {
    s.burst.reopened = true;
    return openBurst(s, now, rules);
  }
  s.downStep = 1;
  return s.inFlight ? [] : schedulePoll(s, now, rules);
}

function onEvent(s: ReadState, event: WorkspaceEvent, now: number, rules: ReadRules): ReadDecision[] {
  if (namesTarget(event)) s.streamNamesTargets = true;
  const r = relevanceOf(event, rules.id);
  if (r.kind === "ignore") return [];
  s.activityAt = now;
  if (r.kind === "look") s.burst.look = true;
  if (r.kind === "untargeted") s.burst.untargeted = true;
  if (r.kind === "spec-changed") s.burst.specChanged = true;
  if (r.kind === "row") s.burst.lastRow = r.row;
  return openBurst(s, now, rules);
}

function openBurst(s: ReadState, now: number, rules: ReadRules): ReadDecision[] {
  if (s.burstEndsAt !== undefined) return [];
  s.burstEndsAt = now + rules.timing.debounceMs;
  return [{ do: "arm", timer: "burst", at: s.burstEndsAt, reason: "burst window" }];
}

function onTimer(s: ReadState, timer: TimerName, now: number, rules: ReadRules): ReadDecision[] {
  switch (timer) {
    case "burst":
      return burstEnded(s, now, rules);
    case "untargeted":
      s.untargeted.dueAt = undefined;
      return untargetedRead(s, now, rules);
    case "settle":
      return read(s, now, "settle check");
    case "poll": {
      const reason = s.pollReason ?? "poll";
      // Only a poll that ran moves the backoff on: one pre-empted by an event keeps its step.
      if (reason === "poll (stream down)") s.downStep++;
      return read(s, now, reason);
    }
  }
}

function burstEnded(s: ReadState, now: number, rules: ReadRules): ReadDecision[] {
  const b = s.burst;
  s.burst = emptyBurst();
  s.burstEndsAt = undefined;
  // A stream that names the targets of its rows also sends one for every change of ours, so
  // `spec-changed` (sent for every upsert in the workspace) would only cost a read per waiter.
  const specUntargeted = b.specChanged && !s.streamNamesTargets;
  const rowLook = b.lastRow !== undefined && rowWorthALook(b.lastRow, rules.goal);
  if (b.reopened) return read(s, now, "stream reopened");
  if (b.look || rowLook) return read(s, now, "event");
  if (b.untargeted || specUntargeted) return untargetedRead(s, now, rules);
  return [];
}

/** A read for an event that may be anyone's, spaced from the previous such read. */
function untargetedRead(s: ReadState, now: number, rules: ReadRules): ReadDecision[] {
  const u = s.untargeted;
  if (u.dueAt !== undefined) return [];
  const due = u.lastReadAt + u.gapMs;
  if (now < due) {
    u.dueAt = due;
    return [{ do: "arm", timer: "untargeted", at: due, reason: "untargeted event" }];
  }
  u.lastReadAt = now;
  u.step = landing(s, now, rules) ? Math.min(u.step + 1, JUST_REQUESTED_MAX_STEP) : u.step + 1;
  u.gapMs = untargetedGap(u.step, rules);
  return read(s, now, "untargeted event");
}

/** A wait for a request sent less than `JUST_REQUESTED_MS` ago, whose workload was last read moving. */
function landing(s: ReadState, now: number, rules: ReadRules): boolean {
  return (
    rules.requestedAt !== undefined &&
    now < rules.requestedAt + JUST_REQUESTED_MS &&
    s.lastPhase !== undefined &&
    cannotEndIn(s.lastPhase, rules.goal)
  );
}
