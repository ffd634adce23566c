import { ConnectionError } from "../errors";

/**
 * What the stream reads at most of a peer that does not send events: the parser keeps a line until
 * its end, and an event's `data` lines until the blank line that ends it, so a line that never
 * ends, or an event of endless `data:` lines, would take all the memory.
 */
/** The longest line of the stream kept: an event's `data` line is one record, a few KB. */
const MAX_LINE_BYTES = 1024 * 1024; // 1 MiB
/** The most bytes of one event (all its lines until the blank line), kept like one line. */
export const MAX_EVENT_BYTES = 1024 * 1024; // 1 MiB
/** The longest body of a refusal read (an error body is a few hundred bytes). */
export const MAX_REFUSAL_BYTES = 64 * 1024; // 64 KiB

/** What of the stream is not yet a whole event: the open line, the lines of the event before it, and whether the last byte was a CR (a CRLF is one break). */
export interface OpenEvent {
  line: number;
  event: number;
  afterCR: boolean;
}

export const NO_OPEN_EVENT: OpenEvent = Object.freeze({ line: 0, event: 0, afterCR: false });

/** The open event after `chunk`: a blank line (two breaks in a row) ends an event. */
export function openEventAfter(before: OpenEvent, chunk: Buffer): OpenEvent {
  let { line, event, afterCR } = before;
  // The next LF and CR at or after `i`, searched again only once passed (no scan per line).
  let lf = -2;
  let cr = -2;
  let i = 0;
  while (i < chunk.length) {
    if (afterCR && chunk[i] === 0x0a) {
      afterCR = false;
      i++;
      continue;
    }
    afterCR = false;
    if (lf !== -1 && lf < i) lf = chunk.indexOf(0x0a, i);
    if (cr !== -1 && cr < i) cr = chunk.indexOf(0x0d, i);
    const brk = lf === -1 ? cr : cr === -1 ? lf : Math.min(lf, cr);
    if (brk === -1) {
      line += chunk.length - i;
      break;
    }
    line += brk - i;
    if (line === 0) event = 0;
    else event += line;
    line = 0;
    afterCR = chunk[brk] === 0x0d;
    i = brk + 1;
  }
  return { line, event, afterCR };
}

/** Why the stream is dropped after `open`, or undefined while it is within the limits. */
export function overLimitError(open: OpenEvent, operation: string): ConnectionError | undefined {
  if (open.line > MAX_LINE_BYTES) return endlessLineError(operation);
  if (open.line + open.event > MAX_EVENT_BYTES) {
    const why = `the service sent an event of more than ${MAX_EVENT_BYTES} bytes (lines without the blank line that ends an event), which no event of the service needs`;
    return new ConnectionError(operation, false, new Error(why));
  }
  return undefined;
}

/** The stream is dropped (and opened again after a backoff) when a line passes `MAX_LINE_BYTES`. */
function endlessLineError(operation: string): ConnectionError {
  const why = `the service sent a line of more than ${MAX_LINE_BYTES} bytes without a line break, which no event of the service needs`;
  return new ConnectionError(operation, false, new Error(why));
}
