import type { CallOptions, WorkloadStatus, WorkspaceClient } from "../../../sdk";
import { describeUrn } from "./declarations";
import { sameValue } from "../inputs/equal";
import { sharedSpec } from "../service/shared-spec";
import { specFields, type WorkloadModel } from "../workloads/model";

/**
 * Whether the live workload has exactly the type and spec the resource declares (its entry in the
 * tenant spec). Credentials are left out: they are write-only, no response shows them. Asked only
 * with `adopt: true`: a workload already running the declaration is recorded without a request.
 */
export async function runsDeclaredSpec(client: WorkspaceClient, m: WorkloadModel, call: CallOptions): Promise<boolean> {
  const entry = (await sharedSpec(client, call)).workloads.find((w) => w.id === m.identity.workloadId);
  return entry !== undefined && entry.type === m.identity.type && sameValue(entry.spec, specFields(m));
}

/** The command that proves a killed run's creates from the stack's own record (cli/recover/). */
export const RECOVER_COMMAND = "npx pulumi-wws recover";

/**
 * Why `create` (and, at preview, `check`) refuses an id that exists. The service keeps no owner per
 * workload and a matching spec proves nothing, so the message tells the three ways it can happen
 * and the way out of each; `urn` is the refused resource's, when its class sent one.
 */
export function alreadyExistsMessage(workspace: string, id: string, status: WorkloadStatus, urn?: string): string {
  const who = urn ? `${describeUrn(urn)} (${urn})` : "this resource";
  return (
    `workload ${id} already exists in workspace ${workspace} (${status.type ?? "unknown type"}, phase ${status.phase}), ` +
    `and nothing proves it is ${who}'s: the service keeps no owner, and a workload is taken over only on the stack's record or your word. Nothing was sent. ` +
    `Whichever of these happened: ` +
    `(1) you moved or renamed a resource of this program (into a component, or a new name): keep its workload with the \`aliases\` resource option, ` +
    `e.g. \`{ parent: this, aliases: [{ parent: pulumi.rootStackResource }] }\` for a move from the stack into a component, ` +
    `or \`aliases: [{ name: "<old name>" }]\` for a rename; without it the old resource is deleted and takes the workload with it. ` +
    `(2) It is another stack's workload, or one made outside Pulumi: give this resource another workloadId to keep both, ` +
    `or set \`adopt: true\` to manage this very workload from here: its live spec is then replaced by this declaration ` +
    `(every field you do not declare is reset), and destroying this resource, or removing it from the program, deletes the workload. ` +
    `(3) A killed \`pulumi up\` of this stack created it: run \`pulumi cancel --yes\` if the stack is locked, then \`${RECOVER_COMMAND}\` ` +
    `(it takes ${workspace}/${id} into the stack only if the stack's pending creates prove it; \`--yes\` applies), then \`pulumi up\``
  );
}

/**
 * What `create` does with the id it is asked to create, from what the service holds there:
 *
 *   exists  adopt  runs the declared spec   →
 *   no      –      –                        create    upsert, wait ("created")
 *   yes     no     –                        refuse    nothing proves it ours: nothing sent
 *   yes     yes    yes                      record    taken as it is: nothing sent, read its status
 *   yes     yes    no                       adopt     upsert the declared spec over it, wait
 *
 * A create this stack's killed run left behind is no case here: `pulumi-wws recover` writes it
 * into the state from the engine's pending create, so the engine never calls `create` for it.
 */
export type Takeover = "create" | "refuse" | "record" | "adopt";

export function takeover(found: { exists: boolean; adopt: boolean; runsDeclaredSpec: boolean }): Takeover {
  if (!found.exists) return "create";
  if (!found.adopt) return "refuse";
  return found.runsDeclaredSpec ? "record" : "adopt";
}
