import type { WorkloadType } from "../../../sdk";
import { DATABASE_TYPES } from "../../fields/workload-fields";
import type { WorkloadChanges } from "./diff";
import { optionsOf, type Props } from "../inputs/props";

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
export type DatabaseReplacement = { allowed: false; error: Error } | { allowed: true; warning: string };

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
  const database = [olds.type, news.type].some((t) => DATABASE_TYPES.includes(t as WorkloadType));
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
