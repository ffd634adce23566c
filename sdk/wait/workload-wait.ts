import type { Random } from "../retry/backoff";
import type { Clock, TimerHandle } from "../clock";
import {
  AbortedError,
  ReadinessTimeoutError,
  RetriesExhaustedError,
  WorkloadFailedError,
  retryAfterOf,
} from "../errors";
import type { StreamListener, Unsubscribe } from "../events/types";
import type { WorkloadStatus } from "../schemas";
import { FailureStreak, FAILURE_TELL_EVERY_MS } from "../retry/failure-streak";
import { isNoAnswer, isTransientFailure } from "../retry/rules";
import { WorkloadCondition, type Observation, type Since, type Verdict, type WaitGoal } from "./condition";
import { describeWaitGoal } from "./goal";
import { StatusObserver } from "./observer";
import { SharedStatusReads, type StatusSource } from "./reads";
import type { SettleRule } from "./settle";
import type { ObserverTiming } from "./timing";

/** Why a finished wait aborts its outstanding reads. */
const FINISHED = "wait finished";

export function formatDuration(ms: number): string {
  if (ms < 1000) return `${ms} ms`;
  return `${Number((ms / 1000).toFixed(1))} s`;
}

export interface WaitProgress {
  id: string;
  phase: string;
  message: string | undefined;
  status: WorkloadStatus;
  /** Since the wait began. */
  elapsedMs: number;
  /**
   * Set while the record is Running but the service gives no evidence that it is about the
   * request: the wait is settling (see `settle.ts`), and takes it at `settleAt` (epoch ms) at the latest.
   */
  settling?: { settleAt: number; rule: SettleRule };
  /**
   * Set while `/status` cannot be read (the service does not answer, or answers 5xx): the last
   * error, and since when reads fail. `phase` is then the last one seen ("unknown" before any).
   */
  readError?: {
    message: string;
    sinceMs: number;
    /** Set when the reads get no answer at all (`isNoAnswer`): the wait gives up once that has lasted this long. */
    unreachableMs?: number;
  };
}

/**
 * Failing reads are told again at most this often. Reads come on the poll's schedule (up to
 * `pollMaxMs`, 5 s, apart): a read up to a second early still tells, so that the reports keep
 * about 15 s apart instead of slipping to 20.
 */
const READ_ERROR_REPORT_EVERY_MS = FAILURE_TELL_EVERY_MS - 1000; // 14 s

/** Everything one wait runs with, validated and defaulted by `waitForWorkload`. */
interface WorkloadWaitInit {
  client: StatusSource;
  id: string;
  until: WaitGoal;
  adminReady: boolean;
  timeoutMs: number;
  /** See `WaitOptions.deadline`. */
  deadline?: number;
  /** See `WaitOptions.unreachableMs`. */
  unreachableMs: number;
  timing: ObserverTiming;
  settle: SettleRule;
  clock: Clock;
  random: Random;
  since?: Since;
  signal?: AbortSignal;
  onProgress?: (progress: WaitProgress) => void;
  subscribe?: (listener: StreamListener) => Unsubscribe;
}

type Outcome = { value: WorkloadStatus | undefined } | { error: unknown };

/**
 * One wait for one workload.
 * States: waiting (from `run()`) → finished, exactly once, by the first of: a satisfied or failed
 * verdict on a `/status` record, a read error retrying cannot help, the timeout, reads without an
 * answer for `unreachableMs`, the caller's abort.
 * Named state kept for the messages: the last record, why it is still pending, the last transient
 * read error (cleared by the next answer), and the last progress reported (to report changes only).
 * Finishing stops the observer, clears the timer, drops the abort listener and aborts the reads.
 */
export class WorkloadWait {
  private readonly done = new AbortController();
  private readonly condition: WorkloadCondition;
  private readonly observer: StatusObserver;
  private readonly goalText: string;
  private started = 0;
  private timer: TimerHandle | undefined;
  /** Armed by the first read without an answer, cleared by any answer: the unreachable window. */
  private unreachableTimer: TimerHandle | undefined;
  private deliver: (outcome: Outcome) => void = () => undefined;
  private lastStatus: WorkloadStatus | undefined;
  private pendingReason = "no status read yet";
  private lastTransientError: unknown;
  /** The reads failing in a row, and when they were last reported. */
  private readonly failures = new FailureStreak();
  private reportedKey: string | undefined;

  constructor(private readonly init: WorkloadWaitInit) {
    const { until, adminReady, since, settle } = init;
    this.condition = new WorkloadCondition({ until, adminReady, since, settle });
    this.goalText = describeWaitGoal(until, adminReady);
    this.observer = new StatusObserver({
      id: init.id,
      goal: until,
      requestedAt: since?.requestedAt,
      timing: init.timing,
      clock: init.clock,
      random: init.random,
      read: () => SharedStatusReads.of(init.client, init.id).read(this.done.signal),
      subscribe: init.subscribe,
      onObservation: (observation) => this.onObservation(observation),
      onReadError: (error) => this.onReadError(error),
    });
  }

  run(): Promise<WorkloadStatus | undefined> {
    return new Promise((resolve, reject) => {
      this.deliver = (outcome) => ("error" in outcome ? reject(outcome.error) : resolve(outcome.value));
      this.started = this.init.clock.now();
      const { deadline, timeoutMs } = this.init;
      const delay = deadline === undefined ? timeoutMs : Math.max(0, deadline - this.started);
      this.timer = this.init.clock.setTimeout(() => this.finish({ error: this.timeoutError() }), delay);
      this.init.signal?.addEventListener("abort", this.onCallerAbort, { once: true });
      this.observer.start();
    });
  }

