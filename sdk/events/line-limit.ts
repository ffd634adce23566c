import { ConnectionError } from "../errors";

/**
 * What the stream reads at most of a peer that does not send events: the parser keeps a line until
 * its end, so a line that never ends would take all the memory.
 */
/** The longest line of the stream kept: an event's `data` line is one record, a few KB. */
export const MAX_LINE_BYTES = 1024 * 1024; // 1 MiB
/** The longest body of a refusal read (an error body is a few hundred bytes). */
export const MAX_REFUSAL_BYTES = 64 * 1024; // 64 KiB

/** The bytes of the line still open after `chunk`, given `before` open before it. */
export function unendedLineBytes(before: number, chunk: Buffer): number {
  const lastBreak = Math.max(chunk.lastIndexOf(0x0a), chunk.lastIndexOf(0x0d));
  return lastBreak === -1 ? before + chunk.length : chunk.length - lastBreak - 1;
}

/** The stream is dropped (and opened again after a backoff) when a line passes `MAX_LINE_BYTES`. */
export function endlessLineError(operation: string): ConnectionError {
  const why = `the service sent a line of more than ${MAX_LINE_BYTES} bytes without a line break, which no event of the service needs`;
  return new ConnectionError(operation, false, new Error(why));
}
