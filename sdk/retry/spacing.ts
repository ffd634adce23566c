import { sleep } from "../clock";
import { AbortedError, RetriesExhaustedError, type WwsError } from "../errors";
import type { ResolvedClientOptions } from "../options";
import { shouldRetry } from "./decide";
import { FailureStreak } from "./failure-streak";
import { isNoAnswer, isTransientFailure } from "./rules";

/** What a loop does after a failed attempt: wait `delayMs` and try again, or stop with `error`. */
export type NextAttempt = { retry: true; delayMs: number; attempt: number } | { retry: false; error: WwsError };

/**
 * The spacing of a retry loop kept outside the client's own: a call not safe to send twice whose
 * outcome was unknown, read back as not done and sent again (the provider's read-backs). Each
 * repeat waits as the client would before retrying a safe call (`shouldRetry`: backoff with full
 * jitter, `Retry-After` honoured, until the deadline or the unreachable window of `RetryOptions`),
 * so a service that fails every such call gets a bounded number of them, never a tight loop.
 */
export class RetrySpacing {
  private attempts = 0;
  private readonly started: number;
  /** The failures so far: the latest without an answer make the unreachable window (`isNoAnswer`). */
  private readonly failures = new FailureStreak();

  constructor(
    private readonly options: ResolvedClientOptions,
    /** Epoch ms on the client's clock: no attempt starts past it. */
    private readonly deadline: number,
  ) {
    this.started = options.clock.now();
  }

  /** After a failed attempt (`error`): when to try again, or the error to stop with (it names the last failure). */
  next(error: WwsError): NextAttempt {
    const now = this.options.clock.now();
    this.attempts++;
    this.failures.fail(now, isNoAnswer(error));
    const decision = shouldRetry({
      error,
      // Read back as not done: sending it again is as safe as repeating an idempotent call.
      policy: "idempotent",
      attempt: this.attempts,
      elapsedMs: now - this.started,
      options: this.options.retry,
      remainingMs: this.deadline - now,
      unansweredMs: this.failures.unansweredMs(now),
      random: this.options.random,
    });
    if (decision.retry) return { retry: true, delayMs: decision.delayMs, attempt: this.attempts };
    const final = this.attempts > 1 && isTransientFailure(error);
    return { retry: false, error: final ? new RetriesExhaustedError(error, this.attempts, now - this.started) : error };
  }

  /** Waits `delayMs`; rejects with `AbortedError` (naming `operation`) when `signal` aborts first. */
  async wait(delayMs: number, operation: string, signal?: AbortSignal): Promise<void> {
    try {
      await sleep(delayMs, this.options.clock, signal);
    } catch (reason) {
      throw new AbortedError(operation, reason);
    }
  }
}
