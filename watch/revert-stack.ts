/**
 * What a revert asks of the stack, through the `pulumi` CLI: its record of one resource and its
 * config as they are now, and whether the program in the working directory would change that
 * resource (an edit not yet applied).
 */
import { revealed, type ExportedStack } from "../provider/checkpoint";
import { stackNameAt, type StackPlace } from "../automation/place";
import { pulumiJsonAt } from "../automation/pulumi-at";
import type { StackConfig } from "../provider/dynamic/service/connection";
import type { Props } from "../provider/dynamic/inputs/props";
import { isManagedRecord } from "./state-record";

/** One resource as the stack's state records it now, secrets in plaintext. */
export interface RecordedResource {
  id: string;
  inputs: Props;
  outputs: Props;
}

/** A step of `pulumi preview --json`: `replaceReasons` are the engine's keys, `diffReasons` its diffs. */
interface PreviewStep {
  op: string;
  urn: string;
  replaceReasons?: string[];
  diffReasons?: string[];
}

/** The state's record of `urn` (undefined when the stack no longer records it) and the stack's config, read now. */
export async function recordNow(
  stackName: string,
  urn: string,
  place: StackPlace,
): Promise<{ record?: RecordedResource; config: StackConfig }> {
  // Every command names its stack: `pulumi stack select` would change the stack the user's own commands act on.
  const stack = stackNameAt(stackName, place);
  const [state, configMap] = await Promise.all([
    pulumiJsonAt<ExportedStack>(["stack", "export", "--show-secrets"], place, { stack }),
    pulumiJsonAt<Record<string, { value?: string }>>(["config", "--json", "--show-secrets"], place, { stack }),
  ]);
  const resources = (state.deployment.resources ?? []).filter((r) => r.urn === urn && r.id && isManagedRecord(r));
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
  const stack = stackNameAt(stackName, place);
  const preview = await pulumiJsonAt<{ steps?: PreviewStep[] }>(
    ["preview", "--target", urn, "--json", "--color", "never"],
    place,
    { stack, signal },
  );
  const steps: string[] = [];
  for (const step of preview.steps ?? []) {
    if (step.urn !== urn || step.op === "same") continue;
    const keys = step.replaceReasons?.length ? step.replaceReasons : step.diffReasons;
    steps.push(keys?.length ? `${step.op} (${[...keys].sort().join(", ")})` : step.op);
  }
  return steps.length > 0 ? [...new Set(steps)].join(", ") : undefined;
}
