import * as pulumi from "@pulumi/pulumi";

/**
 * Per program run (its Stack resource; under `pulumi.runtime.setMocks`, which makes none, its mock
 * monitor: one per `setMocks`): the resource that declared each workload, by workspace and id.
 */
const declaredByRun = new WeakMap<object, Map<string, string>>();

/**
 * Throws, as the program runs, when another resource of this run already declared workload
 * `workloadId` of the same workspace: two resources would overwrite each other's spec, and
 * removing one would delete the other's workload. Only plain values are compared here (a workspace
 * left to the stack config counts as one); ids or workspaces known later are left to `check`.
 */
export function claimWorkloadId(what: string, workspace: unknown, workloadId: unknown): void {
  const run = pulumi.runtime.getStackResource() ?? pulumi.runtime.getMonitor();
  if (run === undefined || typeof workloadId !== "string") return;
  if (workspace !== undefined && typeof workspace !== "string") return;
  let declared = declaredByRun.get(run);
  if (declared === undefined) declaredByRun.set(run, (declared = new Map()));
  const key = `${workspace ?? ""}\n${workloadId}`;
  const other = declared.get(key);
  if (other !== undefined && other !== what) {
    const where = workspace === undefined ? "the stack's workspace" : `workspace ${workspace}`;
    throw new Error(
      `${what}: workload ${workloadId} of ${where} is also declared by ${other}: a workload belongs to one resource, ` +
        `and two would overwrite each other's spec. Give ${what} a workloadId of its own, or remove one of the two`,
    );
  }
  declared.set(key, what);
}