  private readonly onCallerAbort = (): void => {
    this.finish({
      error: new AbortedError(`waiting for ${this.workload()} ${this.goalText}`, this.init.signal?.reason),
    });
  };

  private onObservation(observation: Observation): void {
    this.lastTransientError = undefined;
    this.failures.end();
    this.answered();
    const verdict = this.condition.observe(observation, {
      now: this.init.clock.now(),
      lastActivityAt: this.observer.lastActivityAt(),
    });
    if (observation !== undefined) {
      this.lastStatus = observation;
      this.report(observation, verdict.kind === "pending" ? verdict.settleAt : undefined);
    }
    this.apply(verdict);
  }

  private apply(verdict: Verdict): void {
    if (verdict.kind === "satisfied") this.finish({ value: verdict.status });
    else if (verdict.kind === "failed") this.finish({ error: new WorkloadFailedError(this.init.id, verdict.status) });
    else {
      this.pendingReason = verdict.reason;
      // Settling: look again when the rule would take the record, unless something comes first.
      if (verdict.settleAt !== undefined) this.observer.checkAt(verdict.settleAt);
    }
  }

  private onReadError(error: unknown): void {
    // A read that may pass on a second try keeps the wait going (the observer backs off).
    if (!isTransientFailure(error)) return this.finish({ error });
    // A Retry-After is honoured as calls honour it; one past the wait's end fails the wait now.
    const retryAfterMs = retryAfterOf(error instanceof RetriesExhaustedError ? error.lastError : error);
    if (retryAfterMs !== undefined) {
      const readAt = this.init.clock.now() + retryAfterMs;
      if (readAt >= this.endsAt()) return this.finish({ error });
      this.observer.holdReads(readAt);
    }
    this.lastTransientError = error;
    const noAnswer = isNoAnswer(error);
    if (!noAnswer) this.answered();
    else
      this.unreachableTimer ??= this.init.clock.setTimeout(
        () => this.finish({ error: this.unreachableError() }),
        this.init.unreachableMs,
      );
    const now = this.init.clock.now();
    this.failures.fail(now, noAnswer);
    if (!this.init.onProgress || !this.failures.due(now, READ_ERROR_REPORT_EVERY_MS)) return;
    this.reportedKey = undefined; // the next record is news again
    const message = error instanceof Error ? error.message : String(error);
    const status = this.lastStatus ?? { id: this.init.id, phase: "unknown" };
    try {
      this.init.onProgress({
        id: this.init.id,
        phase: status.phase,
        message: undefined,
        status: status as WorkloadStatus,
        elapsedMs: now - this.started,
        readError: {
          message,
          sinceMs: this.failures.lastedMs(now),
          ...(noAnswer ? { unreachableMs: this.init.unreachableMs } : {}),
        },
      });
    } catch {
      // A progress reporter's failure is not the workload's.
    }
  }

  private report(status: WorkloadStatus, settleAt: number | undefined): void {
    const { onProgress, id, clock, settle } = this.init;
    const key = `${status.phase}\n${status.message ?? ""}\n${settleAt !== undefined}`;
    if (key === this.reportedKey || !onProgress) return;
    this.reportedKey = key;
    try {
      const settling = settleAt !== undefined ? { settling: { settleAt, rule: settle } } : {};
      onProgress({
        id,
        phase: status.phase,
        message: status.message,
        status,
        elapsedMs: clock.now() - this.started,
        ...settling,
      });
    } catch {
      // A progress reporter's failure is not the workload's.
    }
  }

  private finish(outcome: Outcome): void {
    if (this.done.signal.aborted) return;
    this.observer.stop();
    this.init.clock.clearTimeout(this.timer);
    this.answered();
    this.init.signal?.removeEventListener("abort", this.onCallerAbort);
    this.done.abort(FINISHED); // a plain reason: no AbortError (and its stack trace) per finished wait
    this.deliver(outcome);
  }

  /** When the wait times out (epoch ms). */
  private endsAt(): number {
    return this.init.deadline ?? this.started + this.init.timeoutMs;
  }

  private workload(): string {
    return `${this.lastStatus?.type ?? "workload"} ${this.init.id}`;
  }

  /** The service answered (a record, or an error it sent): the unreachable window starts again at the next silence. */
  private answered(): void {
    if (this.unreachableTimer !== undefined) this.init.clock.clearTimeout(this.unreachableTimer);
    this.unreachableTimer = undefined;
  }

  private unreachableError(): ReadinessTimeoutError {
    const { unreachableMs, id, clock } = this.init;
    const error = this.lastTransientError instanceof Error ? ` (last error: ${this.lastTransientError.message})` : "";
    const last = this.lastStatus ? `, last phase ${this.lastStatus.phase}` : "";
    const message =
      `the service has not answered for ${formatDuration(unreachableMs)}${error}; gave up waiting for ` +
      `${this.workload()} ${this.goalText} after ${formatDuration(clock.now() - this.started)}${last}`;
    return new ReadinessTimeoutError(message, id, unreachableMs, this.lastStatus);
  }

  private timeoutError(): ReadinessTimeoutError {
    const last = this.lastStatus;
    let seen = this.pendingReason;
    if (last) {
      seen = `last phase ${last.phase}${last.message ? ` (message: ${last.message})` : ""}`;
      if (this.pendingReason !== `phase ${last.phase}`) seen += `; ${this.pendingReason}`;
    }
    if (this.lastTransientError instanceof Error) seen += `; last error: ${this.lastTransientError.message}`;
    const { timeoutMs, id } = this.init;
    const message = `timed out after ${formatDuration(timeoutMs)} waiting for ${this.workload()} ${this.goalText}: ${seen}`;
    return new ReadinessTimeoutError(message, id, timeoutMs, last);
  }
}
