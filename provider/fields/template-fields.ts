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
  config: {
    role: "spec",
    change: "replace",
    quiet: true,
    doc: "the blueprint",
    detail:
      "The kind's spec under its spec key, `vm` for the three VM kinds, else the kind itself (e.g. " +
      "`{browser: {aiAgent: {enabled: true}}}`). At most 64 KB serialized. No passwords: the service strips them, so " +
      "they are refused at preview; credentials belong to the workload.",
  },
  ...CONNECTION_FIELDS,
  adoptId: {
    role: "option",
    change: "local",
    doc: "take over the saved template with this id",
    detail:
      "The id (`tpl_<hex>`) of an existing template to take over instead of creating one: the first `pulumi up` " +
      "reads it and fails unless `name`, `description`, `kind` and `config` equal the saved ones (templates cannot " +
      "be updated). `pulumi-wws import` writes it for you.",
  },
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
