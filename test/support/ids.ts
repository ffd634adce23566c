let counter = 0;

/**
 * A fresh DNS-label id per call (`<prefix>-<pid>-<n>`), so tests sharing one service, or running
 * in parallel jest workers, never collide. `pidDigits` shortens the pid for ids near a length limit.
 */
export function uniqueId(prefix = "w", pidDigits?: number): string {
  const pid = pidDigits === undefined ? process.pid : process.pid % 10 ** pidDigits;
  return `${prefix}-${pid}-${++counter}`;
}
