/** A streak of failures is told once it has lasted this long (a blip under throttling is not)... */
const FAILURE_TELL_AFTER_MS = 3 * 1000; // 3 s
/** ...and again at most this often while it goes on. */
export const FAILURE_TELL_EVERY_MS = 15 * 1000; // 15 s

/**
 * Failures in a row, from the first to the next success: how long they have lasted, how long of
 * that the service gave no answer at all (no connection, an attempt timed out, 502/504: the
 * unreachable window), and whether the streak is due to be told to the user. The requester keeps
 * one per call, the readiness wait one per wait, a provider operation one for its calls' retries.
 */
export class FailureStreak {
  #since: number | undefined;
  #unansweredSince: number | undefined;
  /** Kept across streaks: a new streak right after a told one is not told again at once. */
  #toldAt: number | undefined;

  /** A failure seen at `now`, of an attempt that began at `began`; `noAnswer`: the service gave none. */
  fail(now: number, noAnswer: boolean, began = now): void {
    this.#since ??= began;
    this.#unansweredSince = noAnswer ? (this.#unansweredSince ?? began) : undefined;
  }

  /** A success: the streak is over. */
  end(): void {
    this.#since = undefined;
    this.#unansweredSince = undefined;
  }

  /** How long the streak has lasted at `now`; 0 when there is none. */
  lastedMs(now: number): number {
    return this.#since === undefined ? 0 : now - this.#since;
  }

  /** How long the latest failures in a row have had no answer at all; undefined when the last one was answered. */
  unansweredMs(now: number): number | undefined {
    return this.#unansweredSince === undefined ? undefined : now - this.#unansweredSince;
  }

  /** Whether to tell the streak now (past `FAILURE_TELL_AFTER_MS`, not told within `everyMs`); if so, it counts as told. */
  due(now: number, everyMs = FAILURE_TELL_EVERY_MS): boolean {
    if (this.#since === undefined || now - this.#since < FAILURE_TELL_AFTER_MS) return false;
    if (this.#toldAt !== undefined && now - this.#toldAt < everyMs) return false;
    this.#toldAt = now;
    return true;
  }
}
