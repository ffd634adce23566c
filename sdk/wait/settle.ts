/**
 * The settle rule: what a wait after an update or restart does when the service gives no evidence
 * that a `Running` record is about the request rather than from before it.
 *
 * Evidence, strongest first: (1) generations (`observedGeneration >= previous generation + 1`:
 * exact, and their absence of progress is the only thing that keeps a wait pending for sure);
 * (2) a phase other than the one before the request, read after it; (3) `updatedAt` later than the
 * request and the previous record, or `restartCount` above the previous one. When a record shows
 * none of these (the published spec promises none of them), the wait settles: it takes `Running`
 * as the new record once it is at least `minMs` (2 s) after the request AND the workspace's event
 * stream has been open and quiet (no activity row that could be this workload's, no
 * `spec-changed`, no `resync`) for `quietMs` (0.5 s); and at the latest `maxMs` (10 s) after the
 * request, quiet or not (a busy workspace is never quiet; without a stream, quiet cannot be seen,
 * so the wait takes the full `maxMs`). A `Failed` record without evidence settles the same way,
 * then fails the wait. A change the service shows within `minMs` (a phase change, or the activity
 * row of an in-place apply) is therefore always seen; one it applies later and silently is not,
 * which is the bound this rule accepts. The local service's in-place delay (1 s) sits inside it.
 */
export interface SettleRule {
  /** Earliest acceptance without evidence, after the request. @default 2000 (2 s) */
  minMs: number;
  /** How long the stream must have been open and without relevant activity. @default 500 (0.5 s) */
  quietMs: number;
  /** Latest: Running is accepted this long after the request even if the workspace stays busy. @default 10000 (10 s) */
  maxMs: number;
}

export const DEFAULT_SETTLE_RULE: Readonly<SettleRule> = Object.freeze({
  minMs: 2 * 1000, // 2 s
  quietMs: 500, // 0.5 s
  maxMs: 10 * 1000, // 10 s
});

/** What the waiter knows when it asks whether a record without evidence may be taken. */
export interface SettleClock {
  now: number;
  /**
   * The last relevant event, or when the stream last (re)opened, whichever is later (epoch ms);
   * `undefined` while the stream is not open (quiet cannot be observed then).
   */
  lastActivityAt: number | undefined;
}

/** The epoch ms from which a record without evidence is taken, given what was observed so far. */
export function settleAt(rule: SettleRule, requestedAt: number, lastActivityAt: number | undefined): number {
  const latest = requestedAt + rule.maxMs;
  if (lastActivityAt === undefined) return latest;
  return Math.min(latest, Math.max(requestedAt + rule.minMs, lastActivityAt + rule.quietMs));
}
