import { digestOf, loginOf } from "../credentials/digest";
import { sameValue } from "../inputs/equal";
import { recordedReady } from "./recorded-status";
import { replaces, type ChangeEffect, type ConditionalChange } from "../../fields/declaration";
import { WORKLOAD_RULES } from "../../fields/workload-rules";
import { PROVIDER_KEY, inputKeys, type Props } from "../inputs/props";
import { parseWorkload } from "./model";
import { diffResultOf, type DiffResult } from "../diff-result";

/** What changed between the state (`olds`: last outputs) and the checked inputs (`news`), by consequence. */
export interface WorkloadChanges {
  /** Keys that need a new workload: identity, a database's engine and credentials. */
  replaces: string[];
  /** There are replaces, and each keeps the id (`replace-delete-first`): the old workload must go first. */
  deleteFirst: boolean;
  /** Keys sent with an upsert, then the new generation is awaited: every other spec field, VM credentials. */
  updates: string[];
  /** `restartTrigger` changed from one value to another: a restart call, then a wait. */
  restart: boolean;
  /** Options and connection settings: recorded in state, nothing is sent to the service. */
  local: string[];
  /** The last wait did not finish (the resource was kept with init errors): the update waits again. */
  resumeWait: boolean;
  /** The conditional rule that decided a key's change, where one did (its words: notes, data loss). */
  rules: Record<string, ConditionalChange>;
}

/** Credentials compared by digest: the state keeps no password (see credentials/digest.ts). */
function comparable(props: Props): Props {
  return { ...props, credentials: digestOf(props) };
}

/**
 * Sorts what changed by what the declaration (provider/fields/) says a change of each key does,
 * its conditional rules applied. A key the declaration does not name is a spec field: an update.
 */
export function classifyWorkloadChanges(oldProps: Props, newProps: Props, rules = WORKLOAD_RULES): WorkloadChanges {
  const olds = comparable(oldProps);
  const news = comparable(newProps);
  const out: WorkloadChanges = {
    replaces: [],
    deleteFirst: false,
    updates: [],
    restart: false,
    local: [],
    resumeWait: false,
    rules: {},
  };
  // The engine does not update a resource because it has init errors (only with `replaceOnChanges:
  // ["#initerror"]`), so the diff itself asks for the update that waits again.
  const recordedStatus = parseWorkload(oldProps).status;
  const options = parseWorkload(newProps).options;
  // A state without a status (a wait cut before any read: a cancelled run) owes the wait too.
  out.resumeWait = options.waitForReady && !recordedReady(recordedStatus, options);
  const keys = new Set([...inputKeys(olds), ...inputKeys(news)]);
  keys.delete(PROVIDER_KEY);
  const replacing: ChangeEffect[] = [];
  for (const key of [...keys].sort()) {
    if (sameValue(olds[key], news[key])) continue;
    const { effect, rule } = rules.effectOf({ key, olds, news });
    if (rule) out.rules[key] = rule;
    if (effect === "restart") out.restart = true;
    else if (replaces(effect)) {
      out.replaces.push(key);
      replacing.push(effect);
    } else if (effect === "local" || effect === "none") out.local.push(key);
    else out.updates.push(key);
  }
  out.deleteFirst = replacing.length > 0 && replacing.every((e) => e === "replace-delete-first");
  return out;
}

/** What preview says of the classified changes, by their rules; nothing beside a replacement. */
export function notesOf(c: WorkloadChanges): string[] {
  if (c.replaces.length > 0) return [];
  return Object.values(c.rules).flatMap((r) => (r.says ? [r.says] : []));
}

/** Whether `props` keep a password (a state written by 0.1.0), not its digest. */
function holdsPassword(props: Props): boolean {
  return typeof loginOf(props.credentials)?.password === "string";
}

/**
 * `diff` of a workload, from its changes classified against the state `olds`. A replacement that
 * keeps the workspace and the workload id (a new type, engine or database credentials) must free the id first: the service refuses an id of another
 * type (409) and `create` refuses an id that exists. Every workload field's replacement is
 * declared delete-first, as the classes' `deleteBeforeReplace` makes every replacement anyway.
 */
export function diffOfChanges(c: WorkloadChanges, olds: Props): DiffResult {
  const inputsChanged = c.replaces.length > 0 || c.updates.length > 0 || c.restart || c.local.length > 0;
  const result = diffResultOf({
    inputsChanged,
    resumeWait: c.resumeWait,
    replaces: c.replaces,
    deleteFirst: c.deleteFirst,
  });
  // A state written by 0.1.0 keeps the password where ours keeps its digest: the engine's own diff
  // of the inputs would take that for a new password (and replace a database). Ours decides alone.
  if (result.changes === undefined && holdsPassword(olds)) return { ...result, changes: true };
  return result;
}
