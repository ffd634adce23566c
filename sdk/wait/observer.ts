import { backoffDelay, type Random } from "../backoff";
import type { Clock, TimerHandle } from "../clock";
import type { StreamListener, StreamState, Unsubscribe } from "../events/types";
import type { ActivityRow, WorkspaceEvent } from "../schemas";
import type { Observation, WaitGoal } from "./condition";
import { namesTarget, relevanceOf, rowWorthALook } from "./relevance";

export interface ObserverTiming {
  /** `stream`: events trigger reads, polls only fill gaps; `poll`: a read every `pollIntervalMs`, no stream. */
  mode: "stream" | "poll";
  /**
   * Poll backoff while the stream is down, and after a failed read: from `pollMinMs`, doubling, up
   * to `pollMaxMs`, each delay up to half a step later at random (see `backoff.ts`).
   */
  pollMinMs: number;
  pollMaxMs: number;
  /** Poll interval while the stream is open, in case an event never comes. */
  safetyPollMs: number;
  /** Poll interval of mode `poll`. */
  pollIntervalMs: number;
  /** Events within this window after the first one are taken together: one read per burst. */
  debounceMs: number;
  /**
   * Reads for events that may or may not be this workload's (rows without a target, and
   * `spec-changed` on such a stream) are spaced: at least this long after the previous such
   * read at first, doubling after each, up to `vagueLookMaxMs` (jittered as the poll backoff). @default 100
   */
  vagueLookMinMs?: number;
  /** @default 1600 */
  vagueLookMaxMs?: number;
}

const DEFAULT_VAGUE_LOOK = Object.freeze({ minMs: 100, maxMs: 1600 });

export interface ObserverInit {
  id: string;
  goal: WaitGoal;
  timing: ObserverTiming;
  clock: Clock;
  /** Source of the jitter of the backoffs. */
  random: Random;
  /** One `GET /status`; resolves `undefined` on 404. */
  read: () => Promise<Observation>;
  /** The workspace's event stream; without it the observer only polls. */
  subscribe?: (listener: StreamListener) => Unsubscribe;
  onObservation: (observation: Observation) => void;
  onReadError: (error: unknown) => void;
}

interface Burst {
  look: boolean;
  untargeted: boolean;
  specChanged: boolean;
  lastRow: ActivityRow | undefined;
}

const emptyBurst = (): Burst => ({ look: false, untargeted: false, specChanged: false, lastRow: undefined });

/**
 * Decides when to read `/status` for one workload, and reads it. It never decides readiness.
 *
 * Inputs: stream state (`down`/`open`/`closed`), events, poll timers, read results.
 * Reads happen: once at start (after subscribing, so nothing between the read and the
 * subscription is missed); when the stream (re)opens (events while it was down may be lost);
 * after a burst of events worth a look; and by poll timer: backoff `pollMinMs`→`pollMaxMs`
 * while the stream is down or closed, `safetyPollMs` while it is open, `pollIntervalMs` in mode
 * `poll`, and the backoff again after a failed read.
 * Events that may be anyone's (activity rows without a target, which is all of them on a service
 * that follows only the published spec) would otherwise cost every waiter of the workspace a read
 * per burst: their reads are spaced, `vagueLookMinMs` doubling up to `vagueLookMaxMs`.
 * All three backoffs are `backoffDelay` with jitter: every wait of a process sees the stream drop
 * (or an untargeted row) at the same instant, and must not read in lockstep with the others.
 * `checkAt` adds one read at a given time (the waiter's settle rule).
 * Invariant: at most one read in flight; a trigger during a read marks it dirty, and one more
 * read follows when it completes (its answer may predate the trigger).
 */
export class StatusObserver {
  private streamState: StreamState = "closed";
  private started = false;
  private stopped = false;
  private inFlight = false;
  private dirty = false;
  /** Reads wait until then (epoch ms): a `Retry-After` the service sent. */
  private heldUntil = 0;
  /** Failed reads in a row: the step of the failure backoff. */
  private failures = 0;
  /** Step of the backoff while the stream is down; back to 1 each time it goes down. */
  private downStep = 1;
  private streamNamesTargets = false;
  private burst = emptyBurst();
  private burstTimer: TimerHandle | undefined;
  private pollTimer: TimerHandle | undefined;
  private vagueTimer: TimerHandle | undefined;
  private settleTimer: TimerHandle | undefined;
  private unsubscribe: Unsubscribe | undefined;
  private activityAt = 0;
  private lastVagueRead = 0;
  private vagueStep = 1;
  /** Drawn once per step, so re-checking the same due time does not redraw it. */
  private vagueGapMs: number;

  constructor(private readonly init: ObserverInit) {
    this.vagueGapMs = this.vagueGap();
  }

  /**
   * The last event that could concern this workload, or the last (re)opening of the stream,
   * whichever is later (epoch ms); `undefined` while no stream is open: quiet cannot be seen then.
   */
  lastActivityAt(): number | undefined {
    return this.streamState === "open" ? this.activityAt : undefined;
  }

  /** One more read at `epochMs` (replacing an earlier such request). */
  checkAt(epochMs: number): void {
    if (this.stopped) return;
    this.clearTimer("settleTimer");
    this.settleTimer = this.init.clock.setTimeout(
      () => {
        this.settleTimer = undefined;
        this.check();
      },
      Math.max(0, epochMs - this.init.clock.now()),
    );
  }

