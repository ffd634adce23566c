export interface PollOptions {
  /** @default 5000 */
  timeoutMs?: number;
  /** Pause between two checks. @default 5 */
  intervalMs?: number;
  /** Named in the timeout error: what was waited for. @default "condition" */
  what?: string;
}

/**
 * Calls `check` until it returns something other than undefined/false and resolves with that
 * (for test setup and observation; the code under test has its own waits).
 */
export async function pollUntil<T>(
  check: () => T | undefined | false | Promise<T | undefined | false>,
  options: PollOptions = {},
): Promise<T> {
  const { timeoutMs = 5000, intervalMs = 5, what = "condition" } = options;
  const deadline = Date.now() + timeoutMs;
  for (;;) {
    const value = await check();
    if (value !== undefined && value !== false) return value;
    if (Date.now() > deadline) throw new Error(`${what} not met within ${timeoutMs} ms`);
    await new Promise((r) => setTimeout(r, intervalMs));
  }
}
