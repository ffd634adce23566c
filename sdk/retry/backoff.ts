/** Uniform in [0, 1), as `Math.random`; injected so tests with fake clocks stay deterministic. */
export type Random = () => number;

/**
 * Where a delay falls around its step `d = min(initialMs * 2^(n-1), maxMs)`:
 * - `full`: uniform in [0, d): retries of a refused call, spread as widely as possible;
 * - `late`: uniform in [d, 1.5 d), capped at `maxMs`: the waiter's polls, which must never come
 *   sooner than their schedule (each is a read, and the read budget of a wait counts on it), only
 *   later. At the cap the delay is the cap itself; the earlier steps have already spread the callers.
 */
type Jitter = "full" | "late";

/**
 * The SDK's one backoff, for retries, stream reconnects and the waiter's polls: step `n` (1 for
 * the first) of an exponential schedule, jittered so that callers that failed (or saw the stream
 * drop) together do not come back together.
 */
export function backoffDelay(
  n: number,
  initialMs: number,
  maxMs: number,
  random: Random = Math.random,
  jitter: Jitter = "full",
): number {
  const d = Math.min(initialMs * 2 ** Math.max(0, n - 1), maxMs);
  if (jitter === "full") return Math.floor(random() * d);
  return Math.min(maxMs, d + Math.floor((random() * d) / 2));
}
