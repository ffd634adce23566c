/**
 * The timings of a wait's reads: what a caller sets (`ObserverTiming`) and what the read rule of
 * `read-schedule.ts` runs with (`ReadTiming`, every one given). Their own file, so that the rule
 * and `StatusObserver`, which carries it out, both depend on it and not on each other.
 */
export interface ObserverTiming {
  /** `stream`: events trigger reads, polls only fill gaps; `poll`: a read every `pollIntervalMs`, no stream. */
  mode: "stream" | "poll";
  /**
   * Poll backoff while the stream is down, and after a failed read: from `pollMinMs`, doubling, up
   * to `pollMaxMs`, each delay up to half a step later at random (see `retry/backoff.ts`).
   */
  pollMinMs: number;
  pollMaxMs: number;
  /** Poll interval while the stream is open, in case an event never comes. */
  safetyPollMs: number;
  /** Poll interval of mode `poll`. */
  pollIntervalMs: number;
  /** Events within this window after the first one are taken together: one read per burst. */
  debounceMs: number;
  /**
   * Reads for untargeted events, which may be this workload's or any other's (rows without a
   * target, and `spec-changed` on such a stream), are spaced: at least this long after the
   * previous such read at first, doubling after each, up to `untargetedReadMaxMs` (jittered as
   * the poll backoff). See `read-schedule.ts`. @default 100
   */
  untargetedReadMinMs?: number;
  /** @default 1600 */
  untargetedReadMaxMs?: number;
  /** @deprecated the former name of `untargetedReadMinMs`, still accepted. */
  vagueLookMinMs?: number;
  /** @deprecated the former name of `untargetedReadMaxMs`, still accepted. */
  vagueLookMaxMs?: number;
}

/** The timings of the rule (`ObserverTiming`, which says what each is), every one given. */
export type ReadTiming = Required<Omit<ObserverTiming, "vagueLookMinMs" | "vagueLookMaxMs">>;

const DEFAULT_UNTARGETED_READ = Object.freeze({ minMs: 100, maxMs: 1600 });

/** The timings of `nextRead` (the waiter's options took the deprecated names already: waiter.ts). */
export function readTiming({ vagueLookMinMs: _min, vagueLookMaxMs: _max, ...t }: ObserverTiming): ReadTiming {
  return {
    ...t,
    untargetedReadMinMs: t.untargetedReadMinMs ?? DEFAULT_UNTARGETED_READ.minMs,
    untargetedReadMaxMs: t.untargetedReadMaxMs ?? DEFAULT_UNTARGETED_READ.maxMs,
  };
}
