import type { CapacityPlan } from "../service/capacity";
import type { DeleteUrns } from "../engine/deletes";
import type { ReplaceTargets } from "../engine/replace-targets";
import type { Failure } from "../inputs/failures";
import type { Envelope } from "../inputs/envelope";
import type { Props } from "../inputs/props";
import { recordHeld, type Declarations } from "../ownership/declarations";
import { declaredDatabaseDeleteError, isDatabase, replaceTargetFailure, replacementOptionsFailure } from "./data-loss";

/**
 * What `check` notes and refuses of the replacements the engine drives without `diff`:
 *
 * - `pulumi up --replace <urn>` (and `--target-replace`): the engine checks the resource without
 *   its state, as if it were new. Named on the command line, it is taken for the resource it is:
 *   it held its workload (its delete goes out, see `Declarations.newHolderOf`) and its id is not
 *   somebody else's; a database is refused without `allowDataLoss: true`;
 * - `replaceWith`: a resource replaced along with another is deleted first, then checked without
 *   its state as well (the engine "re-creates" it): taken for itself in the same way. A new resource
 *   with `replaceWith` whose id is taken is then refused by `create` instead, still with nothing sent;
 * - resource options that replace (`replaceOnChanges`, `replacementTrigger`, `replaceWith`): a
 *   database is refused without `allowDataLoss: true`;
 * - whether the resource allows losing its data, for `delete` (`refuseDeclaredDatabaseDelete`);
 * - a replacement that creates first (`deleteBeforeReplace: false`): its old VM's room is not given
 *   back before the new one is placed (service/capacity.ts).
 */
export function checkReplacement(
  ctx: {
    readonly declarations: Declarations;
    readonly replaceTargets: ReplaceTargets;
    readonly capacity: CapacityPlan;
  },
  olds: Props,
  envelope: Envelope,
  inputs: Props,
): Failure[] {
  const failures: Failure[] = [];
  const { urn, replacedBy } = envelope;
  if (urn !== undefined) {
    ctx.declarations.declared(urn, inputs.allowDataLoss === true);
    if (olds.workloadId === undefined && ctx.replaceTargets.has(urn)) {
      takenForItself(ctx.declarations, urn, inputs);
      const refused = replaceTargetFailure(inputs, urn);
      if (refused) failures.push(refused);
    } else if (olds.workloadId === undefined && replacedBy?.includes("replaceWith"))
      takenForItself(ctx.declarations, urn, inputs);
  }
  if (urn !== undefined && envelope.createsFirst === true) ctx.capacity.createsFirst(urn);
  const refused = replacementOptionsFailure(inputs, replacedBy);
  if (refused) failures.push(refused);
  return failures;
}

/** A resource checked without its state that replaces itself: it held its workload, and it exists. */
function takenForItself(declarations: Declarations, urn: string, inputs: Props): void {
  declarations.exists(urn, true);
  recordHeld(declarations, urn, inputs);
}

/**
 * Throws before a database is deleted as the first half of a replacement that neither `check` nor
 * `diff` could refuse (`pulumi state taint`, a `--replace` not read from the command line): the
 * engine deletes a resource that this run's program still declares (its URN was checked) only to
 * replace it. `pulumi destroy` and a resource removed from the program are deletes the user wrote.
 */
export function refuseDeclaredDatabaseDelete(
  ctx: { readonly deleteUrns: DeleteUrns; readonly declarations: Declarations },
  resourceId: string,
  stored: Props,
): void {
  if (!isDatabase(stored)) return;
  const urn = ctx.deleteUrns.urnOf(resourceId);
  if (urn === undefined || ctx.declarations.dataLossAllowedFor(urn) !== false) return;
  throw declaredDatabaseDeleteError(stored, urn);
}
