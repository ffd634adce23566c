/**
 * Whether `--revert` may put a drifted workload back, decided from what an update from the live
 * workload to the stack's recorded inputs would do (the fields' declarations, provider/fields/).
 * It acts only on an in-place update of exactly the drifted fields: never a replacement, never a
 * login, never a restart, never a field the drift did not name (the record changed meanwhile, or
 * something else differs), and never a database (its update carries a password the state keeps
 * only as a digest). Anything else is left alone with the reason.
 */
import type { WorkloadChanges } from "../provider/dynamic/workloads/diff";

export type RevertPlan =
  /** Nothing differs from the record any more (put back by someone, or recorded by an `up`): nothing to do, nothing to say. */
  { act: "nothing" } | { act: "refuse"; reason: string } | { act: "update"; fields: string[] };

export interface RevertFacts {
  /** `template` has no update: any change replaces it. */
  kind: "workload" | "template";
  /** The workload type the record names (`storage` for a database). */
  type?: unknown;
  /** The top-level fields the drift finding named. */
  drifted: readonly string[];
  /** What an update from the live workload to the recorded inputs would do. */
  changes: Pick<WorkloadChanges, "replaces" | "updates" | "restart">;
}

const list = (keys: readonly string[]): string => [...keys].sort().join(", ");

/** The plan of a revert; see the header for the rules, in the order they are tried. */
export function planRevert(facts: RevertFacts): RevertPlan {
  const { changes, drifted } = facts;
  if (facts.kind === "template")
    return { act: "refuse", reason: "a template has no update: putting it back would replace it" };
  if (changes.replaces.length > 0)
    return {
      act: "refuse",
      reason: `putting it back would replace the workload (${list(changes.replaces)}), its data with it`,
    };
  if (changes.updates.includes("credentials")) return { act: "refuse", reason: "putting it back would change a login" };
  if (changes.restart) return { act: "refuse", reason: "putting it back would restart it" };
  if (changes.updates.length === 0) return { act: "nothing" };
  const extra = changes.updates.filter((k) => !drifted.includes(k));
  if (extra.length > 0)
    return {
      act: "refuse",
      reason: `the stack's record differs from the live workload in more than the drift reported (${list(extra)}): the record changed since, or the workload did again`,
    };
  if (facts.type === "storage")
    return {
      act: "refuse",
      reason:
        "a database's update carries its password, and the stack's state keeps only a digest of it: the watch has no password to send",
    };
  return { act: "update", fields: [...changes.updates].sort() };
}
