import { CONNECTION_SETTING_NAMES } from "../../../sdk";
import { keysWithRole } from "../../fields/declaration";
import { WORKLOAD_FIELDS, type BooleanOption } from "../../fields/workload-fields";
import { WORKLOAD_RULES } from "../../fields/workload-rules";
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
/**
 * The resource's URN, sent by the resource class so that the provider can name the resource (the
 * dynamic provider host passes `check` no URN). `check` takes it out of the inputs: never in state.
 */
export const RESOURCE_URN_KEY = "__urn";
/**
 * The digest of `credentials` (credentials/digest.ts), computed by the resource class as the
 * program runs, in parallel for every resource: the engine calls `check` one resource at a time,
 * so digests made there add up in series. `check` takes it for the credentials' digest. Never in
 * state.
 */
export const DIGEST_KEY = "__credentialsDigest";
/**
 * The resource options that replace the resource without asking `diff` (`replaceOnChanges` beyond
 * the class's own keys, `replacementTrigger`, `replaceWith`), as the class read them: `check`
 * refuses them on a database without `allowDataLoss`. Never in state.
 */
export const REPLACED_BY_KEY = "__replacedBy";
/**
 * The keys whose values the resource class filled in as `check` defaults them (inputs/class-defaults.ts):
 * `check` takes those values out and settles each itself. Never in state.
 */
export const DEFAULTED_KEY = "__defaulted";
/**
 * The `import` resource option, which a class takes out of the options the engine sees (the
 * dynamic provider host cannot serve the engine's import) and sends here instead, for `check`
 * alone: the user's word that the workload it names is this resource's (ownership/import-option.ts).
 */
export const IMPORT_ID_KEY = "__importId";
/** The inputs the resource classes send for `check` alone: it removes them before anything is stored. */
export const TRANSIENT_KEYS: readonly string[] = Object.freeze([
  RESOURCE_URN_KEY,
  DIGEST_KEY,
  REPLACED_BY_KEY,
  DEFAULTED_KEY,
  IMPORT_ID_KEY,
]);
/** Set by `pulumi.dynamic.Resource`: the serialized provider. Never ours to read or compare. */
export const PROVIDER_KEY = "__provider";

/** Every key of the bag that is not a spec field: a spec field must not use one. */
export const NOT_SPEC_KEYS: readonly string[] = Object.freeze([
  ...WORKLOAD_RULES.notSpecKeys,
  PROVIDER_KEY,
  ...TRANSIENT_KEYS,
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

export const DEFAULT_OPTIONS = Object.freeze({
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
