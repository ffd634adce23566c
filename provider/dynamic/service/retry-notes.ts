import { formatDuration, type RetryNotice } from "../../../sdk";
import type { ProviderContext } from "../context";

/** A call failing this long is reported (a blip under throttling is not)... */
const GRACE_MS = 3 * 1000; // 3 s
/** ...and again at most this often while it goes on. */
const EVERY_MS = 15 * 1000; // 15 s

/**
 * `CallOptions.onRetry` of one operation of `what`: while its calls keep failing (a service that
 * does not answer, or answers 429/5xx), a line says so with the last error, at least every 15 s,
 * instead of a silent wait until the operation's deadline.
 */
export function noteRetries(ctx: ProviderContext, what: string, urn?: string): (notice: RetryNotice) => void {
  let notedAt: number | undefined;
  return (n) => {
    const now = ctx.now();
    if (n.elapsedMs < GRACE_MS || (notedAt !== undefined && now - notedAt < EVERY_MS)) return;
    notedAt = now;
    ctx.progress.status(
      `${what}: the service has not answered as it should for ${formatDuration(n.elapsedMs)} (${n.error.message}); trying again`,
      urn,
    );
  };
}
