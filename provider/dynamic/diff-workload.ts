import { digestOf, loginOf } from "./credentials-digest";
import { sameValue } from "./equal";
import { recordedReady } from "./recorded-status";
import { replaces } from "../fields/declaration";
import { WORKLOAD_RULES } from "../fields/workload-rules";
import { PROVIDER_KEY, inputKeys, type Props } from "./props";
import { parseWorkload } from "./workload-model";

/**
 * What `diff` hands the dynamic provider host. At 3.259 the host forwards `changes` (true →
 * DIFF_SOME, false → DIFF_NONE, undefined → DIFF_UNKNOWN), `replaces` and `deleteBeforeReplace`,
 * and drops everything else (`stables` included): it has no field for a detailed diff.
 */
export interface DiffResult {
  changes: boolean | undefined;
  replaces: string[];
  deleteBeforeReplace: boolean;
}

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
}

const isSet = (v: unknown): boolean => v !== undefined && v !== null;

/** Credentials compared by digest: the state keeps no password (see credentials-digest.ts). */
function comparable(props: Props): Props {
  return { ...props, credentials: digestOf(props) };
}

/**
 * Sorts what changed by what the declaration (provider/fields/) says a change of each key does.
 * A key the declaration does not name is a spec field: an update.
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
  };
  // The engine does not update a resource because it has init errors (only with `replaceOnChanges:
  // ["#initerror"]`), so the diff itself asks for the update that waits again.
  const recordedStatus = parseWorkload(oldProps).status;
  const options = parseWorkload(newProps).options;
  // A state without a status (a wait cut before any read: a cancelled run) owes the wait too.
  out.resumeWait = options.waitForReady && !recordedReady(recordedStatus, options);
  // A database's set-once fields replace it whichever side is one.
  const type = news.type === "storage" || olds.type === "storage" ? "storage" : news.type;
  const keys = new Set([...inputKeys(olds), ...inputKeys(news)]);
  keys.delete(PROVIDER_KEY);
  for (const key of [...keys].sort()) {
    if (sameValue(olds[key], news[key])) continue;
    const change = rules.changeOf(type, key);
    // Adding or removing a trigger is not a change of its value: no restart.
    if (change === "restart") {
      if (isSet(olds[key]) && isSet(news[key])) out.restart = true;
      else out.local.push(key);
    }
    // Credentials missing from an old state (adopted, imported) are sent, not a reason to replace:
    // the service answers 409 if they differ from the ones it holds.
    else if (replaces(change) && !(key === "credentials" && !isSet(olds[key]))) out.replaces.push(key);
    else if (change === "local" || change === "none") out.local.push(key);
    else out.updates.push(key);
  }
  out.deleteFirst =
    out.replaces.length > 0 && out.replaces.every((k) => rules.changeOf(type, k) === "replace-delete-first");
  return out;
}

/** The resource had no `restartTrigger` and now has one: the update records it and restarts nothing. */
export function firstRestartTrigger(olds: Props, news: Props): boolean {
  return !isSet(olds.restartTrigger) && isSet(news.restartTrigger);
}

/**
 * The `DiffResult` of a classified change, in the shape that makes the engine show it per property.
 * The host cannot carry a detailed diff, and a DIFF_SOME without one leaves `preview --json` with
 * no `detailedDiff`/`diffReasons` and `replaceOnChanges` with nothing to match. So when inputs
 * changed, `changes` is left undefined: the engine then diffs the old and new inputs itself (after
 * `ignoreChanges`), property by property, and keeps our `replaces` and `deleteBeforeReplace`.
 * Both diffs compare the same inputs, so the engine finds a change exactly when we do. With no
 * input change, a wait left unfinished (init errors) still needs the update: DIFF_SOME, nothing
 * to detail; otherwise DIFF_NONE. What the update then does is decided again in `update`.
 */
export function diffResultOf(change: {
  /** Some input differs from the state's. */
  inputsChanged: boolean;
  /** No input differs, but the last wait did not finish: the update waits again. */
  resumeWait: boolean;
  replaces: string[];
  /** A replacement deletes the old resource before it creates the new one. */
  deleteFirst: boolean;
}): DiffResult {
  if (change.inputsChanged)
    return {
      changes: undefined,
      replaces: change.replaces,
      deleteBeforeReplace: change.replaces.length > 0 && change.deleteFirst,
    };
  return { changes: change.resumeWait, replaces: [], deleteBeforeReplace: false };
}

/** Whether `props` keep a password (a state written by 0.1.0), not its digest. */
function holdsPassword(props: Props): boolean {
  return typeof loginOf(props.credentials)?.password === "string";
}

/**
 * `diff` of a workload. A replacement that keeps the workspace and the workload id (a new type,
 * engine or database credentials) must free the id first: the service refuses an id of another
 * type (409) and `create` refuses an id that exists. So those replace delete-before-create; a new
 * id or a new workspace is created first, then the old one deleted.
 */
export function diffWorkload(olds: Props, news: Props): DiffResult {
  return diffOfChanges(classifyWorkloadChanges(olds, news), olds);
}

/** `diffWorkload` of changes already classified (`olds`: the state they were classified against). */
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
