import * as pulumi from "@pulumi/pulumi";
import { dynamicType } from "./type-token";

/**
 * The resource options of a workload that touch replacement, as the engine needs them:
 *
 * - `deleteBeforeReplace`: true unless the user set it. A workload's id is its own (the resource
 *   name by default), and the service holds one workload per id: a replacement that creates first
 *   finds the old workload in its place and is refused. The engine decides create-first or
 *   delete-first from this option when set, else from `diff`; but `replacementTrigger`,
 *   `replaceWith` and `pulumi up --replace` replace without calling `diff`
 *   (step_generator.go, `generateStepsFromDiff` and `diff`), so only the option reaches them all.
 * - `replacedBy`: the options that replace the resource without asking `diff`, which `check`
 *   refuses on a database without `allowDataLoss` (`dynamic/workloads/data-loss.ts`).
 *   `replaceOnChanges` counts for the keys beyond the class's own (those already replace, and
 *   `diff` guards them).
 */
export function replacementOptions(
  opts: pulumi.CustomResourceOptions | undefined,
  ownReplaceKeys: readonly string[],
): { deleteBeforeReplace: boolean; replacedBy: string[] | undefined } {
  const replacedBy: string[] = [];
  const added = (opts?.replaceOnChanges ?? []).filter((k) => !ownReplaceKeys.includes(k));
  if (added.length > 0) replacedBy.push(`replaceOnChanges (${added.join(", ")})`);
  if (opts?.replacementTrigger !== undefined) replacedBy.push("replacementTrigger");
  if ((opts?.replaceWith ?? []).length > 0) replacedBy.push("replaceWith");
  return {
    deleteBeforeReplace: opts?.deleteBeforeReplace ?? true,
    replacedBy: replacedBy.length > 0 ? replacedBy : undefined,
  };
}

/** `Pod "web"` for a resource of this package (a workload, a `Template`, a `Workspace`); undefined for any other. */
function ourResource(resource: pulumi.Resource): string | undefined {
  const { __pulumiType: type, __name: name } = resource as unknown as { __pulumiType?: unknown; __name?: unknown };
  if (typeof type !== "string") return undefined;
  const className = type === "wws:index:Workspace" ? "Workspace" : type.replace(dynamicType(""), "");
  if (className === type) return undefined;
  return typeof name === "string" ? `${className} "${name}"` : className;
}

/**
 * The warning for a `deletedWith` that points at a resource of this package: the engine then skips
 * this resource's delete when both go, trusting the other's delete to take it along, but the
 * service deletes nothing along with anything, so the workload would keep running. Written at
 * every preview and update of the program, on the resource's row; undefined when it does not apply.
 */
export function deletedWithWarning(
  described: string,
  opts: pulumi.CustomResourceOptions | undefined,
): string | undefined {
  const target = opts?.deletedWith === undefined ? undefined : ourResource(opts.deletedWith);
  if (target === undefined) return undefined;
  return (
    `${described}: deletedWith points at ${target}, but the service deletes nothing along with another resource: ` +
    `when both are deleted, Pulumi skips this resource's delete and it keeps running on the service (its id stays taken). ` +
    `Remove the deletedWith option so that its own delete is sent`
  );
}
