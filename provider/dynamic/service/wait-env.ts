import type { ObserverTiming, WaitOptions } from "../../../sdk";

/** The waiter settings the provider takes from its environment; the unreachable window applies to calls too. */
export type WaitSettings = Partial<ObserverTiming> & Pick<WaitOptions, "unreachableMs">;

/** The longest unreachable window accepted: the longest ready timeout (24 h). */
const MAX_UNREACHABLE_SECONDS = 24 * 60 * 60;

/**
 * Waiter settings a user can choose from the environment of `pulumi up`:
 * `WWS_WAIT_MODE=poll` waits by polling `/status` only (no event stream; for networks whose
 * proxies break long-lived responses), every `WWS_POLL_INTERVAL_MS` (default 2000 ms).
 * `stream` (the default) waits on the workspace's event stream.
 * `WWS_UNREACHABLE_TIMEOUT_SECONDS` (default 60): how long the service may give no answer before
 * the waits and calls in flight fail (see `RetryOptions.unreachableGiveUpMs`).
 */
export function waitTimingFromEnv(env: Readonly<Record<string, string | undefined>>): WaitSettings {
  const timing: WaitSettings = {};
  const mode = env.WWS_WAIT_MODE;
  if (mode !== undefined && mode !== "") {
    if (mode !== "stream" && mode !== "poll")
      throw new Error(`WWS_WAIT_MODE must be "stream" or "poll", not ${JSON.stringify(mode)}`);
    timing.mode = mode;
  }
  const interval = env.WWS_POLL_INTERVAL_MS;
  if (interval !== undefined && interval !== "") {
    const ms = Number(interval);
    if (!Number.isInteger(ms) || ms < 100)
      throw new Error(
        `WWS_POLL_INTERVAL_MS must be a whole number of milliseconds, at least 100, not ${JSON.stringify(interval)}`,
      );
    timing.pollIntervalMs = ms;
  }
  const unreachable = env.WWS_UNREACHABLE_TIMEOUT_SECONDS;
  if (unreachable !== undefined && unreachable !== "") {
    const s = Number(unreachable);
    if (!Number.isInteger(s) || s < 1 || s > MAX_UNREACHABLE_SECONDS)
      throw new Error(
        `WWS_UNREACHABLE_TIMEOUT_SECONDS must be a whole number of seconds from 1 to ${MAX_UNREACHABLE_SECONDS}, not ${JSON.stringify(unreachable)}`,
      );
    timing.unreachableMs = s * 1000;
  }
  return timing;
}
