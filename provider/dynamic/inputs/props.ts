import { CONNECTION_SETTING_NAMES } from "../../../sdk";
import { keysWithRole } from "../../fields/declaration";
import { WORKLOAD_FIELDS, type BooleanOption } from "../../fields/workload-fields";
import { WORKLOAD_RULES } from "../../fields/workload-rules";
import { ENVELOPE_KEY } from "./envelope";
import { DEFAULT_TIMEOUT_SECONDS, timeoutMsOf, type TimeoutOperation } from "./timeouts";

/**
 * The property bag of a workload as the dynamic provider sees it (inputs after `check`, and
 * outputs in state): flat, so that a failure or a diff names the field the user wrote. Its keys
 * are the fields of provider/fields/workload-fields.ts (identity, connection, credentials, options,
 * drift, outputs) and the spec fields of the type's create body (every other key); after `check`,
 * and in state, the password of `credentials` is replaced by a digest (credentials/digest.ts).
 * Past `check` and `diff`, each method parses it into a `WorkloadModel` (workloads/model.ts) and
 * writes that back into the same keys.
 */
export type Props = Record<string, unknown>;

export const IDENTITY_KEYS = WORKLOAD_RULES.identityKeys;
/** The connection settings, in the order messages name them (the SDK's list; the declaration's, by test). */
export const CONNECTION_KEYS = CONNECTION_SETTING_NAMES;
export const OPTION_KEYS = WORKLOAD_RULES.optionKeys;
export const OUTPUT_KEYS = WORKLOAD_RULES.outputKeys;
/** Written by `read` only: restarts the stack did not ask for (see `restartsOutsidePulumi`). */
export const DRIFT_KEY = keysWithRole(WORKLOAD_FIELDS, "drift")[0];
/** Set by `pulumi.dynamic.Resource`: the serialized provider. Never ours to read or compare. */
export const PROVIDER_KEY = "__provider";

/** Every key of the bag that is not a spec field: a spec field must not use one. */
export const NOT_SPEC_KEYS: readonly string[] = Object.freeze([
  ...WORKLOAD_RULES.notSpecKeys,
  PROVIDER_KEY,
  ENVELOPE_KEY,
]);

/** The keys a user sets (everything but outputs and `__provider`). */
export function inputKeys(props: Props): string[] {
  return Object.keys(props).filter((k) => k !== PROVIDER_KEY && !(OUTPUT_KEYS as readonly string[]).includes(k));
}

/** `props` without the outputs: what the next diff compares against. */
export function inputsOf(props: Props): Props {
  const out: Props = {};
  for (const k of inputKeys(props)) out[k] = props[k];
  return out;
}

const DEFAULT_OPTIONS = Object.freeze({
  ...(WORKLOAD_RULES.defaults as Record<BooleanOption, boolean>),
  /** Also the default of each `customTimeouts` operation (see `inputs/timeouts.ts`). */
  readyTimeoutSeconds: DEFAULT_TIMEOUT_SECONDS, // 10 min
});

export interface WorkloadOptions {
  waitForReady: boolean;
  /** How long each wait may take: readiness after create and after update, the 404 after delete. */
  timeoutMs: Record<TimeoutOperation, number>;
  waitForAdminConsole: boolean;
  waitForDeletion: boolean;
  adopt: boolean;
  /** A database may be replaced (deleted, its data lost) by a change: the user said yes. */
  allowDataLoss: boolean;
}

/** The options of `props`, defaults merged in one place. */
export function optionsOf(props: Props): WorkloadOptions {
  const bool = (v: unknown, d: boolean): boolean => (typeof v === "boolean" ? v : d);
  return {
    waitForReady: bool(props.waitForReady, DEFAULT_OPTIONS.waitForReady),
    timeoutMs: {
      create: timeoutMsOf(props, "create"),
      update: timeoutMsOf(props, "update"),
      delete: timeoutMsOf(props, "delete"),
    },
    waitForDeletion: bool(props.waitForDeletion, DEFAULT_OPTIONS.waitForDeletion),
    // Only a database with an admin console has one to wait for.
    waitForAdminConsole:
      bool(props.waitForAdminConsole, DEFAULT_OPTIONS.waitForAdminConsole) && props.adminConsole === true,
    adopt: bool(props.adopt, DEFAULT_OPTIONS.adopt),
    allowDataLoss: bool(props.allowDataLoss, DEFAULT_OPTIONS.allowDataLoss),
  };
}
