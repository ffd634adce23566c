import { z } from "zod";
import { CREATE_BODY, CpuQuantity, Name, SizeQuantity, TemplateCreate, specKeyOf, type WorkloadType } from "../../sdk";
import type { ChangeEffect, FieldDeclaration, FieldTable, OptionValue } from "./declaration";
import { TEMPLATE_FIELDS } from "./template-fields";
import { SECRET_SPEC_FIELDS, SPEC_FIELD_RULES, WORKLOAD_FIELDS } from "./workload-fields";

/**
 * The field reference (docs/fields.md): every argument and output of every resource class, read
 * from the field declarations (provider/fields/) and the SDK's create-body schemas, so that the
 * page cannot say what the provider does not do (test/provider/fields/reference.test.ts).
 */

type Schema = {
  type?: string;
  enum?: unknown[];
  const?: unknown;
  anyOf?: Schema[];
  pattern?: string;
  minLength?: number;
  maxLength?: number;
  minimum?: number;
  maximum?: number;
  maxItems?: number;
  items?: Schema;
  properties?: Record<string, Schema>;
  required?: string[];
};

const jsonSchemaOf = (schema: z.ZodType): Schema => z.toJSONSchema(schema, { io: "input" }) as Schema;

/** The formats the schemas share, in words: looked up by the schema's own pattern, so a changed pattern shows as a pattern. */
const FORMATS = new Map<string | undefined, string>([
  [jsonSchemaOf(SizeQuantity).pattern, "a size: `<N>Mi`, `<N>Gi` or `<N>Ti` (`512Mi`, `4Gi`)"],
  [jsonSchemaOf(CpuQuantity).pattern, "CPU: millicores `<N>m` or whole cores `<N>` (`500m`, `2`)"],
  [jsonSchemaOf(Name).pattern, "a DNS label: 1-63 lower-case letters, digits and `-`, a letter or digit at each end"],
]);

const code = (v: unknown): string => `\`${typeof v === "string" ? v : JSON.stringify(v)}\``;

/** A field's type and allowed values, in words. */
function typeOf(s: Schema): string {
  if (s.enum) return `one of ${s.enum.map(code).join(", ")}`;
  if (s.anyOf?.every((a) => a.const !== undefined)) return `one of ${s.anyOf.map((a) => code(a.const)).join(", ")}`;
  if (s.type === "integer" || s.type === "number") {
    const kind = s.type === "integer" ? "whole number" : "number";
    return s.minimum !== undefined && s.maximum !== undefined ? `${kind}, ${s.minimum} to ${s.maximum}` : kind;
  }
  if (s.type === "boolean") return "`true` or `false`";
  if (s.type === "string") {
    if (s.pattern !== undefined) return FORMATS.get(s.pattern) ?? `text matching \`${s.pattern}\``;
    if (s.maxLength !== undefined) return `text, ${s.minLength ?? 0} to ${s.maxLength} characters`;
    return s.minLength ? "text, not empty" : "text";
  }
  if (s.type === "array") return `list${s.maxItems !== undefined ? ` of at most ${s.maxItems}` : ""}`;
  if (s.type === "object") return "object";
  return "any value";
}

const EFFECT: Record<ChangeEffect, string> = {
  replace: "replaces it (the new one created first)",
  "replace-delete-first": "replaces it (**deleted first**, then created again)",
  update: "update: sent, then the new generation awaited",
  restart: "a restart call, then a wait",
  local: "recorded in the state; nothing sent",
  none: "(an output)",
};

/** What a change of `key` does for a workload of `type` (or a template, without a type). */
function changeOf(decl: Pick<FieldDeclaration, "change" | "changeIf"> | undefined, type?: string): string {
  const rules = (decl?.changeIf ?? []).filter((r) => type === undefined || !r.types || r.types.includes(type));
  const base = EFFECT[decl?.change ?? "update"];
  if (rules.length === 0) return base;
  const conditional = rules.map(
    (r) =>
      `${EFFECT[r.effect]} (${r.description})${r.dataLoss ? ", refused at preview without `allowDataLoss: true`" : ""}`,
  );
  // A rule that holds whatever the values (engine's, restartTrigger's last) leaves no other case.
  const always = rules.some((r) => r.when({ key: "", olds: {}, news: {} }));
  return always ? conditional.join("; ") : [...conditional, `otherwise ${base}`].join("; ");
}

