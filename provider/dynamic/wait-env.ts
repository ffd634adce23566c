import type { ObserverTiming } from "../../sdk";

/**
 * Waiter settings a user can choose from the environment of `pulumi up`:
 * `WWS_WAIT_MODE=poll` waits by polling `/status` only (no event stream; for networks whose
 * proxies break long-lived responses), every `WWS_POLL_INTERVAL_MS` (default 2000 ms).
 * `stream` (the default) waits on the workspace's event stream.
 */
export function waitTimingFromEnv(env: Readonly<Record<string, string | undefined>>): Partial<ObserverTiming> {
  const timing: Partial<ObserverTiming> = {};
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
  return timing;
}
