import type { WorkloadChanges } from "./diff-workload";
import { optionsOf, type Props } from "./props";

/** What changed, for a replacement reason; credentials are named, never shown. */
function describeChange(key: string, olds: Props, news: Props): string {
  if (key === "credentials")
    return "credentials changed, but the service sets a database's login once and cannot change it";
  return `${key} changed from ${String(olds[key])} to ${String(news[key])}`;
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
  const database = olds.type === "storage" || news.type === "storage";
  if (!database || changes.replaces.length === 0) return undefined;
  const which = `database ${String(olds.workloadId)} in workspace ${String(olds.workspace)}`;
  const why = changes.replaces.map((k) => describeChange(k, olds, news)).join("; ");
  if (optionsOf(news).allowDataLoss) {
    const warning = `warning: ${which} will be replaced (${why}): deleted with all its data, then created empty, as \`allowDataLoss: true\` allows`;
    return { allowed: true, warning };
  }
  const undo = changes.replaces.includes("credentials")
    ? "put back the password (and username) it was created with"
    : `undo the change of ${changes.replaces.join(", ")}`;
  const error = new Error(
    `${which}: ${why}. Applying this would replace the database: delete it with all its data and create a new, empty one. ` +
      `Nothing was changed. To keep the database, ${undo}; to replace it and lose its data, set \`allowDataLoss: true\` on the resource`,
  );
  return { allowed: false, error };
}
