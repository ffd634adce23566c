import type { Random } from "../retry/backoff";
import type { Clock, TimerHandle } from "../clock";
import type { StreamListener, Unsubscribe } from "../events/types";
import type { Observation, WaitGoal } from "./condition";
import {
  initialReadState,
  nextRead,
  type ReadDecision,
  type ReadEvent,
  type ReadRules,
  type ReadState,
  type TimerName,
} from "./read-schedule";
import { readTiming, type ObserverTiming } from "./timing";

interface ObserverInit {
  id: string;
  goal: WaitGoal;
  /** See `ReadRules.requestedAt`. */
  requestedAt?: number;
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

/**
 * Reads `/status` for one workload when the rule of `read-schedule.ts` says so. It keeps the
 * rule's state, owns its timers and the read; it never decides readiness, nor when to read.
 */
export class StatusObserver {
  private readonly rules: ReadRules;
  private state: ReadState;
  private stopped = false;
  private readonly timers = new Map<TimerName, TimerHandle>();
  private unsubscribe: Unsubscribe | undefined;

  constructor(private readonly init: ObserverInit) {
    const { id, goal, requestedAt, random } = init;
    this.rules = { id, goal, timing: readTiming(init.timing), random, requestedAt };
    this.state = initialReadState(this.rules);
  }

  /**
   * The last event that could concern this workload, or the last (re)opening of the stream,
   * whichever is later (epoch ms); `undefined` while no stream is open: quiet cannot be seen then.
   */
  lastActivityAt(): number | undefined {
    return this.state.stream === "open" ? this.state.activityAt : undefined;
  }

  /** One more read at `epochMs` (replacing an earlier such request). */
  checkAt(epochMs: number): void {
    this.apply({ type: "settle-at", at: epochMs, now: this.init.clock.now() });
  }

  /** No read starts before `epochMs`: the service asked for that (`Retry-After`). */
  holdReads(epochMs: number): void {
    this.apply({ type: "hold", until: epochMs, now: this.init.clock.now() });
  }

  start(): void {
    const now = (): number => this.init.clock.now();
    if (this.init.timing.mode === "stream" && this.init.subscribe) {
      this.unsubscribe = this.init.subscribe({
        onState: (state) => this.apply({ type: "stream", state, now: now() }),
        onEvent: (event) => this.apply({ type: "event", event, now: now() }),
      });
    }
    this.apply({ type: "start", now: now() });
  }

  stop(): void {
    this.stopped = true;
    this.unsubscribe?.();
    this.unsubscribe = undefined;
    for (const handle of this.timers.values()) this.init.clock.clearTimeout(handle);
    this.timers.clear();
  }

  private apply(event: ReadEvent): void {
    if (this.stopped) return;
    const { state, decisions } = nextRead(this.state, event, this.rules);
    this.state = state;
    for (const d of decisions) this.carryOut(d);
  }

  private carryOut(d: ReadDecision): void {
    if (d.do === "read") return this.read();
    const handle = this.timers.get(d.timer);
    if (handle !== undefined) this.init.clock.clearTimeout(handle);
    this.timers.delete(d.timer);
    if (d.do === "clear") return;
    const timer = d.timer;
    const delay = Math.max(0, d.at - this.init.clock.now());
    this.timers.set(
      timer,
      this.init.clock.setTimeout(() => {
        this.timers.delete(timer);
        this.apply({ type: "timer", timer, now: this.init.clock.now() });
      }, delay),
    );
  }

  private read(): void {
    let ok = true;
    let phase: string | undefined;
    this.init
      .read()
      .then(
        (observation) => {
          phase = observation?.phase ?? "gone";
          if (!this.stopped) this.init.onObservation(observation);
        },
        (error: unknown) => {
          ok = false;
          if (!this.stopped) this.init.onReadError(error);
        },
      )
      .finally(() => this.apply({ type: "read-done", ok, phase, now: this.init.clock.now() }));
  }
}
