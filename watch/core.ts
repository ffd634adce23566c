/**
 * The watch's decisions, as pure functions of what it observed: what one comparison of a resource
 * reports, who made the change, and what the status line says. No I/O here: `watcher.ts` gathers
 * the observations and acts on the verdicts; `test/watch/core.test.ts` holds the table.
 *
 * Vocabulary:
 * - a row "by a person": an activity row whose actor is a key's label, not the service's own steps
 *   (the reconciler's phases, a control action), naming this resource;
 * - "reported": a drift of the resource already said and not yet as declared again;
 * - "out of date": the stack's record may not explain the workspace (an update runs, or ended
 *   since the record was read): nothing is reported, the watch compares again after the update.
 */
import type { Difference } from "./compare";
import type { Cause } from "./finding";

/** Actors of rows the service writes itself, not a key's change. */
export const SERVICE_ACTORS: ReadonlySet<string> = new Set(["reconciler", "control"]);

export function byPerson(c: Cause | undefined): boolean {
  return c?.actor !== undefined && !SERVICE_ACTORS.has(c.actor);
}

/** What the rows said of one resource since its last comparison. */
export interface RowsSince {
  /** The first row by a person that named it (the change's author). */
  change?: Cause;
  /** A row said it was deleted. */
  deleted?: Cause;
  /** A `secret-changed` event named its credentials. */
  secretChanged?: boolean;
}

export interface Observation {
  /** The comparison's differences; undefined when the resource could not be read. */
  diffs: Difference[] | undefined;
  rows: RowsSince;
  /** The cause the comparison was asked with (a row that named nothing, a reconnect: often none). */
  asked: Cause;
  reported: boolean;
  /** The last thing said of it was "deleted". */
  reportedDeleted: boolean;
  recordOutOfDate: boolean;
}

export type Verdict =
  | { kind: "retry" }
  | { kind: "wait-for-update" }
  | { kind: "drift"; cause: Cause }
  | { kind: "changed-back"; cause: Cause }
  | { kind: "replaced-outside"; cause: Cause }
  | { kind: "secret-changed"; cause: Cause }
  | { kind: "as-declared" };

/** The first cause that names who made the change; else the first that says anything. */
export function causeOf(...causes: Array<Cause | undefined>): Cause {
  return causes.find(byPerson) ?? causes.find((c) => c?.activityId !== undefined || c?.actor !== undefined) ?? {};
}

/**
 * What one comparison reports, in order. The rules, first match wins where they exclude each other:
 * 1. the record is out of date: nothing (the update's own change is no drift);
 * 2. the read failed: retry (the queue backs off and says it once);
 * 3. present now, but a row said it was deleted, or "deleted" was the last word: replaced outside Pulumi;
 * 4. its credentials were set by a `secret-changed`: said, without values;
 * 5. differences: drift (deleted, restarted and Failed among them), by the row's author;
 * 6. none, a row by a person named it, and no drift of it was said: changed and changed back,
 *    however quickly (what it was in between is not known);
 * 7. otherwise as declared.
 */
export function decide(o: Observation): Verdict[] {
  if (o.recordOutOfDate) return [{ kind: "wait-for-update" }];
  if (o.diffs === undefined) return [{ kind: "retry" }];
  const cause = causeOf(o.rows.change, o.asked, o.rows.deleted);
  const present = !o.diffs.some((d) => d.kind === "deleted");
  const out: Verdict[] = [];
  const replaced = present && (o.rows.deleted !== undefined || o.reportedDeleted);
  if (replaced) out.push({ kind: "replaced-outside", cause: causeOf(o.rows.change, o.rows.deleted, o.asked) });
  if (present && o.rows.secretChanged) out.push({ kind: "secret-changed", cause });
  if (o.diffs.length > 0) out.push({ kind: "drift", cause });
  else if (!replaced && !o.rows.secretChanged && byPerson(o.rows.change) && !o.reported)
    out.push({ kind: "changed-back", cause });
  return out.length > 0 ? out : [{ kind: "as-declared" }];
}

/** A workspace the watch does not see, and why. */
export interface Blind {
  workspace: string;
  why: string;
}

export interface StatusInput {
  /** `3 workloads and 1 template`. */
  watched: string;
  stacks: string[];
  workspaces: string[];
  blind: Blind[];
  /** Resources whose drift is reported and lasts. */
  differing: number;
}

/** The periodic status line: never "all as declared" while a workspace is not seen. */
export function statusLine(s: StatusInput): string {
  const head = `watching ${s.watched} of stack ${s.stacks.join(", ")} in workspace ${s.workspaces.join(", ")}`;
  const blind = s.blind.map((b) => `workspace ${b.workspace} is NOT watched (${b.why})`).join("; ");
  const verdict =
    s.differing === 0
      ? "all as declared"
      : `${s.differing} differ from the stack's record (reported above), the others as declared`;
  if (s.blind.length === 0) return `${head}: ${verdict}`;
  const seen = s.workspaces.filter((w) => !s.blind.some((b) => b.workspace === w));
  if (seen.length === 0) return `${head}: ${blind}; nothing is known of its drift`;
  return `${head}: ${blind}; in workspace ${seen.join(", ")}: ${verdict}`;
}