const flags = (d: FieldDeclaration | undefined): string =>
  [d?.role === "credential" ? "secret, write-only" : d?.secret ? "secret" : "", d?.quiet ? "never printed" : ""]
    .filter(Boolean)
    .join(", ");

type Row = [field: string, type: string, required: string, fallback: string, secret: string, change: string];
const HEADER = "| field | type, allowed values | required | default | secret | a change |\n|---|---|---|---|---|---|";
const table = (rows: Row[]): string => [HEADER, ...rows.map((r) => `| ${r.join(" | ")} |`)].join("\n");

/** What the declarations add to a top-level row of a schema. */
interface RowExtras {
  required?: string;
  secret?: string;
  change?: string;
}

/** The rows of a schema's fields, nested ones as `ports[].port`, with `extras` for the top-level ones. */
function schemaRows(s: Schema, prefix: string, extras: (key: string) => RowExtras): Row[] {
  return Object.entries(s.properties ?? {}).flatMap(([key, child]) => {
    const path = `${prefix}${key}`;
    const more = prefix === "" ? extras(key) : {};
    const row: Row = [
      `\`${path}\``,
      typeOf(child),
      more.required ?? (s.required?.includes(key) ? "yes" : "no"),
      "",
      more.secret ?? "",
      more.change ?? "",
    ];
    const inner = child.type === "array" ? child.items : child;
    const nested = inner?.properties ? schemaRows(inner, `${path}${child.type === "array" ? "[]" : ""}.`, extras) : [];
    return [row, ...nested];
  });
}

/** The spec fields (and credentials) of a workload type, from its create-body schema. */
function specRows(type: WorkloadType, credentialsRequired: string): Row[] {
  const rules = SPEC_FIELD_RULES as Record<string, Pick<FieldDeclaration, "changeIf">>;
  const body = jsonSchemaOf(CREATE_BODY[type]);
  delete body.properties?.id;
  return schemaRows(body, "", (key) => {
    const decl = (WORKLOAD_FIELDS as FieldTable)[key];
    const change = changeOf(
      { change: decl?.change ?? "update", changeIf: decl?.changeIf ?? rules[key]?.changeIf },
      type,
    );
    const secret = (SECRET_SPEC_FIELDS as Record<string, string>)[key] !== undefined ? "secret" : flags(decl);
    return { required: key === "credentials" ? credentialsRequired : undefined, secret, change };
  });
}

/** An option's value type, in words. */
const VALUE: Record<OptionValue | "text", string> = {
  boolean: "`true` or `false`",
  seconds: "whole number of seconds",
  "restart-trigger": "text or number",
  timeouts: "durations",
  text: "text",
};

/** The rows of declared fields with roles `roles` (every workload's, or a template's). */
function declaredRows(fields: FieldTable, roles: string[], type?: string): Row[] {
  return Object.entries(fields)
    .filter(([, d]) => roles.includes(d.role) && d.argument !== false)
    .map(([key, d]) => [
      `\`${key}\``,
      `${VALUE[d.value ?? "text"]}: ${d.doc}`,
      key === "workloadId" ? "no" : d.role === "connection" ? "yes, here or in stack config or env" : "no",
      d.default !== undefined ? code(d.default) : key === "workloadId" ? "the resource name" : "",
      flags(d),
      changeOf(d, type),
    ]);
}

const outputRows = (fields: FieldTable): string =>
  Object.entries(fields)
    .filter(([, d]) => d.role === "output")
    .map(([key, d]) => `- \`${key}\`: ${d.doc}`)
    .join("\n");

/** A valid `config` of each kind, checked against the template schema and the kind's create body by the test. */
export const CONFIG_EXAMPLES: Readonly<Record<WorkloadType, Record<string, unknown>>> = Object.freeze({
  "vm-ubuntu": { vm: { cpus: 2, memory: "4Gi", ports: [{ port: 22 }] } },
  "vm-ubuntu-desktop": { vm: { cpus: 4, memory: "8Gi" } },
  "vm-windows": { vm: { cpus: 4, memory: "8Gi", storageSize: "100Gi" } },
  pod: { pod: { image: "nginx:1.27", ports: [{ name: "http", port: 80 }] } },
  browser: { browser: { cpu: "1", memory: "2Gi" } },
  controller: { controller: { autodiscover: true } },
  storage: { storage: { engine: "postgres", storageSize: "10Gi" } },
});

