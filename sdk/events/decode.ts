import type { EventSourceMessage } from "eventsource-parser";
import { EVENT_PAYLOADS, issuesToDetails, type ErrorDetail, type EventType, type WorkspaceEvent } from "../schemas";

type Decoded =
  { kind: "event"; event: WorkspaceEvent } | { kind: "ignored" } | { kind: "invalid"; issues: ErrorDetail[] };

function isEventType(type: string): type is EventType {
  return Object.prototype.hasOwnProperty.call(EVENT_PAYLOADS, type);
}

/**
 * One SSE message as a typed event. An event type this SDK does not know is ignored (a newer
 * service may add some). An empty `data` reads as `{}`: the spec leaves the payload of `resync`
 * unspecified, and a resync must never be lost to a parse error.
 */
export function decodeEvent(msg: EventSourceMessage): Decoded {
  const type = msg.event ?? "message";
  if (!isEventType(type)) return { kind: "ignored" };
  let json: unknown = {};
  if (msg.data.trim() !== "") {
    try {
      json = JSON.parse(msg.data);
    } catch {
      if (type !== "resync")
        return { kind: "invalid", issues: [{ path: "data", message: `${type} data is not JSON` }] };
    }
  }
  const parsed = EVENT_PAYLOADS[type].safeParse(json);
  if (!parsed.success) {
    if (type === "resync") return { kind: "event", event: { id: msg.id, type, data: {} } };
    return {
      kind: "invalid",
      issues: issuesToDetails(parsed.error).map((d) => ({ ...d, path: d.path ? `${type}.${d.path}` : type })),
    };
  }
  return { kind: "event", event: { id: msg.id, type, data: parsed.data } as WorkspaceEvent };
}
