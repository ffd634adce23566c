import { systemClock, type Clock } from "../clock";
import {
  AbortedError,
  ConnectionError,
  HttpError,
  InvalidOptionError,
  ReadinessTimeoutError,
  RequestTimeoutError,
  WorkloadFailedError,
} from "../errors";
import type { StreamListener, Unsubscribe } from "../events/types";
import type { CallOptions } from "../options";
import type { WorkloadStatus } from "../schemas";
import { checkInteger, definedOnly } from "../validate";
import { WorkloadCondition, type Observation, type Since, type WaitGoal } from "./condition";
import { StatusObserver, type ObserverTiming } from "./observer";
import { SharedStatusReads } from "./reads";
import { DEFAULT_SETTLE_RULE, type SettleRule } from "./settle";

/** Why a finished wait aborts its outstanding reads. */
const FINISHED = "wait finished";

/** What `waitForWorkload` needs of a client; `WorkspaceClient` has it. */
export interface WaitableClient {
  getStatus(id: string, options?: CallOptions): Promise<WorkloadStatus>;
  /** The workspace's event stream; without it the waiter polls. */
  subscribe?(listener: StreamListener): Unsubscribe;
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
}

export interface WaitOptions extends Partial<ObserverTiming> {
  /** `ready`: Running for the latest generation; `gone`: `/status` answers 404. */
  until: WaitGoal;
  /** Also wait for `adminReady` (storage with an admin console). @default false */
  adminReady?: boolean;
  /** Give up after this long with `ReadinessTimeoutError`. */
  timeoutMs: number;
  /** Cancels the wait with `AbortedError`. */
  signal?: AbortSignal;
  /** Called each time the phase (or its message) seen in `/status` changes. */
  onProgress?: (progress: WaitProgress) => void;
  /** For updates and restarts: never resolve on the record from before the request. */
  since?: Since;
  /** How a `since` wait settles when the service shows no evidence (see `settle.ts`). @default DEFAULT_SETTLE_RULE */
  settle?: Partial<SettleRule>;
  /** Time source. @default the system clock */
  clock?: Clock;
  /** Event source. @default `client.subscribe` */
  events?: (listener: StreamListener) => Unsubscribe;
}

export const DEFAULT_WAIT_TIMING: Readonly<ObserverTiming> = Object.freeze({
  mode: "stream",
  pollMinMs: 250, // 250 ms
  pollMaxMs: 5 * 1000, // 5 s
  safetyPollMs: 10 * 1000, // 10 s
  pollIntervalMs: 2 * 1000, // 2 s
  debounceMs: 5, // 5 ms
});

function resolveTiming(options: WaitOptions): ObserverTiming {
  const t = { ...DEFAULT_WAIT_TIMING, ...definedOnly(options) } as ObserverTiming & WaitOptions;
  if (t.until !== "ready" && t.until !== "gone") throw new InvalidOptionError("until", `must be "ready" or "gone"`);
  if (t.mode !== "stream" && t.mode !== "poll") throw new InvalidOptionError("mode", `must be "stream" or "poll"`);
  checkInteger("timeoutMs", t.timeoutMs, 1);
  checkInteger("pollMinMs", t.pollMinMs, 1);
  checkInteger("pollMaxMs", t.pollMaxMs, t.pollMinMs);
  checkInteger("safetyPollMs", t.safetyPollMs, 1);
  checkInteger("pollIntervalMs", t.pollIntervalMs, 1);
  checkInteger("debounceMs", t.debounceMs, 0);
  if (t.vagueLookMinMs !== undefined) checkInteger("vagueLookMinMs", t.vagueLookMinMs, 1);
  if (t.vagueLookMaxMs !== undefined) checkInteger("vagueLookMaxMs", t.vagueLookMaxMs, t.vagueLookMinMs ?? 1);
  if (t.since !== undefined && !Number.isFinite(t.since.requestedAt)) throw new InvalidOptionError("since.requestedAt", "must be epoch milliseconds");
  const settle = { ...DEFAULT_SETTLE_RULE, ...definedOnly(t.settle ?? {}) };
  checkInteger("settle.minMs", settle.minMs, 0);
  checkInteger("settle.quietMs", settle.quietMs, 0);
  checkInteger("settle.maxMs", settle.maxMs, settle.minMs);
  return { mode: t.mode, pollMinMs: t.pollMinMs, pollMaxMs: t.pollMaxMs, safetyPollMs: t.safetyPollMs, pollIntervalMs: t.pollIntervalMs, debounceMs: t.debounceMs, vagueLookMinMs: t.vagueLookMinMs, vagueLookMaxMs: t.vagueLookMaxMs };
}

/** Failures of a read that another read may not have: keep waiting (the observer backs off). */
function isTransient(error: unknown): boolean {
  if (error instanceof ConnectionError || error instanceof RequestTimeoutError) return true;
  return error instanceof HttpError && (error.status === 408 || error.status === 429 || error.status >= 500);
}

