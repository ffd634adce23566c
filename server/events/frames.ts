/**
 * Server-Sent-Events wire format. `id` and `event` must stay on one line: a CR or LF in them would
 * let one frame forge another, so they are rejected. `data` is split on all three line endings
 * (CRLF, CR, LF) into one `data:` line each, which is how the client joins them back.
 */
const LINE_BREAK = /[\r\n]/;

export function formatFrame(frame: { id?: string; event?: string; data: string }): string {
  let out = "";
  if (frame.id !== undefined) {
    if (LINE_BREAK.test(frame.id)) throw new TypeError("SSE id must not contain CR or LF");
    out += `id: ${frame.id}\n`;
  }
  if (frame.event !== undefined) {
    if (LINE_BREAK.test(frame.event)) throw new TypeError("SSE event must not contain CR or LF");
    out += `event: ${frame.event}\n`;
  }
  for (const line of frame.data.split(/\r\n|\r|\n/)) out += `data: ${line}\n`;
  return out + "\n";
}

export function formatComment(text: string): string {
  if (LINE_BREAK.test(text)) throw new TypeError("SSE comment must not contain CR or LF");
  return `:${text}\n\n`;
}

export function formatRetry(ms: number): string {
  if (!Number.isInteger(ms) || ms < 0) throw new TypeError("SSE retry must be a non-negative integer");
  return `retry: ${ms}\n\n`;
}

export const HEARTBEAT_FRAME = formatComment("heartbeat");
