import type { WorkloadType } from "../../../sdk";
import { DATABASE_TYPES } from "../../fields/workload-fields";
import type { WorkloadChanges } from "./diff";
import type { Failure } from "../inputs/failures";
import { optionsOf } from "../inputs/options";
import type { Props } from "../inputs/props";

/** Why a key's change replaces the database: its rule's words, or the values (a secret's rule has words). */
function whyOf(key: string, changes: WorkloadChanges, olds: Props, news: Props): string {
  return changes.rules[key]?.dataLoss?.why ?? `${key} changed from ${String(olds[key])} to ${String(news[key])}`;
}

/** How to keep the database: each rule's way, then undoing the other changes. */
function undoOf(changes: WorkloadChanges): string {
  const ruled = changes.replaces.flatMap((k) => changes.rules[k]?.dataLoss?.undo ?? []);
  const plain = changes.replaces.filter((k) => changes.rules[k]?.dataLoss === undefined);
  return [...new Set(ruled), ...(plain.length > 0 ? [`undo the change of ${plain.join(", ")}`] : [])].join(" and ");
}

/** A database replacement `diff` found: refused (an error to throw) or allowed (a warning to write). */
type DatabaseReplacement = { allowed: false; error: Error } | { allowed: true; warning: string };

/**
 * Whether a classified change replaces a database, which deletes it and its data; undefined when
 * it does not. Without `allowDataLoss: true` the replacement is refused, so that `pulumi preview`
 * says so before anything is deleted.
 */
export function databaseReplacement(
  changes: WorkloadChanges,
  olds: Props,
  news: Props,
): DatabaseReplacement | undefined {
  const database = isDatabase(olds) || isDatabase(news);
  if (!database || changes.replaces.length === 0) return undefined;
  const which = `database ${String(olds.workloadId)} in workspace ${String(olds.workspace)}`;
  const why = changes.replaces.map((k) => whyOf(k, changes, olds, news)).join("; ");
  if (optionsOf(news).allowDataLoss) {
    const warning = `warning: ${which} will be replaced (${why}): deleted with all its data, then created empty, as \`allowDataLoss: true\` allows`;
    return { allowed: true, warning };
  }
  const undo = undoOf(changes);
  const error = new Error(
    `${which}: ${why}. Applying this would replace the database: delete it with all its data and create a new, empty one. ` +
      `Nothing was changed. To keep the database, ${undo}; to replace it and lose its data, set \`allowDataLoss: true\` on the resource`,
  );
  return { allowed: false, error };
}

/** Whether `props` are a database's (a type the field declarations name as one). */
export const isDatabase = (props: Props): boolean => DATABASE_TYPES.includes(props.type as WorkloadType);
const databaseOf = (props: Props): string =>
  `database ${String(props.workloadId)} in workspace ${String(props.workspace)}`;
const REPLACEMENT_LOSES_DATA = "a replacement deletes the database with all its data and creates a new, empty one";

/** Whether `check` can tell that `inputs` are a database that does not allow losing its data (false while unknown). */
function refusesDataLoss(inputs: Props): boolean {
  return isDatabase(inputs) && (inputs.allowDataLoss === undefined || inputs.allowDataLoss === false);
}

/**
 * `check`'s failure for a database with resource options that replace it without asking `diff`
 * (`replacedBy`, as its class read them: `replaceOnChanges (cpu)`, `replacementTrigger`,
 * `replaceWith`), unless it says `allowDataLoss: true`. Refused as declared, before any change
 * comes: the engine would replace it without a word to the provider.
 */
export function replacementOptionsFailure(inputs: Props, replacedBy: unknown): Failure | undefined {
  if (!Array.isArray(replacedBy) || replacedBy.length === 0 || !refusesDataLoss(inputs)) return undefined;
  const options = replacedBy.map(String);
  const one = options.length === 1;
  const named = one ? `the resource option ${options[0]}` : `the resource options ${options.join(" and ")}`;
  return {
    property: "",
    reason:
      `${databaseOf(inputs)}: ${named} can replace it, and ${REPLACEMENT_LOSES_DATA}. No change was sent.\n` +
      `The engine replaces on ${one ? "this option" : "these options"} without asking this provider. ` +
      `To keep the database, remove ${one ? "the option" : "them"} (a changed field is then updated in place); ` +
      `to let ${one ? "it" : "them"} replace it, set \`allowDataLoss: true\` on the resource`,
  };
}

/** `check`'s failure for a database the running command names with `--replace` or `--target-replace`, without `allowDataLoss: true`. */
export function replaceTargetFailure(inputs: Props, urn: string): Failure | undefined {
  if (!refusesDataLoss(inputs)) return undefined;
  return {
    property: "",
    reason:
      `${databaseOf(inputs)}: this command asks to replace it, and ${REPLACEMENT_LOSES_DATA}. No change was sent.\n` +
      `--replace or --target-replace names ${urn}: run the command without it to keep the database, ` +
      `or set \`allowDataLoss: true\` on the resource to replace it`,
  };
}

/**
 * Why `delete` refuses a database that this run's program still declares (its URN was checked):
 * the delete is the first half of a replacement that no check or diff could refuse (a tainted
 * resource, a `--replace` not seen on the command line), and the data would be lost.
 */
export function declaredDatabaseDeleteError(stored: Props, urn: string): Error {
  return new Error(
    `${databaseOf(stored)} was not deleted: the program still declares it, so this delete is the first half of a replacement, and ${REPLACEMENT_LOSES_DATA}.\n` +
      `The replacement came from \`pulumi state taint\` or a \`--replace\` this provider could not see (${urn}). ` +
      `Set \`allowDataLoss: true\` on the resource to replace it; to keep it, \`pulumi state untaint ${urn}\`. ` +
      `To delete it for good, remove it from the program or run \`pulumi destroy\``,
  );
}
