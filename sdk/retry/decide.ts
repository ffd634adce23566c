import { AbortedError, ConnectionError, HttpError, retryAfterOf, type WwsError } from "../errors";
import { backoffDelay } from "./backoff";
import { isTransientFailure, provablyNotProcessed } from "./rules";

/**
 * Retrying, one rule in this folder, read in this order:
 * - `rules.ts`: what a failure means (transient or final, answered or not, acted on or not), one table;
 * - `decide.ts` (here): whether to try a failed call again and after how long (`shouldRetry`, pure);
 * - `backoff.ts`, `retry-after.ts`: how long: exponential with jitter, or what the service asked for;
 * - `failure-streak.ts`: how long the failures in a row have lasted (the unreachable window, when to tell);
 * - `spacing.ts`: the same rule for a loop kept outside the client (a read-back, then the call again).
 * The requester (`http/requester.ts`), the event stream and the readiness wait judge failures by `rules.ts`.
 */

/** Retry bounds of a client. Every field is optional; see `DEFAULT_RETRY`. */
export interface RetryOptions {
  /** Attempts in all, the first included; 1 disables retries. @default 4 */
  maxAttempts?: number;
  /** Backoff before the second attempt; doubles per attempt, with full jitter. @default 200 (ms) */
  initialDelayMs?: number;
  /** Cap of one backoff (not of a `Retry-After` the service asks for). @default 5000 (5 s) */
  maxDelayMs?: number;
  /** No retry starts later than this after the first attempt began. @default 30000 (30 s) */
  maxElapsedMs?: number;
  /**
   * A call whose client never got an HTTP answer (nothing listens at the base URL, a wrong host)
   * stops retrying connection failures this long after its first attempt, whatever its deadline:
   * such a service is more likely misconfigured than briefly down. @default 60000 (60 s)
   */
  neverAnsweredGiveUpMs?: number;
  /**
   * A call with a deadline stops retrying once its attempts have had no answer (`isNoAnswer`: no
   * connection, attempt timeouts, 502/504) for this long in a row, whatever its deadline: a
   * service that stopped answering fails the operation in bounded time, while a shorter outage
   * is ridden out. @default 60000 (60 s)
   */
  unreachableGiveUpMs?: number;
}

export const DEFAULT_RETRY: Readonly<Required<RetryOptions>> = Object.freeze({
  maxAttempts: 4,
  initialDelayMs: 200, // 200 ms
  maxDelayMs: 5 * 1000, // 5 s
  maxElapsedMs: 30 * 1000, // 30 s
  neverAnsweredGiveUpMs: 60 * 1000, // 60 s
  unreachableGiveUpMs: 60 * 1000, // 60 s
});

/**
 * How safe a call is to send twice:
 * - `idempotent`: repeating it leaves the same state (GET, DELETE, the workload upsert);
 * - `unprocessed-only`: repeating it could act twice (restart, template create); retried only when
 *   the service provably did not act on it: the request never reached it (connection refused), or
 *   it refused it with 429 or 503 (the contract's "rate limited" and "unavailable": not processed).
 *   An outcome that is unknown (a timeout, a reset after sending, another 5xx) is thrown for the
 *   caller to read back before it tries again.
 */
export type RetryPolicy = "idempotent" | "unprocessed-only";

/** What a call met before it tries again (`CallOptions.onRetry`). */
export interface RetryNotice {
  error: WwsError;
  /** Attempts made so far. */
  attempt: number;
  /** Since the first attempt began. */
  elapsedMs: number;
  /** Until the next attempt. */
  delayMs: number;
}

type RetryDecision = { retry: false; reason: string } | { retry: true; delayMs: number };

export interface RetryInput {
  error: WwsError;
  policy: RetryPolicy;
  /** Attempts made so far (1 after the first). */
  attempt: number;
  /** Time since the first attempt began. */
  elapsedMs: number;
  options: Readonly<Required<RetryOptions>>;
  /**
   * Time left until the call's deadline (`CallOptions.deadline`), when it has one: then the
   * deadline alone bounds the retries, in place of `maxAttempts` and `maxElapsedMs`.
   */
  remainingMs?: number;
  /** The client has never had an HTTP answer from the service, to any call. */
  neverAnswered?: boolean;
  /** How long this call's attempts have had no answer in a row (`isNoAnswer`); undefined after an answer. */
  unansweredMs?: number;
  random?: () => number;
}

/** Whether to try a failed call again, and after how long. Pure: no clock, no network. */
export function shouldRetry(input: RetryInput): RetryDecision {
  const { error, policy, attempt, elapsedMs, options, remainingMs } = input;
  const random = input.random ?? Math.random;

  // The caller gave up: never second-guess that.
  if (error instanceof AbortedError) return { retry: false, reason: "aborted" };

  // Out of attempts (a call with a deadline counts time, not attempts).
  if (remainingMs === undefined && attempt >= options.maxAttempts)
    return { retry: false, reason: "attempts exhausted" };

  // Nothing ever answered at this base URL: past a minute, say so rather than wait out a deadline.
  if (error instanceof ConnectionError && input.neverAnswered && elapsedMs >= options.neverAnsweredGiveUpMs)
    return { retry: false, reason: "the service never answered" };

  // It answered before but has stopped: past the window, fail now rather than at the deadline.
  if (remainingMs !== undefined && (input.unansweredMs ?? 0) >= options.unreachableGiveUpMs)
    return { retry: false, reason: "the service stopped answering" };

  // A call that must not run twice is repeated only when the service did not act on it: it never
  // saw it, or refused it (429, 503: not processed).
  if (policy === "unprocessed-only" && !provablyNotProcessed(error))
    return { retry: false, reason: "not safe to repeat once sent" };

  // The same request would fail the same way: most 4xx, 501, a body we cannot read (rules.ts).
  if (!isTransientFailure(error))
    return {
      retry: false,
      reason: error instanceof HttpError ? `status ${error.status} is final` : `${error.code} is final`,
    };

  // Retry-After is a floor, not a suggestion; a little jitter on top keeps callers that were
  // refused together from coming back together.
  const retryAfterMs = retryAfterOf(error);
  const delayMs =
    retryAfterMs !== undefined
      ? retryAfterMs + Math.floor(random() * options.initialDelayMs)
      : backoffDelay(attempt, options.initialDelayMs, options.maxDelayMs, random);

  // Waiting that long would overrun the budget: fail now with the real error rather than later.
  if (remainingMs !== undefined) {
    if (delayMs >= remainingMs) return { retry: false, reason: "deadline reached" };
  } else if (elapsedMs + delayMs > options.maxElapsedMs) return { retry: false, reason: "retry budget spent" };

  return { retry: true, delayMs };
}
