import { DIGEST_KEY, digestOf } from "./credentials-digest";
import { sameValue } from "./equal";
import { recordedReady } from "./outputs";
import { PROVIDER_KEY, inputKeys, optionsOf, type Props } from "./props";

export interface DiffResult {
  changes: boolean;
  replaces: string[];
  stables: string[];
  deleteBeforeReplace: boolean;
}

/** What changed between the state (`olds`: last outputs) and the checked inputs (`news`), by consequence. */
export interface WorkloadChanges {
  /** Keys that need a new workload: identity, a database's engine and credentials. */
  replaces: string[];
  /** Keys sent with an upsert, then the new generation is awaited: every other spec field, VM credentials. */
  updates: string[];
  /** `restartTrigger` changed from one value to another: a restart call, then a wait. */
  restart: boolean;
  /** Options and connection settings: recorded in state, nothing is sent to the service. */
  local: string[];
  /** The last wait did not finish (the resource was kept with init errors): the update waits again. */
  resumeWait: boolean;
}

const REPLACE_KEYS = new Set(["workspace", "workloadId", "type"]);
const LOCAL_KEYS = new Set(["baseUrl", "apiKey", "waitForReady", "readyTimeoutSeconds", "waitForAdminConsole", "adopt"]);
/** Set once on a database: a change means a new database. */
const STORAGE_SET_ONCE = new Set(["engine", "credentials"]);

const isSet = (v: unknown): boolean => v !== undefined && v !== null;

/** Credentials compared by digest: outputs keep no password, and a preview sees none. */
function comparable(props: Props): Props {
  const { [DIGEST_KEY]: _digest, ...rest } = props;
  void _digest;
  return { ...rest, credentials: digestOf(props) };
}

export function classifyWorkloadChanges(oldProps: Props, newProps: Props): WorkloadChanges {
  const olds = comparable(oldProps);
  const news = comparable(newProps);
  const out: WorkloadChanges = { replaces: [], updates: [], restart: false, local: [], resumeWait: false };
  // The engine does not update a resource because it has init errors (only with `replaceOnChanges:
  // ["#initerror"]`), so the diff itself asks for the update that waits again.
  out.resumeWait = typeof olds.phase === "string" && optionsOf(news).waitForReady && !recordedReady(olds, news);
  const storage = news.type === "storage" || olds.type === "storage";
  const keys = new Set([...inputKeys(olds), ...inputKeys(news)]);
  keys.delete(PROVIDER_KEY);
  for (const key of [...keys].sort()) {
    if (sameValue(olds[key], news[key])) continue;
    if (REPLACE_KEYS.has(key)) out.replaces.push(key);
    else if (key === "restartTrigger") {
      // Adding or removing a trigger is not a change of its value: no restart.
      if (isSet(olds[key]) && isSet(news[key])) out.restart = true;
      else out.local.push(key);
    } else if (LOCAL_KEYS.has(key)) out.local.push(key);
    // Credentials missing from an old state (adopted, imported) are sent, not a reason to replace:
    // the service answers 409 if they differ from the ones it holds.
    else if (storage && STORAGE_SET_ONCE.has(key) && !(key === "credentials" && !isSet(olds[key]))) out.replaces.push(key);
    else out.updates.push(key);
  }
  return out;
}

/**
 * `diff` of a workload. A replacement that keeps the workspace and the workload id (a new type,
 * engine or database credentials) must free the id first: the service refuses an id of another
 * type (409) and `create` refuses an id that exists. So those replace delete-before-create; a new
 * id or a new workspace is created first, then the old one deleted.
 */
export function diffWorkload(olds: Props, news: Props): DiffResult {
  const c = classifyWorkloadChanges(olds, news);
  const replacing = c.replaces.length > 0;
  const sameIdentity = !c.replaces.includes("workspace") && !c.replaces.includes("workloadId");
  return {
    changes: replacing || c.updates.length > 0 || c.restart || c.local.length > 0 || c.resumeWait,
    replaces: c.replaces,
    stables: replacing ? [] : ["workloadId", "workspace", "type"],
    deleteBeforeReplace: replacing && sameIdentity,
  };
}
