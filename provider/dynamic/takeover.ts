import type { CallOptions, WorkloadStatus, WorkspaceClient } from "../../sdk";
import { sameValue } from "./equal";
import { specFields, type WorkloadModel } from "./workload-model";

/**
 * Whether the live workload has exactly the type and spec the resource declares (its entry in the
 * tenant spec). Credentials are left out: they are write-only, no response shows them.
 *
 * With `adopt: true` such a workload is taken over without a request (an upsert would start a new
 * generation and provision it again). Without `adopt`, it is taken as this resource's own create,
 * interrupted before the engine recorded it.
 *
 * Why this rule: when `pulumi up` (or its provider process) is killed after the service accepted a
 * create, the engine keeps only a "pending create" and, at the next `up`, creates the resource
 * again with the same inputs. Without recognizing its own workload the provider would refuse that
 * create for ever. A workload somebody else created is refused as before unless it happens to
 * match the request field for field, in which case taking it over changes nothing on it; the
 * provider says so in a warning. A database's stored password guards the last case: the service
 * refuses an upsert whose password differs from the one set at its creation.
 */
export async function runsDeclaredSpec(client: WorkspaceClient, m: WorkloadModel, call: CallOptions): Promise<boolean> {
  const entry = (await client.getSpec(call)).workloads.find((w) => w.id === m.identity.workloadId);
  return entry !== undefined && entry.type === m.identity.type && sameValue(entry.spec, specFields(m));
}

/** The warning written when `create` takes over its own interrupted create. */
export function ownCreateWarning(describe: string, workspace: string): string {
  return (
    `warning: ${describe} already exists in workspace ${workspace} with exactly the requested type and spec: ` +
    `taken as this stack's own create that was interrupted (a killed \`pulumi up\` leaves a pending create) and adopted; ` +
    `its credentials are sent again. A workload whose spec differs is refused; see "Interrupted runs" in provider/README.md`
  );
}

/**
 * Why `create` (and, at preview, `check`) refuses an id that exists: whose it may be, exactly
 * what `adopt: true` would do to it, and the other ways out. Two resources of this program that
 * name one workload fail earlier, naming both (declarations.ts).
 */
export function alreadyExistsMessage(workspace: string, id: string, status: WorkloadStatus): string {
  return (
    `workload ${id} already exists in workspace ${workspace} (${status.type ?? "unknown type"}, phase ${status.phase}), ` +
    `and no resource of this program checked before it declares it: it belongs to another stack, was made outside Pulumi, ` +
    `or was declared by a resource this program no longer has. Nothing was sent. ` +
    `To keep both, give this resource another workloadId. A resource you renamed keeps its workload with the \`aliases\` resource option. ` +
    `To manage this very workload from this resource, set \`adopt: true\`: its live spec is then replaced by this declaration ` +
    `(every field you do not declare is reset), and destroying this resource, or removing it from the program, deletes the workload`
  );
}

/**
 * What `create` does with the id it is asked to create, from what the service holds there:
 *
 *   exists  adopt  runs the declared spec   →
 *   no      –      –                        create    upsert, wait ("created")
 *   yes     no     no                       refuse    somebody's workload: nothing sent
 *   yes     no     yes                      resume    this stack's interrupted create: warn, upsert, wait
 *   yes     yes    yes                      record    taken as it is: nothing sent, read its status
 *   yes     yes    no                       adopt     upsert the declared spec over it, wait
 */
export type Takeover = "create" | "refuse" | "resume" | "record" | "adopt";

export function takeover(found: { exists: boolean; adopt: boolean; runsDeclaredSpec: boolean }): Takeover {
  if (!found.exists) return "create";
  if (!found.adopt) return found.runsDeclaredSpec ? "resume" : "refuse";
  return found.runsDeclaredSpec ? "record" : "adopt";
}
