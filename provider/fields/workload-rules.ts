import {
  appliedRule,
  keysWithRole,
  propertyKeys,
  replaces,
  type ChangeEffect,
  type ConditionalChange,
  type FieldChange,
  type FieldTable,
  type OptionValue,
} from "./declaration";
import { SECRET_SPEC_FIELDS, SPEC_FIELD_RULES, WORKLOAD_FIELDS } from "./workload-fields";

/** What a change of one field does, and the conditional rule that decided it, if one did. */
interface FieldEffect {
  readonly effect: ChangeEffect;
  readonly rule?: ConditionalChange;
}

/** What the provider and the resource classes derive from a workload field table. */
export interface WorkloadRules {
  readonly fields: FieldTable;
  readonly identityKeys: readonly string[];
  readonly connectionKeys: readonly string[];
  readonly optionKeys: readonly string[];
  readonly outputKeys: readonly string[];
  /** Outputs the service reports (`/status`): every output but the derived ones. */
  readonly statusKeys: readonly string[];
  /** Every key of the bag that is not a spec field. */
  readonly notSpecKeys: readonly string[];
  /** The arguments every workload class takes besides its spec fields. */
  readonly commonArgs: readonly string[];
  /** The properties of every workload class, kept when undefined (the provider fills them in). */
  readonly properties: ReadonlySet<string>;
  /** Arguments wrapped as Pulumi secrets on the way in, and kept secret in the outputs. */
  readonly secretKeys: readonly string[];
  /** The spec fields among them (a pod's `source`): secret in `get` and the functions' results too. */
  readonly secretSpecKeys: readonly string[];
  /** The options `check` validates, by value type. */
  readonly optionValues: Readonly<Record<string, OptionValue>>;
  /** The boolean options' defaults. */
  readonly defaults: Readonly<Record<string, boolean>>;
  /** What a change of a field does, its conditional rules applied; a spec field not declared is an update. */
  effectOf(change: FieldChange): FieldEffect;
  /** The keys whose change replaces a workload of `type`: its class's `replaceOnChanges`. */
  replaceOnChanges(type: unknown): string[];
}

/** The rules of `fields`, with `specRules` giving spec fields (updates otherwise) conditional rules. */
export function workloadRules(
  fields: FieldTable,
  specRules: Readonly<Record<string, { readonly changeIf: readonly ConditionalChange[] }>> = {},
  secretSpecKeys: readonly string[] = [],
): WorkloadRules {
  const outputKeys = keysWithRole(fields, "output");
  const options = keysWithRole(fields, "option");
  const declarationOf = (key: string) => fields[key] ?? specRules[key];
  const effectOf = (change: FieldChange): FieldEffect => {
    const rule = appliedRule(declarationOf(change.key), change);
    return { effect: rule?.effect ?? fields[change.key]?.change ?? "update", rule };
  };
  // A class of one type replaces on a key whose declared change replaces, or whose rule for that type may.
  const replacesFor = (type: unknown, key: string): boolean =>
    replaces(fields[key]?.change) ||
    (declarationOf(key)?.changeIf ?? []).some((r) => replaces(r.effect) && r.types?.includes(String(type)));
  return {
    fields,
    identityKeys: keysWithRole(fields, "identity"),
    connectionKeys: keysWithRole(fields, "connection"),
    optionKeys: options,
    outputKeys,
    statusKeys: outputKeys.filter((k) => !fields[k].derived),
    notSpecKeys: Object.keys(fields),
    commonArgs: Object.keys(fields).filter((k) => fields[k].role !== "output" && fields[k].argument !== false),
    properties: new Set(propertyKeys(fields)),
    secretKeys: [...Object.keys(fields).filter((k) => fields[k].secret), ...secretSpecKeys],
    secretSpecKeys,
    optionValues: Object.fromEntries(options.flatMap((k) => (fields[k].value ? [[k, fields[k].value]] : []))),
    defaults: Object.fromEntries(
      options.flatMap((k) => (typeof fields[k].default === "boolean" ? [[k, fields[k].default]] : [])),
    ),
    effectOf,
    replaceOnChanges: (type) => [...Object.keys(fields), ...Object.keys(specRules)].filter((k) => replacesFor(type, k)),
  };
}

/** The rules of every workload resource. */
export const WORKLOAD_RULES = workloadRules(WORKLOAD_FIELDS, SPEC_FIELD_RULES, Object.keys(SECRET_SPEC_FIELDS));
