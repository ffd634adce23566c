/** Uniform in [0, 1), as `Math.random`; injected so tests with fake clocks stay deterministic. */
export type Random = () => number;

/**
 * The SDK's one backoff, for retries and stream reconnects: step `n` (1 for the first) of an
 * exponential schedule, `d = min(initialMs * 2^(n-1), maxMs)`, with full jitter (uniform in
 * [0, d)), so that callers that failed together do not come back together.
 */
export function backoffDelay(n: number, initialMs: number, maxMs: number, random: Random = Math.random): number {
  const d = Math.min(initialMs * 2 ** Math.max(0, n - 1), maxMs);
  return Math.floor(random() * d);
}
