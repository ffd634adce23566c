import type { WorkloadType } from "../../sdk";
import {
  keysWithRole,
  propertyKeys,
  replaces,
  type ChangeEffect,
  type FieldTable,
  type OptionValue,
} from "./declaration";
import { TYPE_CHANGES, WORKLOAD_FIELDS } from "./workload-fields";

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
  /** Arguments wrapped as Pulumi secrets on the way in. */
  readonly secretKeys: readonly string[];
  /** The options `check` validates, by value type. */
  readonly optionValues: Readonly<Record<string, OptionValue>>;
  /** The boolean options' defaults. */
  readonly defaults: Readonly<Record<string, boolean>>;
  /** What a change of `key` of a workload of `type` does; a spec field (not declared) is an update. */
  changeOf(type: unknown, key: string): ChangeEffect;
  /** The keys whose change replaces a workload of `type`: its class's `replaceOnChanges`. */
  replaceOnChanges(type: unknown): string[];
}

/** The rules of `fields`, with `typeChanges` overriding a field's change per type. */
export function workloadRules(
  fields: FieldTable,
  typeChanges: Readonly<Partial<Record<WorkloadType, Readonly<Record<string, ChangeEffect>>>>> = {},
): WorkloadRules {
  const outputKeys = keysWithRole(fields, "output");
  const options = keysWithRole(fields, "option");
  const changeOf = (type: unknown, key: string): ChangeEffect =>
    typeChanges[type as WorkloadType]?.[key] ?? fields[key]?.change ?? "update";
  const declaredAndTyped = (type: unknown): string[] => [
    ...Object.keys(fields),
    ...Object.keys(typeChanges[type as WorkloadType] ?? {}),
  ];
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
    secretKeys: Object.keys(fields).filter((k) => fields[k].secret),
    optionValues: Object.fromEntries(options.flatMap((k) => (fields[k].value ? [[k, fields[k].value]] : []))),
    defaults: Object.fromEntries(
      options.flatMap((k) => (typeof fields[k].default === "boolean" ? [[k, fields[k].default]] : [])),
    ),
    changeOf,
    replaceOnChanges: (type) => [...new Set(declaredAndTyped(type))].filter((k) => replaces(changeOf(type, k))),
  };
}

/** The rules of every workload resource. */
export const WORKLOAD_RULES = workloadRules(WORKLOAD_FIELDS, TYPE_CHANGES);
