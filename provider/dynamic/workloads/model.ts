import type { WorkloadStatus, WorkloadType } from "../../../sdk";
import type { ConnectionField } from "../service/connection";
import { WORKLOAD_RULES } from "../../fields/workload-rules";
import { type Login, loginOf } from "../credentials/digest";
import {
  CONNECTION_KEYS,
  DRIFT_KEY,
  IDENTITY_KEYS,
  NOT_SPEC_KEYS,
  OPTION_KEYS,
  PROVIDER_KEY,
  type Props,
} from "../inputs/props";
import { optionsOf, type WorkloadOptions } from "../inputs/options";

/**
 * A workload resource's property bag (see `inputs/props.ts`), parsed once when a provider method starts
 * and written back once when it returns. Every key of the flat bag belongs to exactly one part,
 * so `writeWorkload(parseWorkload(bag))` gives back the same keys and values: the stored state
 * format is the flat bag's, whatever version wrote it. `connectionUri` is the one exception that
 * proves the rule: it is derived (status, type, engine, username), so it is written, never read.
 *
 * Values are kept as the bag holds them (at preview one may be the engine's unknown marker), and
 * typed as they are once `check` passed: the provider methods that read them run after it.
 */
export interface WorkloadModel {
  readonly identity: WorkloadIdentity;
  /** Connection settings as written; `workspace` is also part of the identity (a new one replaces). */
  readonly connection: ConnectionArgs;
  /** The spec fields as written (a null one means not set; `specFields` leaves it out). */
  readonly spec: Readonly<Props>;
  /**
   * The login as stored: `{username?, digest}` once sealed, `{username?, password}` in inputs
   * `check` did not seal and in a state written by 0.1.0 (see credentials/digest.ts).
   */
  readonly credentials: Login | undefined;
  /** The option keys as written (`restartTrigger` and `customTimeouts` included): what the writer puts back. */
  readonly settings: Readonly<Props>;
  /** The options of `settings`, defaults merged. */
  readonly options: WorkloadOptions;
  /** What the service reported last; undefined in inputs. */
  readonly status: WorkloadStatus | undefined;
  /** Written by `read` only (see `restartsOutsidePulumi` in workloads/recorded-status.ts). */
  readonly restartsOutsidePulumi: unknown;
  /** `__provider`: the engine's, carried through untouched. */
  readonly provider: unknown;
}

interface WorkloadIdentity {
  readonly workloadId: string;
  readonly type: WorkloadType;
}

export type ConnectionArgs = Readonly<Partial<Record<ConnectionField, unknown>>>;

/** What `/status` reports and the outputs record, in output order: every output key but the derived `connectionUri`. */
const STATUS_KEYS = WORKLOAD_RULES.statusKeys;

const NOT_SPEC = new Set<string>(NOT_SPEC_KEYS);

function pick(bag: Props, keys: readonly string[]): Props {
  const out: Props = {};
  for (const k of keys) if (bag[k] !== undefined) out[k] = bag[k];
  return out;
}

/** The status the outputs of `bag` record, or undefined when it records none (inputs). */
function recordedStatus(bag: Props): WorkloadStatus | undefined {
  return typeof bag.phase === "string" ? (pick(bag, STATUS_KEYS) as WorkloadStatus) : undefined;
}

/** The options of `settings` for a workload of `spec` (`waitForAdminConsole` needs the spec's `adminConsole`). */
function optionsFor(settings: Props, spec: Props): WorkloadOptions {
  return optionsOf({ ...settings, adminConsole: spec.adminConsole });
}

export function parseWorkload(bag: Props): WorkloadModel {
  const spec: Props = {};
  for (const [k, v] of Object.entries(bag)) if (!NOT_SPEC.has(k) && v !== undefined) spec[k] = v;
  const settings = pick(bag, OPTION_KEYS);
  return {
    identity: { workloadId: bag.workloadId as string, type: bag.type as WorkloadType },
    connection: pick(bag, CONNECTION_KEYS),
    spec,
    credentials: bag.credentials as Login | undefined,
    settings,
    options: optionsFor(settings, spec),
    status: recordedStatus(bag),
    restartsOutsidePulumi: bag[DRIFT_KEY],
    provider: bag[PROVIDER_KEY],
  };
}

/** The default login of a database (contract: storage username defaults to `app`). */
const DEFAULT_DB_USER = "app";

/**
 * How to connect to a database, without the password: `postgresql://app@<endpoint>/postgres?sslmode=require`
 * or `rediss://app@<endpoint>` (the exposed endpoint is TLS with SNI routing). Undefined when the
 * database has no endpoint (not exposed) or is not a database.
 */
function connectionUriOf(m: WorkloadModel): string | undefined {
  const endpoint = m.status?.endpoint;
  if (m.identity.type !== "storage" || !endpoint) return undefined;
  const username = loginOf(m.credentials)?.username;
  const user = encodeURIComponent(typeof username === "string" && username !== "" ? username : DEFAULT_DB_USER);
  if (m.spec.engine === "postgres") return `postgresql://${user}@${endpoint}/postgres?sslmode=require`;
  if (m.spec.engine === "redis") return `rediss://${user}@${endpoint}`;
  return undefined;
}

/** The flat bag of `m`: the inverse of `parseWorkload`. A part left undefined writes no key. */
export function writeWorkload(m: WorkloadModel): Props {
  const status: Props = m.status === undefined ? {} : pick(m.status, STATUS_KEYS);
  const uri = connectionUriOf(m);
  if (uri !== undefined) status.connectionUri = uri;
  const bag: Props = {
    ...m.connection,
    ...pick(m.identity as unknown as Props, IDENTITY_KEYS),
    ...m.spec,
    credentials: m.credentials,
    ...m.settings,
    ...status,
    [DRIFT_KEY]: m.restartsOutsidePulumi,
    [PROVIDER_KEY]: m.provider,
  };
  for (const k of Object.keys(bag)) if (bag[k] === undefined) delete bag[k];
  return bag;
}

/** The spec fields that are set (neither undefined nor null): what is sent and compared. */
export function specFields(m: WorkloadModel): Props {
  const set: Props = {};
  for (const [k, v] of Object.entries(m.spec)) if (v !== null) set[k] = v;
  return set;
}

/** `m` of another type and spec (what `read` finds live); its options follow the spec's `adminConsole`. */
export function withSpec(m: WorkloadModel, type: WorkloadType, spec: Props): WorkloadModel {
  return { ...m, identity: { ...m.identity, type }, spec, options: optionsFor(m.settings, spec) };
}

/** `vm-ubuntu web` */
export function describeWorkload(identity: WorkloadIdentity): string {
  return `${String(identity.type ?? "workload")} ${String(identity.workloadId)}`;
}
