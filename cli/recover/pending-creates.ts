/**
 * The parts of `pulumi stack export` that `recover` reads and edits: the resources and the pending
 * operations of a version 3 deployment. Everything else is carried through untouched.
 */
import { OUR_TYPE_PREFIX, type ExportedStack, type PendingOperation } from "../../provider/checkpoint";

export {
  OUR_TYPE_PREFIX,
  revealed,
  type ExportedStack,
  type PendingOperation,
  type StateResource,
} from "../../provider/checkpoint";

/** The pending creates of this package's resources: what a killed `pulumi up` left of their creates. */
export function ourPendingCreates(stack: ExportedStack): PendingOperation[] {
  return (stack.deployment.pending_operations ?? []).filter(
    (op) => op.type === "creating" && op.resource.type.startsWith(OUR_TYPE_PREFIX),
  );
}

/**
 * `stack` with the pending creates in `adopt` recorded as resources of the state, each under the
 * id given, and the pending operations of `drop` removed. An adopted resource's outputs are its
 * inputs (secrets stay as the export encrypted them) until the refresh that follows reads the
 * live status; its inputs, provider and parent are the pending create's own.
 */
export function withPendingResolved(
  stack: ExportedStack,
  adopt: ReadonlyMap<string, string>,
  drop: ReadonlySet<string>,
): ExportedStack {
  const pending = stack.deployment.pending_operations ?? [];
  const taken = pending
    .filter((op) => op.type === "creating" && adopt.has(op.resource.urn))
    .map((op) => ({ ...op.resource, id: adopt.get(op.resource.urn), outputs: { ...op.resource.inputs } }));
  const kept = pending.filter(
    (op) => !(op.type === "creating" && (adopt.has(op.resource.urn) || drop.has(op.resource.urn))),
  );
  return {
    ...stack,
    deployment: {
      ...stack.deployment,
      resources: [...(stack.deployment.resources ?? []), ...taken],
      pending_operations: kept,
    },
  };
}
