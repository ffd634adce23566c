import type { WaitGoal } from "./condition";

/**
 * A wait's goal as it reads after "waiting for <workload>": the one phrasing shared by the
 * timeout and abort errors and the provider's progress lines, so a user sees the same words in both.
 */
export function describeWaitGoal(until: WaitGoal, adminReady = false): string {
  if (until === "gone") return "to be gone";
  return adminReady ? "to be ready with its admin console" : "to be ready";
}