/** Each kind's spec key and an example `config`. */
const configTable = (): string =>
  [
    "| kind | its spec, required | example `config` |",
    "|---|---|---|",
    ...(Object.keys(CONFIG_EXAMPLES) as WorkloadType[]).map(
      (kind) => `| ${code(kind)} | \`config.${specKeyOf(kind)}\` | \`${JSON.stringify(CONFIG_EXAMPLES[kind])}\` |`,
    ),
  ].join("\n");

/** The resource classes of workload types, in the order the page shows them. */
const CLASSES: ReadonlyArray<{ name: string; type: WorkloadType; intro: string; credentials: string }> = [
  {
    name: "VirtualMachine",
    type: "vm-ubuntu",
    intro:
      "`os` picks the type: `ubuntu` → `vm-ubuntu`, `ubuntu-desktop` → `vm-ubuntu-desktop`, `windows` → `vm-windows` (required; " +
      `a change ${EFFECT[WORKLOAD_FIELDS.type.change]}). The three take the same fields.`,
    credentials: "for a new VM (unless `adopt`)",
  },
  { name: "Pod", type: "pod", intro: "A container app: `image` or `source.repo` is required.", credentials: "no" },
  { name: "Browser", type: "browser", intro: "A headless browser.", credentials: "no" },
  { name: "Controller", type: "controller", intro: "A browser-automation controller.", credentials: "no" },
  { name: "Database", type: "storage", intro: "A managed database (type `storage`).", credentials: "yes" },
];

/** The whole page, as committed in docs/fields.md. */
export function fieldReference(): string {
  const parts = [
    "# Field reference",
    "Generated from the field declarations (`provider/fields/`) and the SDK's schemas (`sdk/schemas/`) by " +
      "`npm run docs:fields`; `test/provider/fields/reference.test.ts` fails when this page and them disagree. " +
      "Every workload class also takes the [arguments every workload takes](#every-workload). " +
      '"Secret" fields are kept as Pulumi secrets, in `get` and the functions\' results too (a secret `Output` where ' +
      "the field sits), and no message prints their value; write-only ones are sent and never read back (compared by digest). " +
      `A pod's \`source\` is secret: ${SECRET_SPEC_FIELDS.source}. ` +
      'A change marked "replaces it" shows as a replacement in `pulumi preview`.',
    ...CLASSES.map((c) => [`## ${c.name}`, c.intro, table(specRows(c.type, c.credentials))].join("\n\n")),
    [
      "## Workload",
      "Any type by its `kind` (one of " +
        Object.keys(CREATE_BODY).map(code).join(", ") +
        "; a change replaces it, deleted first), its spec fields in `spec` as the class of that type takes them " +
        "(above), `credentials` beside it, and the options of every workload.",
    ].join("\n\n"),
    [
      "## Every workload",
      "The identity, the connection (each: the argument, else the stack config `wws:<name>`, else `WWS_BASE_URL`, " +
        "`WWS_WORKSPACE`, `WWS_API_KEY`; `workspace` also takes a `Workspace`) and the options, none of them sent to the service:",
      table(declaredRows(WORKLOAD_FIELDS, ["identity", "connection", "option"])),
      "Outputs:\n\n" + outputRows(WORKLOAD_FIELDS),
    ].join("\n\n"),
    [
      "## Template",
      "A saved blueprint of a workload. Templates cannot be updated: a change of any field but the connection replaces it.",
      table([
        ...schemaRows(jsonSchemaOf(TemplateCreate), "", (key) => ({
          secret: flags((TEMPLATE_FIELDS as FieldTable)[key]),
          change: changeOf((TEMPLATE_FIELDS as FieldTable)[key]),
        })),
        ...declaredRows(TEMPLATE_FIELDS, ["connection", "option"]),
      ]),
      "`config` holds the kind's spec under one key, `vm` for the three VM kinds and the kind itself for the others " +
        "(plus nothing else); the spec takes the fields of that kind's class above. At most 64 KB serialized, " +
        "32 levels deep, and no password anywhere (the service strips it; credentials belong to the workload). " +
        "Preview checks each field the spec holds as the kind's class checks it, with the same messages " +
        '(`config.pod.memory (set to "512MB"): must be a size such as 512Mi, 4Gi or 1Ti`), a misspelt field ' +
        "included; a blueprint may leave out any field, one the class requires too. A `browser` spec may also " +
        "hold `aiAgent` (`enabled`, `provider`, `model`).",
      configTable(),
      "Outputs:\n\n" + outputRows(TEMPLATE_FIELDS),
    ].join("\n\n"),
  ];
  return `${parts.join("\n\n")}\n`;
}
