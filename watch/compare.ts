import { classifyWorkloadChanges } from "../provider/dynamic/workloads/diff";
import { sameValue } from "../provider/dynamic/inputs/equal";
import { DRIFT_KEY, inputsOf } from "../provider/dynamic/inputs/props";
import { classifyTemplateChanges } from "../provider/dynamic/templates/diff";
import type { ProviderImpl } from "../provider/dynamic/types";
import { WORKLOAD_RULES } from "../provider/fields/workload-rules";
import { TEMPLATE_RULES } from "../provider/fields/template-fields";
import type { ManagedResource } from "./stack";
import { touchesSecret } from "./state-record";

/** One field whose live value differs from the recorded one; `secret`: its values are not shown. */
export interface FieldChange {
  path: string;
  recorded: unknown;
  live: unknown;
  secret: boolean;
}

/** What one comparison of a managed workload found. */
export type Difference =
  | { kind: "changed"; fields: FieldChange[]; replaces: boolean }
  | { kind: "deleted" }
  | { kind: "restarted"; restarts: number }
  | { kind: "failed"; message: string };

/** A field a name like these may hold a login (a template's `config.vm.credentials`, a repo URL's token): never shown. */
const SECRET_PATH = /credential|password|passwd|apikey|secret|token/i;

/** The fields the declarations (provider/fields/) keep secret: a login, the API key. */
const DECLARED_SECRET: Record<ManagedResource["kind"], readonly string[]> = {
  workload: WORKLOAD_RULES.secretKeys,
  template: TEMPLATE_RULES.secretKeys,
};

/**
 * Whether the values at `path` of `w` are never shown: the state keeps it (or something in it, or
 * around it) secret, its field is declared secret, or its name says it may hold a login.
 */
export function isSecretField(w: Pick<ManagedResource, "kind" | "secretKeys">, path: string): boolean {
  const top = path.split(".")[0];
  return touchesSecret(path, w.secretKeys) || DECLARED_SECRET[w.kind].includes(top) || SECRET_PATH.test(path);
}

/** The paths under `key` at which `a` and `b` differ (objects compared key by key, anything else whole). */
function pathsOf(prefix: string, a: unknown, b: unknown, out: Array<{ path: string; a: unknown; b: unknown }>): void {
  if (sameValue(a, b)) return;
  const isObj = (v: unknown): v is Record<string, unknown> => typeof v === "object" && v !== null && !Array.isArray(v);
  if (isObj(a) && isObj(b)) {
    for (const k of [...new Set([...Object.keys(a), ...Object.keys(b)])].sort())
      pathsOf(`${prefix}.${k}`, a[k], b[k], out);
    return;
  }
  out.push({ path: prefix, a, b });
}

/**
 * The provider's own read of `w`, then its own diff of the recorded inputs against the live ones
 * (the declarations of provider/fields/): what `pulumi preview --refresh` would show of it.
 */
export async function compareWorkload(provider: ProviderImpl, w: ManagedResource): Promise<Difference[]> {
  const read = await provider.read(w.id, w.recorded);
  if (!read.id || !read.props) return [{ kind: "deleted" }];
  const live = read.props;
  if (w.kind === "template") {
    // Every field but the connection replaces a template (the service has no update).
    const { replaces, local } = classifyTemplateChanges(w.recorded, live);
    const keys = [...replaces, ...local];
    return keys.length > 0 ? [{ kind: "changed", fields: changedFields(w, live, keys), replaces: true }] : [];
  }
  const out: Difference[] = [];
  const changes = classifyWorkloadChanges(inputsOf(w.recorded), inputsOf(live));
  const keys = [...changes.replaces, ...changes.updates];
  if (keys.length > 0)
    out.push({ kind: "changed", fields: changedFields(w, live, keys), replaces: changes.replaces.length > 0 });
  const restarts = (v: unknown): number => (typeof v === "number" ? v : 0);
  const grew = restarts(live[DRIFT_KEY]) - restarts(w.recorded[DRIFT_KEY]);
  if (grew > 0) out.push({ kind: "restarted", restarts: grew });
  if (live.phase === "Failed" && w.recorded.phase !== "Failed")
    out.push({ kind: "failed", message: typeof live.message === "string" ? live.message : "no message" });
  return out;
}

/** The paths under `keys` where `live` differs from what `w` recorded, secrets marked. */
function changedFields(w: ManagedResource, live: Record<string, unknown>, keys: string[]): FieldChange[] {
  const found: Array<{ path: string; a: unknown; b: unknown }> = [];
  for (const key of [...keys].sort()) pathsOf(key, w.recorded[key], live[key], found);
  return found.map((f) => ({
    path: f.path,
    recorded: f.a,
    live: f.b,
    secret: isSecretField(w, f.path),
  }));
}
