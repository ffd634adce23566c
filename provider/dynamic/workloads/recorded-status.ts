import type { WorkloadStatus } from "../../../sdk";
import { sealLogin } from "../credentials/digest";
import type { WorkloadOptions } from "../inputs/options";
import type { WorkloadModel } from "./model";

/** What the state records of `m` once the service reported `status`: that status, and no password (see credentials/digest.ts). */
export function recorded(m: WorkloadModel, status: WorkloadStatus | undefined): WorkloadModel {
  return { ...m, status, credentials: sealLogin(String(m.identity.workloadId), m.credentials) };
}

/**
 * Ready as far as the recorded status tells, under `options` (those of the new inputs): Running,
 * its latest generation observed, and the admin console ready when that is awaited. Not ready
 * means a wait did not finish (the resource was kept with init errors) and is owed on the next update.
 */
export function recordedReady(status: WorkloadStatus | undefined, options: WorkloadOptions): boolean {
  if (status === undefined) return false;
  const generation = typeof status.generation === "number" ? status.generation : 0;
  const observed = typeof status.observedGeneration === "number" ? status.observedGeneration : generation;
  return (
    status.phase === "Running" && observed >= generation && (!options.waitForAdminConsole || status.adminReady === true)
  );
}

/**
 * Restarts the stack did not ask for, as `refresh` records them: the previous count plus how much
 * the service's `restartCount` grew since the state last saw it. A restart changes no input, and
 * the engine counts only input changes as drift (`preview --refresh --expect-no-changes`,
 * `refresh --preview-only`); this key makes it one, named. The next `pulumi up` drops it again
 * without a request (it is a local-only key): that acknowledges the restarts.
 */
export function restartsOutsidePulumi(
  stored: Pick<WorkloadModel, "status" | "restartsOutsidePulumi">,
  status: WorkloadStatus,
): number | undefined {
  const before = typeof stored.restartsOutsidePulumi === "number" ? stored.restartsOutsidePulumi : 0;
  const seen = stored.status?.restartCount;
  const grew = typeof seen === "number" && typeof status.restartCount === "number" ? status.restartCount - seen : 0;
  const total = before + Math.max(0, grew);
  return total > 0 ? total : undefined;
}
