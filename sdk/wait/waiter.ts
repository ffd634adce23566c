import { systemClock, type Clock } from "../clock";
import { AbortedError, InvalidOptionError } from "../errors";
import type { StreamListener, Unsubscribe } from "../events/types";
import type { CallOptions } from "../options";
import { DEFAULT_RETRY } from "../retry/decide";
import type { WorkloadStatus } from "../schemas";
import { checkInteger, definedOnly } from "../validate";
import type { Since, WaitGoal } from "./condition";
import { describeWaitGoal } from "./goal";
import type { ObserverTiming } from "./timing";
import { DEFAULT_SETTLE_RULE, type SettleRule } from "./settle";
import { WorkloadWait, type WaitProgress } from "./workload-wait";

/** What `waitForWorkload` needs of a client; `WorkspaceClient` has it. */
export interface WaitableClient {
  getStatus(id: string, options?: CallOptions): Promise<WorkloadStatus>;
  /** The workspace's event stream; without it the waiter polls. */
  subscribe?(listener: StreamListener): Unsubscribe;
}

export interface WaitOptions extends Partial<ObserverTiming> {
  /** `ready`: Running for the latest generation; `gone`: `/status` answers 404. */
  until: WaitGoal;
  /** Also wait for `adminReady` (storage with an admin console). @default false */
  adminReady?: boolean;
  /** Give up after this long with `ReadinessTimeoutError`, whose message names it as the budget. */
  timeoutMs: number;
  /**
   * Give up at this time instead (epoch ms, on `clock`): the wait of an operation whose calls
   * already spent part of its `timeoutMs`, which stays the budget its error names. @default now + timeoutMs
   */
  deadline?: number;
  /**
   * Give up sooner, with `ReadinessTimeoutError` too, once the status reads have had no answer
   * (`isNoAnswer`: no connection, attempt timeouts, 502/504) for this long in a row: a service that
   * stopped answering ends the wait, a shorter outage is ridden out. @default 60000 (60 s: `DEFAULT_RETRY.unreachableGiveUpMs`)
   */
  unreachableMs?: number;
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
  /** Source of the poll backoff's jitter, uniform in [0, 1). @default Math.random */
  random?: () => number;
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

function resolveOptions(options: WaitOptions): { timing: ObserverTiming; settle: SettleRule } {
  const t = { ...DEFAULT_WAIT_TIMING, ...definedOnly(options) } as ObserverTiming & WaitOptions;
  if (t.until !== "ready" && t.until !== "gone") throw new InvalidOptionError("until", `must be "ready" or "gone"`);
  if (t.mode !== "stream" && t.mode !== "poll") throw new InvalidOptionError("mode", `must be "stream" or "poll"`);
  checkInteger("timeoutMs", t.timeoutMs, 1);
  if (t.deadline !== undefined && !Number.isFinite(t.deadline))
    throw new InvalidOptionError("deadline", "must be epoch milliseconds");
  if (t.unreachableMs !== undefined) checkInteger("unreachableMs", t.unreachableMs, 1);
  checkInteger("pollMinMs", t.pollMinMs, 1);
  checkInteger("pollMaxMs", t.pollMaxMs, t.pollMinMs);
  checkInteger("safetyPollMs", t.safetyPollMs, 1);
  checkInteger("pollIntervalMs", t.pollIntervalMs, 1);
  checkInteger("debounceMs", t.debounceMs, 0);
  // The deprecated names (vagueLook…) are checked under their own, where the new ones are not given.
  const untargetedMin = t.untargetedReadMinMs !== undefined ? "untargetedReadMinMs" : "vagueLookMinMs";
  const untargetedMax = t.untargetedReadMaxMs !== undefined ? "untargetedReadMaxMs" : "vagueLookMaxMs";
  if (t[untargetedMin] !== undefined) checkInteger(untargetedMin, t[untargetedMin], 1);
  if (t[untargetedMax] !== undefined) checkInteger(untargetedMax, t[untargetedMax], t[untargetedMin] ?? 1);
  if (t.since !== undefined && !Number.isFinite(t.since.requestedAt))
    throw new InvalidOptionError("since.requestedAt", "must be epoch milliseconds");
  const settle = { ...DEFAULT_SETTLE_RULE, ...definedOnly(t.settle ?? {}) };
  checkInteger("settle.minMs", settle.minMs, 0);
  checkInteger("settle.quietMs", settle.quietMs, 0);
  checkInteger("settle.maxMs", settle.maxMs, settle.minMs);
  const timing: ObserverTiming = {
    mode: t.mode,
    pollMinMs: t.pollMinMs,
    pollMaxMs: t.pollMaxMs,
    safetyPollMs: t.safetyPollMs,
    pollIntervalMs: t.pollIntervalMs,
    debounceMs: t.debounceMs,
    untargetedReadMinMs: t.untargetedReadMinMs ?? t.vagueLookMinMs,
    untargetedReadMaxMs: t.untargetedReadMaxMs ?? t.vagueLookMaxMs,
  };
  return { timing, settle };
}

/**
 * Waits until workload `id` is ready (or gone), deciding only from its `/status` records (see
 * `WorkloadCondition`); the event stream only says when to read again (see `StatusObserver`).
 * Resolves with the ready record (`undefined` for gone). Rejects with `WorkloadFailedError` at the
 * first fresh `Failed`, `ReadinessTimeoutError` (carrying the last record) after `timeoutMs`,
 * `AbortedError` when `signal` aborts, or the read's error when retrying cannot help (401, 403, …).
 * Every exit stops the observer: no subscription, timer or request outlives the wait.
 */
export function waitForWorkload(
  client: WaitableClient,
  id: string,
  options: WaitOptions,
): Promise<WorkloadStatus | undefined> {
  let resolved: { timing: ObserverTiming; settle: SettleRule };
  try {
    resolved = resolveOptions(options);
  } catch (err) {
    return Promise.reject(err);
  }
  const adminReady = options.adminReady ?? false;
  if (options.signal?.aborted) {
    return Promise.reject(
      new AbortedError(
        `waiting for workload ${id} ${describeWaitGoal(options.until, adminReady)}`,
        options.signal.reason,
      ),
    );
  }
  return new WorkloadWait({
    client,
    id,
    until: options.until,
    adminReady,
    timeoutMs: options.timeoutMs,
    deadline: options.deadline,
    unreachableMs: options.unreachableMs ?? DEFAULT_RETRY.unreachableGiveUpMs,
    ...resolved,
    clock: options.clock ?? systemClock,
    random: options.random ?? Math.random,
    since: options.since,
    signal: options.signal,
    onProgress: options.onProgress,
    subscribe: options.events ?? (client.subscribe ? (listener) => client.subscribe!(listener) : undefined),
  }).run();
}
