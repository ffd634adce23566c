import type { WorkloadStatus } from "../../sdk/schemas";
import { sealCredentials } from "./credentials-digest";
import { DRIFT_KEY, OUTPUT_KEYS, optionsOf, type Props } from "./props";

/** The default login of a database (contract: storage username defaults to `app`). */
const DEFAULT_DB_USER = "app";

/**
 * How to connect to a database, without the password: `postgresql://app@<endpoint>/postgres?sslmode=require`
 * or `rediss://app@<endpoint>` (the exposed endpoint is TLS with SNI routing). Undefined when the
 * database has no endpoint (not exposed) or is not a database.
 */
export function connectionUriOf(props: Props, endpoint: string | undefined): string | undefined {
  if (props.type !== "storage" || !endpoint) return undefined;
  const login = props.credentials as { username?: unknown } | undefined;
  const user = encodeURIComponent(typeof login?.username === "string" && login.username !== "" ? login.username : DEFAULT_DB_USER);
  if (props.engine === "postgres") return `postgresql://${user}@${endpoint}/postgres?sslmode=require`;
  if (props.engine === "redis") return `rediss://${user}@${endpoint}`;
  return undefined;
}

/** The outputs the service reports, from a `/status` record (a missing field stays missing). */
export function statusOutputs(props: Props, status: WorkloadStatus | undefined): Props {
  const out: Props = {};
  if (status === undefined) return out;
  const pick = { phase: status.phase, message: status.message, restartCount: status.restartCount, endpoint: status.endpoint, adminUrl: status.adminUrl, adminReady: status.adminReady, generation: status.generation, observedGeneration: status.observedGeneration };
  for (const [k, v] of Object.entries(pick)) if (v !== undefined) out[k] = v;
  const uri = connectionUriOf(props, status.endpoint);
  if (uri !== undefined) out.connectionUri = uri;
  return out;
}

/** `props` with the service's outputs replaced by those of `status`, and the password left out (see credentials-digest.ts). */
export function withStatus(props: Props, status: WorkloadStatus | undefined): Props {
  const out: Props = { ...props };
  for (const k of OUTPUT_KEYS) delete out[k];
  return sealCredentials({ ...out, ...statusOutputs(props, status) });
}

/**
 * Ready as far as the recorded outputs (`olds`) tell, under the options of `news`: Running, its
 * latest generation observed, and the admin console ready when that is awaited. Not ready means a
 * wait did not finish (the resource was kept with init errors) and is owed on the next update.
 */
export function recordedReady(olds: Props, news: Props): boolean {
  const generation = typeof olds.generation === "number" ? olds.generation : 0;
  const observed = typeof olds.observedGeneration === "number" ? olds.observedGeneration : generation;
  return olds.phase === "Running" && observed >= generation && (!optionsOf(news).waitForAdminConsole || olds.adminReady === true);
}

/**
 * Restarts the stack did not ask for, as `refresh` records them: the previous count plus how much
 * the service's `restartCount` grew since the state last saw it. A restart changes no input, and
 * the engine counts only input changes as drift (`preview --refresh --expect-no-changes`,
 * `refresh --preview-only`); this key makes it one, named. The next `pulumi up` drops it again
 * without a request (it is a local-only key): that acknowledges the restarts.
 */
export function restartsOutsidePulumi(old: Props, status: WorkloadStatus): number | undefined {
  const before = typeof old[DRIFT_KEY] === "number" ? (old[DRIFT_KEY] as number) : 0;
  const grew = typeof old.restartCount === "number" && typeof status.restartCount === "number" ? status.restartCount - old.restartCount : 0;
  const total = before + Math.max(0, grew);
  return total > 0 ? total : undefined;
}
