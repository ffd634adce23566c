import type { CallOptions, WorkloadStatus, WorkspaceClient } from "../../../sdk";
import { describeUrn } from "./declarations";
import { sameValue } from "../inputs/equal";
import { sharedSpec } from "../service/shared-spec";
import { specFields, type WorkloadModel } from "../workloads/model";

// What an existing id is compared with, and what its refusal says: the rule is ownership/create-plan.ts.

/** The spec fields where the live workload differs from `m` (`type` first when the type differs); undefined when gone. */
export async function liveDifferences(
  client: WorkspaceClient,
  m: WorkloadModel,
  call: CallOptions,
): Promise<string[] | undefined> {
  const entry = (await sharedSpec(client, call)).workloads.find((w) => w.id === m.identity.workloadId);
  if (entry === undefined) return undefined;
  const declared = specFields(m);
  const keys = [...new Set([...Object.keys(entry.spec), ...Object.keys(declared)])].sort();
  const differ = keys.filter((k) => !sameValue(entry.spec[k], declared[k]));
  return entry.type === m.identity.type ? differ : ["type", ...differ];
}

/**
 * Whether the live workload has exactly the type and spec the resource declares (its entry in the
 * tenant spec). Credentials are left out: they are write-only, no response shows them. What
 * `pulumi-wws recover` proves of a killed run's create (`create` reads the differences themselves).
 */
export async function runsDeclaredSpec(client: WorkspaceClient, m: WorkloadModel, call: CallOptions): Promise<boolean> {
  const differences = await liveDifferences(client, m, call);
  return differences !== undefined && differences.length === 0;
}

/** The command that proves a killed run's creates from the stack's own record (cli/recover/). */
export const RECOVER_COMMAND = "npx pulumi-wws recover";

/**
 * Why `create` (and, at preview, `check`) refuses an id that exists. The service keeps no owner per
 * workload and a matching spec proves nothing, so the message tells the ways it can happen and the
 * way out of each; `urn` is the refused resource's, when its class sent one. Its first line says
 * what happened: the CLI shows only that line on the resource's row, and the whole text once,
 * under Diagnostics.
 */
export function alreadyExistsMessage(workspace: string, id: string, status: WorkloadStatus, urn?: string): string {
  const who = urn ? describeUrn(urn) : "this resource";
  return [
    `workload ${id} already exists in workspace ${workspace} (${status.type ?? "unknown type"}, phase ${status.phase}), ` +
      `and nothing proves it is ${who}'s: the service keeps no owner. No change was sent. Whichever happened:`,
    `(1) You renamed or moved the resource: add the \`aliases\` resource option, \`aliases: [{ name: "<old name>" }]\` ` +
      `(into a component: \`aliases: [{ parent: pulumi.rootStackResource }]\`).`,
    `(2) \`pulumi state delete\` or \`pulumi state move\` took it out of this stack: \`adopt: true\` for one \`pulumi up\` takes it back.`,
    `(3) It is another stack's workload, or an outside one: another workloadId keeps both; \`adopt: true\` takes it over: ` +
      `its live spec is then replaced by this declaration, and destroying this resource deletes the workload.`,
    `(4) A killed \`pulumi up\` created it: \`pulumi cancel --yes\`, \`${RECOVER_COMMAND}\` (\`--yes\` takes it in ` +
      `if the stack's pending creates prove it), \`pulumi up\`.`,
    `(5) \`pulumi state taint\`, which this provider cannot see: use \`pulumi up --replace ${urn ?? "<urn>"}\` instead.`,
  ].join("\n");
}