export function formatDuration(ms: number): string {
  if (ms < 1000) return `${ms} ms`;
  return `${Number((ms / 1000).toFixed(1))} s`;
}

/**
 * Waits until workload `id` is ready (or gone), deciding only from its `/status` records (see
 * `WorkloadCondition`); the event stream only says when to read again (see `StatusObserver`).
 * Resolves with the ready record (`undefined` for gone). Rejects with `WorkloadFailedError` at the
 * first fresh `Failed`, `ReadinessTimeoutError` (carrying the last record) after `timeoutMs`,
 * `AbortedError` when `signal` aborts, or the read's error when retrying cannot help (401, 403, …).
 * Every exit stops the observer: no subscription, timer or request outlives the wait.
 */
export function waitForWorkload(client: WaitableClient, id: string, options: WaitOptions): Promise<WorkloadStatus | undefined> {
  let timing: ObserverTiming;
  try {
    timing = resolveTiming(options);
  } catch (err) {
    return Promise.reject(err);
  }
  const clock = options.clock ?? systemClock;
  const goalText = options.until === "gone" ? "to be gone" : options.adminReady ? "to be ready with its admin console" : "to be ready";
  if (options.signal?.aborted) return Promise.reject(new AbortedError(`waiting for workload ${id} ${goalText}`, options.signal.reason));

  return new Promise((resolve, reject) => {
    const started = clock.now();
    // The one way out: everything that ends the wait aborts this, with the outcome as reason.
    const done = new AbortController();
    const settle: SettleRule = { ...DEFAULT_SETTLE_RULE, ...definedOnly(options.settle ?? {}) };
    const condition = new WorkloadCondition({ until: options.until, adminReady: options.adminReady, since: options.since, settle });
    let last: WorkloadStatus | undefined;
    let lastReason = "no status read yet";
    let lastError: unknown;
    let reported: string | undefined;

    const finish = (outcome: { value: WorkloadStatus | undefined } | { error: unknown }): void => {
      if (done.signal.aborted) return;
      observer.stop();
      clock.clearTimeout(timer);
      options.signal?.removeEventListener("abort", onCallerAbort);
      done.abort(FINISHED); // a plain reason: no AbortError (and its stack trace) per finished wait
      if ("error" in outcome) reject(outcome.error);
      else resolve(outcome.value);
    };

    const describe = (): string => `${last?.type ?? "workload"} ${id}`;
    const timeoutError = (): ReadinessTimeoutError => {
      let seen = lastReason;
      if (last) {
        seen = `last phase ${last.phase}${last.message ? ` (message: ${last.message})` : ""}`;
        if (lastReason !== `phase ${last.phase}`) seen += `; ${lastReason}`;
      }
      if (lastError instanceof Error) seen += `; last error: ${lastError.message}`;
      const message = `timed out after ${formatDuration(options.timeoutMs)} waiting for ${describe()} ${goalText}: ${seen}`;
      return new ReadinessTimeoutError(message, id, options.timeoutMs, last);
    };
    const onCallerAbort = (): void => finish({ error: new AbortedError(`waiting for ${describe()} ${goalText}`, options.signal?.reason) });
    const timer = clock.setTimeout(() => finish({ error: timeoutError() }), options.timeoutMs);

    const progress = (status: WorkloadStatus, settleAt: number | undefined): void => {
      const key = `${status.phase}\n${status.message ?? ""}\n${settleAt !== undefined}`;
      if (key === reported || !options.onProgress) return;
      reported = key;
      try {
        const settling = settleAt !== undefined ? { settling: { settleAt, rule: settle } } : {};
        options.onProgress({ id, phase: status.phase, message: status.message, status, elapsedMs: clock.now() - started, ...settling });
      } catch {
        // A progress reporter's failure is not the workload's.
      }
    };

    const onObservation = (observation: Observation): void => {
      lastError = undefined;
      const verdict = condition.observe(observation, { now: clock.now(), lastActivityAt: observer.lastActivityAt() });
      if (observation !== undefined) {
        last = observation;
        progress(observation, verdict.kind === "pending" ? verdict.settleAt : undefined);
      }
      if (verdict.kind === "satisfied") finish({ value: verdict.status });
      else if (verdict.kind === "failed") finish({ error: new WorkloadFailedError(id, verdict.status) });
      else {
        lastReason = verdict.reason;
        // Settling: look again when the rule would take the record, unless something comes first.
        if (verdict.settleAt !== undefined) observer.checkAt(verdict.settleAt);
      }
    };

    const onReadError = (error: unknown): void => {
      if (isTransient(error)) lastError = error;
      else finish({ error });
    };

    const observer = new StatusObserver({
      id,
      goal: options.until,
      timing,
      clock,
      read: () => SharedStatusReads.of(client, id).read(done.signal),
      subscribe: options.events ?? (client.subscribe ? (listener) => client.subscribe!(listener) : undefined),
      onObservation,
      onReadError,
    });
    options.signal?.addEventListener("abort", onCallerAbort, { once: true });
    observer.start();
  });
}
