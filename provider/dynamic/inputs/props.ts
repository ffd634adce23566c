import { CONNECTION_SETTING_NAMES } from "../../../sdk";
import { keysWithRole } from "../../fields/declaration";
import { WORKLOAD_FIELDS } from "../../fields/workload-fields";
import { WORKLOAD_RULES } from "../../fields/workload-rules";

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
/** Set by the resource classes: what they hand `check` beside the inputs (inputs/envelope.ts); never stored. */
export const ENVELOPE_KEY = "__wws";

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
