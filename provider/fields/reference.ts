import { CREATE_BODY, TemplateCreate, specKeyOf, type WorkloadType } from "../../sdk";
import type { FieldDeclaration, FieldTable } from "./declaration";
import { EFFECT, VALUE, changeOf, code, jsonSchemaOf, typeOf, type Schema } from "./field-words";
import { TEMPLATE_FIELDS } from "./template-fields";
import { SECRET_SPEC_FIELDS, SPEC_FIELD_RULES, WORKLOAD_FIELDS } from "./workload-fields";

/**
 * The field reference (docs/fields.md): every argument and output of every resource class, read
 * from the field declarations (provider/fields/) and the SDK's create-body schemas, so that the
 * page cannot say what the provider does not do (test/provider/fields/reference.test.ts).
 */

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
