import { CONNECTION_FIELDS, keysWithRole, propertyKeys, replaces, type FieldTable } from "./declaration";

/**
 * Every field of a `Template`. A template has a service-generated id and no update: a change of any
 * of its spec fields or of its workspace makes a new one (created first: the new id cannot collide).
 */
export const TEMPLATE_FIELDS = Object.freeze({
  name: { role: "spec", change: "replace", doc: "the template's name" },
  description: { role: "spec", change: "replace", doc: "what it is for" },
  kind: { role: "spec", change: "replace", doc: "the workload type it is a blueprint of" },
  // Up to 64 KB: a failure names it without printing it.
  config: { role: "spec", change: "replace", quiet: true, doc: "the blueprint" },
  ...CONNECTION_FIELDS,
  adoptId: { role: "option", change: "local", doc: "take over the saved template with this id" },
  customTimeouts: {
    role: "option",
    change: "local",
    value: "timeouts",
    argument: false,
    doc: "the `customTimeouts` resource option (create, delete), carried by the class",
  },
  templateId: { role: "output", change: "none", doc: "the service-generated id, `tpl_<hex>`" },
  createdAt: { role: "output", change: "none", doc: "when the service saved it" },
} as const satisfies FieldTable);

const table: FieldTable = TEMPLATE_FIELDS;

/** What the template provider and class derive from its field table. */
export const TEMPLATE_RULES = Object.freeze({
  /** The fields of the create body. */
  bodyKeys: keysWithRole(table, "spec"),
  outputKeys: keysWithRole(table, "output"),
  connectionKeys: keysWithRole(table, "connection"),
  /** The class's arguments. */
  argumentKeys: Object.keys(table).filter((k) => table[k].role !== "output" && table[k].argument !== false),
  /** The class's properties, kept when undefined. */
  properties: new Set(propertyKeys(table)),
  replaceOnChanges: Object.keys(table).filter((k) => replaces(table[k].change)),
  /** Arguments kept as Pulumi secrets. */
  secretKeys: Object.keys(table).filter((k) => table[k].secret),
});
