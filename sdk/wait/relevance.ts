import { PHASES, type ActivityRow, type WorkspaceEvent } from "../schemas";
import type { WaitGoal } from "./condition";

/**
 * What an event means to a wait for workload `id`; the stream is a doorbell, so the answer is
 * only ever "look again" or "not for you", never a readiness decision.
 * - `look`: something may have changed that the event does not describe precisely enough (`resync`);
 * - `untargeted`: an activity row that names no workload (the published spec shows no row shape):
 *   it may be this workload's, or any other's;
 * - `spec-changed`: the desired state changed somewhere in the workspace;
 * - `row`: an activity row about this workload (its hint decides, see `rowWorthALook`);
 * - `ignore`: about something else (another workload, a template, agents, tasks, secrets).
 */
type Relevance =
  | { kind: "look" }
  | { kind: "untargeted" }
  | { kind: "spec-changed" }
  | { kind: "row"; row: ActivityRow }
  | { kind: "ignore" };

export function relevanceOf(event: WorkspaceEvent, id: string): Relevance {
  switch (event.type) {
    case "resync":
      return { kind: "look" };
    case "spec-changed":
      return { kind: "spec-changed" };
    case "activity": {
      const target = event.data.target;
      if (typeof target?.id !== "string") return { kind: "untargeted" };
      if (target.id !== id || (target.type !== undefined && target.type !== "workload")) return { kind: "ignore" };
      return { kind: "row", row: event.data };
    }
    default:
      return { kind: "ignore" };
  }
}

/** Whether the stream names the targets of its activity rows (then `spec-changed` adds nothing). */
export function namesTarget(event: WorkspaceEvent): boolean {
  return event.type === "activity" && typeof event.data.target?.id === "string";
}

const KNOWN_PHASES: ReadonlySet<string> = new Set(PHASES);
/** Phases from which a wait for `ready` cannot end: reading `/status` then would be wasted. */
const NOT_DECISIVE_FOR_READY: ReadonlySet<string> = new Set(["Pending", "Provisioning", "Restarting", "Deleting"]);

/** Whether a wait for `goal` cannot end while its workload is in `phase` (a read's, "gone" for a 404). */
export function cannotEndIn(phase: string, goal: WaitGoal): boolean {
  return goal === "ready" && NOT_DECISIVE_FOR_READY.has(phase);
}

/**
 * Whether the newest row about this workload in a burst is worth a `/status` read. A row may carry
 * the new phase in `detail.phase` (the local service does; the spec does not promise it). When it
 * names a phase in which the wait cannot end, there is nothing to look at yet; any other row
 * (no hint, Running, Failed, a phase we do not know, admin console ready, deleted) is.
 */
export function rowWorthALook(row: ActivityRow, goal: WaitGoal): boolean {
  const detail = row.detail;
  const phase = typeof detail === "object" && detail !== null ? (detail as { phase?: unknown }).phase : undefined;
  if (typeof phase !== "string") return true;
  if (goal === "gone") return !KNOWN_PHASES.has(phase);
  return !NOT_DECISIVE_FOR_READY.has(phase);
}
