/** Longest `Retry-After` taken at its word: anything later is treated as this (1 h). */
export const MAX_RETRY_AFTER_MS = 60 * 60 * 1000;

/**
 * `Retry-After` in ms: either delay-seconds (`120`) or an HTTP date. Undefined when the value is
 * neither; a date in the past is 0. Decimal seconds are accepted although RFC 9110 allows only
 * integers: being lenient costs nothing and some proxies send them.
 */
export function parseRetryAfter(value: string, nowMs: number): number | undefined {
  const text = value.trim();
  if (/^[0-9]+(\.[0-9]+)?$/.test(text)) return Math.min(Math.round(Number(text) * 1000), MAX_RETRY_AFTER_MS);
  // Only the date forms of RFC 9110 (they all name a weekday or contain "GMT"): `Date.parse`
  // would otherwise accept strings such as "5 apples".
  if (!/GMT|UTC|[A-Za-z]{3},/.test(text)) return undefined;
  const at = Date.parse(text);
  if (Number.isNaN(at)) return undefined;
  return Math.min(Math.max(0, at - nowMs), MAX_RETRY_AFTER_MS);
}