  start(): void {
    this.lastVagueRead = this.init.clock.now();
    if (this.init.timing.mode === "stream" && this.init.subscribe) {
      this.unsubscribe = this.init.subscribe({ onState: (s) => this.onState(s), onEvent: (e) => this.onEvent(e) });
    }
    this.started = true;
    this.check();
  }

  stop(): void {
    this.stopped = true;
    this.unsubscribe?.();
    this.unsubscribe = undefined;
    this.clearTimer("burstTimer");
    this.clearTimer("pollTimer");
    this.clearTimer("vagueTimer");
    this.clearTimer("settleTimer");
  }

  private onState(state: StreamState): void {
    const before = this.streamState;
    this.streamState = state;
    if (state === "open" && before !== "open") this.activityAt = this.init.clock.now();
    // The state reported at subscription needs no read: the first read comes right after it.
    if (!this.started || this.stopped || state === before) return;
    if (state === "open") {
      this.burst.look = true;
      this.armBurst();
      return;
    }
    this.downStep = 1;
    if (!this.inFlight) this.schedulePoll();
  }

  private onEvent(event: WorkspaceEvent): void {
    if (this.stopped) return;
    if (namesTarget(event)) this.streamNamesTargets = true;
    const r = relevanceOf(event, this.init.id);
    if (r.kind === "ignore") return;
    this.activityAt = this.init.clock.now();
    if (r.kind === "look") this.burst.look = true;
    if (r.kind === "untargeted") this.burst.untargeted = true;
    if (r.kind === "spec-changed") this.burst.specChanged = true;
    if (r.kind === "row") this.burst.lastRow = r.row;
    this.armBurst();
  }

  private armBurst(): void {
    if (this.burstTimer !== undefined) return;
    this.burstTimer = this.init.clock.setTimeout(() => {
      this.burstTimer = undefined;
      const b = this.burst;
      this.burst = emptyBurst();
      // A stream that names the targets of its rows also sends one for every change of ours, so
      // `spec-changed` (sent for every upsert in the workspace) would only cost a read per waiter.
      const specLook = b.specChanged && !this.streamNamesTargets;
      const rowLook = b.lastRow !== undefined && rowWorthALook(b.lastRow, this.init.goal);
      if (b.look || rowLook) this.check();
      else if (b.untargeted || specLook) this.vagueCheck();
    }, this.init.timing.debounceMs);
  }

  /** A read for an event that may not be this workload's, spaced from the previous such read. */
  private vagueCheck(): void {
    if (this.stopped || this.vagueTimer !== undefined) return;
    const due = this.lastVagueRead + this.vagueGapMs;
    const now = this.init.clock.now();
    if (now < due) {
      this.vagueTimer = this.init.clock.setTimeout(() => {
        this.vagueTimer = undefined;
        this.vagueCheck();
      }, due - now);
      return;
    }
    this.lastVagueRead = now;
    this.vagueStep++;
    this.vagueGapMs = this.vagueGap();
    this.check();
  }

  private vagueGap(): number {
    const { vagueLookMinMs = DEFAULT_VAGUE_LOOK.minMs, vagueLookMaxMs = DEFAULT_VAGUE_LOOK.maxMs } = this.init.timing;
    return backoffDelay(this.vagueStep, vagueLookMinMs, vagueLookMaxMs, this.init.random, "late");
  }

  /** No read starts before `epochMs`: the service asked for that (`Retry-After`). */
  holdReads(epochMs: number): void {
    this.heldUntil = Math.max(this.heldUntil, epochMs);
  }

  private check(): void {
    if (this.stopped) return;
    if (this.inFlight) {
      this.dirty = true;
      return;
    }
    this.clearTimer("pollTimer");
    const heldFor = this.heldUntil - this.init.clock.now();
    if (heldFor > 0) {
      // Whatever asked for this read is served by the first read after the hold.
      this.pollTimer = this.init.clock.setTimeout(() => {
        this.pollTimer = undefined;
        this.check();
      }, heldFor);
      return;
    }
    this.inFlight = true;
    this.init
      .read()
      .then(
        (observation) => {
          this.failures = 0;
          if (!this.stopped) this.init.onObservation(observation);
        },
        (error: unknown) => {
          this.failures++;
          if (!this.stopped) this.init.onReadError(error);
        },
      )
      .finally(() => {
        this.inFlight = false;
        if (this.stopped) return;
        if (this.dirty) {
          this.dirty = false;
          this.check();
          return;
        }
        this.schedulePoll();
      });
  }

  private schedulePoll(): void {
    this.clearTimer("pollTimer");
    const t = this.init.timing;
    const backoff = (step: number): number => backoffDelay(step, t.pollMinMs, t.pollMaxMs, this.init.random, "late");
    let delay: number;
    let backingOff = false;
    if (t.mode === "poll") delay = t.pollIntervalMs;
    else if (this.failures > 0) delay = backoff(this.failures);
    else if (this.streamState === "open") delay = t.safetyPollMs;
    else {
      delay = backoff(this.downStep);
      backingOff = true;
    }
    this.pollTimer = this.init.clock.setTimeout(() => {
      this.pollTimer = undefined;
      // Only a poll that ran moves the backoff on: one pre-empted by an event keeps its step.
      if (backingOff) this.downStep++;
      this.check();
    }, delay);
  }

  private clearTimer(which: "burstTimer" | "pollTimer" | "vagueTimer" | "settleTimer"): void {
    const handle = this[which];
    if (handle !== undefined) this.init.clock.clearTimeout(handle);
    this[which] = undefined;
  }
}
