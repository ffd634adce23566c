/** A timer handle, whatever the clock returns. */
export type TimerHandle = unknown;

/**
 * Time as the SDK sees it. Injected so tests can drive retries, polls and timeouts with fake
 * timers; the default reads the globals at call time, so jest's fake timers apply to it too.
 */
export interface Clock {
  /** Epoch ms. */
  now(): number;
  setTimeout(fn: () => void, ms: number): TimerHandle;
  clearTimeout(handle: TimerHandle): void;
}

export const systemClock: Clock = Object.freeze({
  now: () => Date.now(),
  setTimeout: (fn: () => void, ms: number) => setTimeout(fn, ms),
  clearTimeout: (handle: TimerHandle) => clearTimeout(handle as ReturnType<typeof setTimeout>),
});

/**
 * Resolves after `ms`, or rejects with the signal's reason as soon as `signal` aborts. The timer
 * is cleared either way, so nothing outlives the wait.
 */
export function sleep(ms: number, clock: Clock, signal?: AbortSignal): Promise<void> {
  return new Promise<void>((resolve, reject) => {
    if (signal?.aborted) {
      reject(signal.reason);
      return;
    }
    const onAbort = (): void => {
      clock.clearTimeout(handle);
      reject(signal?.reason);
    };
    const handle = clock.setTimeout(() => {
      signal?.removeEventListener("abort", onAbort);
      resolve();
    }, ms);
    signal?.addEventListener("abort", onAbort, { once: true });
  });
}
