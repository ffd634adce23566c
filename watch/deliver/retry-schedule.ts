/**
 * When a webhook's failed delivery is tried again: a pure rule, table-tested.
 *
 * Vocabulary: an *attempt* is one POST; a finding's *age* is the time since it was queued. A
 * finding is tried until it is delivered or `retryForMs` after it was queued, whichever comes first
 * (at least once, however old it is when its turn comes). Between attempts: backoff
 * `min(initial * 2^(n-1), max)`, jittered late (never sooner than the step), or the webhook's
 * `Retry-After`.
 */
import { retryDelay } from "../queue";

/** Uniform in [0, 1), as `Math.random`. */
type Random = () => number;

export interface RetrySchedule {
  /** The first retry comes this long after a failure. @default 1000 (1 s) */
  initialMs: number;
  /** No wait between two attempts is longer than this (but a `Retry-After`). @default 30000 (30 s) */
  maxDelayMs: number;
  /** A finding not delivered this long after it was queued is dropped (said, and counted). @default 600000 (10 min) */
  retryForMs: number;
}

export const DEFAULT_RETRY_SCHEDULE: Readonly<RetrySchedule> = Object.freeze({
  initialMs: 1000, // 1 s
  maxDelayMs: 30 * 1000, // 30 s
  retryForMs: 10 * 60 * 1000, // 10 min
});

/** What one failed attempt came to: an answer's status (and `Retry-After`), or no answer at all. */
export interface AttemptFailure {
  status?: number;
  retryAfterMs?: number;
}

/** `refused`: the webhook said no to this request; `expired`: its time is up. */
export type RetryDecision =
  { retry: true; delayMs: number } | { retry: false; reason: "refused" | "expired"; why: string };

/** After failed attempt number `attempt` (1 for the first) of a finding queued `ageMs` ago: try again when, or why not. */
export function nextAttempt(
  failure: AttemptFailure,
  attempt: number,
  ageMs: number,
  schedule: RetrySchedule = DEFAULT_RETRY_SCHEDULE,
  random: Random = Math.random,
): RetryDecision {
  const { status } = failure;
  // A redirect is not followed: a signed body is for the URL it was signed for, and a moved hook is the user's to name.
  if (status !== undefined && status >= 300 && status < 400)
    return {
      retry: false,
      reason: "refused",
      why: `it answered ${status} (a redirect, not followed): give the URL it points to`,
    };
  // Refused for what the request is (a bad payload, a removed channel, no such hook): sent again, it is refused again.
  if (status !== undefined && status >= 400 && status < 500 && ![408, 425, 429].includes(status))
    return {
      retry: false,
      reason: "refused",
      why: `it refused it (HTTP ${status}); sent again it would be refused again`,
    };
  const left = schedule.retryForMs - ageMs;
  if (left <= 0)
    return { retry: false, reason: "expired", why: `not delivered within ${Math.round(schedule.retryForMs / 1000)} s` };
  // Jittered late, within half a step: never sooner than the schedule, never past its cap.
  const step = retryDelay(attempt, schedule.initialMs, schedule.maxDelayMs);
  const wait = failure.retryAfterMs ?? Math.min(schedule.maxDelayMs, step + Math.floor((random() * step) / 2));
  // The last attempt comes at the bound, however far the backoff or `Retry-After` would put it.
  return { retry: true, delayMs: Math.min(wait, left) };
}
