import { FailureStreak, formatDuration, type RetryNotice } from "../../../sdk";
import type { ProgressReporter } from "../engine/progress";

/**
 * `CallOptions.onRetry` of one operation of `what`: while its calls keep failing (a service that
 * does not answer, or answers 429/5xx), a line says so with the last error, at least every 15 s,
 * instead of a silent wait until the operation's deadline.
 */
export function noteRetries(
  ctx: { now(): number; readonly progress: ProgressReporter },
  what: string,
  urn?: string,
): (notice: RetryNotice) => void {
  const failures = new FailureStreak();
  return (n) => {
    const now = ctx.now();
    // A notice comes before each retry of a call: its first one starts a streak of its own.
    if (n.attempt === 1) failures.end();
    failures.fail(now, false, now - n.elapsedMs);
    if (!failures.due(now)) return;
    ctx.progress.status(
      `${what}: the service has not answered as it should for ${formatDuration(n.elapsedMs)} (${n.error.message}); trying again`,
      urn,
    );
  };
}
