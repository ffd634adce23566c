/**
 * What a revert asks of the stack, through the Automation API: its record of one resource and its
 * config as they are now, and whether the program in the working directory would change that
 * resource (an edit not yet applied).
 */
import { Stack } from "@pulumi/pulumi/automation";
import { revealed, type StateResource } from "../provider/checkpoint";
import { stackNameAt, workspaceAt, type StackPlace } from "../automation/place";
import type { StackConfig } from "../provider/dynamic/service/connection";
import type { Props } from "../provider/dynamic/inputs/props";
import { isManagedRecord } from "./state-record";

/** One resource as the stack's state records it now, secrets in plaintext. */
export interface RecordedResource {
  id: string;
  inputs: Props;
  outputs: Props;
}

/**
 * The stack, without selecting it: `pulumi stack select` would change the stack the user's own
 * commands in that directory act on. Every command of a `Stack` names its stack (`--stack`).
 */
async function stackOf(stackName: string, place: StackPlace): Promise<Stack> {
  const workspace = await workspaceAt(place);
  workspace.selectStack = () => Promise.resolve();
  return Stack.select(stackNameAt(stackName, place), workspace);
}

/** The state's record of `urn` (undefined when the stack no longer records it) and the stack's config, read now. */
export async function recordNow(
  stackName: string,
  urn: string,
  place: StackPlace,
): Promise<{ record?: RecordedResource; config: StackConfig }> {
  const stack = await stackOf(stackName, place);
  const [state, configMap] = await Promise.all([stack.exportStack(), stack.getAllConfig()]);
  const resources = ((state.deployment as { resources?: StateResource[] }).resources ?? []).filter(
    (r) => r.urn === urn && r.id && isManagedRecord(r),
  );
  const found = resources.at(-1);
  const values = Object.fromEntries(Object.entries(configMap).map(([k, v]) => [k, v.value]));
  const config: StackConfig = { get: (key) => (Object.hasOwn(values, key) ? values[key] : undefined) };
  if (!found?.id) return { config };
  return {
    config,
    record: {
      id: found.id,
      inputs: revealed(found.inputs ?? {}) as Props,
      outputs: revealed(found.outputs ?? {}) as Props,
    },
  };
}

/**
 * What the program in the stack's directory would do to `urn` now (`pulumi preview --target`,
 * no refresh: the program against the record): undefined when nothing, else in words. A person
 * editing it is not fought: the watch does not put back a record that is about to change.
 */
export async function unappliedChange(
  stackName: string,
  urn: string,
  place: StackPlace,
  signal: AbortSignal,
): Promise<string | undefined> {
  const stack = await stackOf(stackName, place);
  const steps: string[] = [];
  await stack.preview({
    target: [urn],
    color: "never",
    signal,
    onEvent: (e) => {
      const step = e.resourcePreEvent?.metadata;
      if (!step || step.urn !== urn || step.op === "same") return;
      const keys = step.keys?.length ? step.keys : step.diffs;
      steps.push(keys?.length ? `${step.op} (${[...keys].sort().join(", ")})` : step.op);
    },
  });
  return steps.length > 0 ? [...new Set(steps)].join(", ") : undefined;
}
