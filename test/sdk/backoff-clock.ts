import type { Clock, TimerHandle } from "../../sdk";

/** One timer of the watched length, and what became of it. */
export interface WatchedTimer {
  state: "pending" | "fired" | "cleared";
}

export interface BackoffClockOptions {
  /**
   * Fire watched timers on the next turn instead, and move `now()` on by their length: the retry
   * loop sees its backoffs pass without the test waiting for them, and `now()` is virtual (it
   * starts at the clock's creation and moves only by skipped timers), so elapsed times are exact.
   */
  skip?: boolean;
  /** Runs as a watched timer is set: to act while the call sits in that backoff. */
  onSet?: () => void;
}

/**
 * The system clock, watching the timers of exactly `ms`: the backoffs of a test that pins them
 * (a `Retry-After` and `random: () => 0`). Other timers, such as attempt timeouts, pass through.
 */
export function backoffClock(ms: number, options: BackoffClockOptions = {}): { clock: Clock; timers: WatchedTimer[] } {
  const started = Date.now();
  let skippedMs = 0;
  const timers: WatchedTimer[] = [];
  const watched = new Map<TimerHandle, WatchedTimer>();
  const clock: Clock = {
    now: () => (options.skip ? started + skippedMs : Date.now()),
    setTimeout(fn, delay) {
      if (delay !== ms) return setTimeout(fn, delay);
      const timer: WatchedTimer = { state: "pending" };
      const fire = (): void => {
        timer.state = "fired";
        if (options.skip) skippedMs += delay;
        fn();
      };
      const handle = options.skip ? setImmediate(fire) : setTimeout(fire, delay);
      timers.push(timer);
      watched.set(handle, timer);
      options.onSet?.();
      return handle;
    },
    clearTimeout(handle) {
      const timer = watched.get(handle);
      if (timer?.state === "pending") timer.state = "cleared";
      if (timer && options.skip) clearImmediate(handle as NodeJS.Immediate);
      else clearTimeout(handle as NodeJS.Timeout);
    },
  };
  return { clock, timers };
}
