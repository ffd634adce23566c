import { CREATE_BODY, TemplateCreate, type WorkloadType } from "../../sdk";
import {
  CONNECTION_FIELDS,
  replaces,
  type ConditionalChange,
  type FieldDeclaration,
  type FieldTable,
} from "./declaration";
import { changeOf, jsonSchemaOf, typeOf, type Schema } from "./field-words";
import { SPEC_FIELD_DOCS } from "./spec-docs";
import { TEMPLATE_FIELDS } from "./template-fields";
import { SECRET_SPEC_FIELDS, SPEC_FIELD_RULES, WORKLOAD_FIELDS } from "./workload-fields";

/**
 * The resource classes' argument interfaces (provider/resources/args.ts), with their doc comments,
 * written from the field declarations and the SDK's create-body schemas: a field's type, allowed
 * values, what a change does and whether it is secret are said where they are declared, once, and
 * an editor shows them on hover. `npm run docs:fields` writes the file;
 * test/provider/fields/args.test.ts fails when it is stale.
 */

interface Member {
  key: string;
  optional: boolean;
  type: string;
  /** The doc comment's lines: its text, then its tags. */
  doc: string[];
}

interface Declared {
  name: string;
  doc: string;
  extends?: string[];
  members: Member[];
}

/** The nested objects with a name of their own (public since 0.1.0), by `<type> <path>` or path. */
const NAMED: Readonly<Record<string, string>> = {
  credentials: "CredentialsArgs",
  "vm-ubuntu ports[]": "VmPortArgs",
  "vm-ubuntu placement": "PlacementArgs",
  "vm-ubuntu aiDaemon": "AiDaemonArgs",
  "pod ports[]": "PodPortArgs",
  "pod source": "PodSourceArgs",
  "storage backup": "BackupArgs",
};

/** The workload classes of one create body each, in the order the file declares them. */
const CLASSES: ReadonlyArray<{ name: string; type: WorkloadType; doc: string }> = [
  { name: "VirtualMachine", type: "vm-ubuntu", doc: "The arguments of a `VirtualMachine`." },
  { name: "Pod", type: "pod", doc: "The arguments of a `Pod`." },
  { name: "Browser", type: "browser", doc: "The arguments of a `Browser`." },
  { name: "Controller", type: "controller", doc: "The arguments of a `Controller`." },
  { name: "Database", type: "storage", doc: "The arguments of a `Database`." },
];

const sentence = (text: string): string => {
  const t = text.charAt(0).toUpperCase() + text.slice(1);
  return /[.!?]$/.test(t) ? t : `${t}.`;
};

/** A type's words worth saying beside the TypeScript type (not "text" or "object", which it says). */
function typeWords(s: Schema): string | undefined {
  // "CPU: millicores …": the phrase already names it.
  const words = typeOf(s).replace(/^CPU: /, "");
  return /^(text|text, not empty|object|`true` or `false`|any value|list|number|whole number)$/.test(words)
    ? undefined
    : words;
}

/** What a change of a field does, when it does more than an update or a record: a replacement. */
function changeWords(decl: Pick<FieldDeclaration, "change" | "changeIf"> | undefined, type?: string): string[] {
  const rules = (decl?.changeIf ?? []).filter((r) => type === undefined || !r.types || r.types.includes(type));
  if (!replaces(decl?.change) && !rules.some((r) => replaces(r.effect))) return [];
  return [`A change ${changeOf(decl, type)}.`];
}

/** `@default` of a declared field. */
const defaultTag = (d: FieldDeclaration): string[] =>
  d.default !== undefined ? [`@default ${d.default}`] : d.defaultDoc !== undefined ? [`@default ${d.defaultDoc}`] : [];

const wrap = (type: string): string => `pulumi.Input<${type}>`;

/** The TypeScript type of a schema, naming (and declaring in `named`) the objects NAMED names. */
function tsType(s: Schema, type: string, path: string, named: Map<string, Declared>): string {
  if (s.enum) return s.enum.map((v) => JSON.stringify(v)).join(" | ");
  if (s.anyOf?.every((a) => a.const !== undefined)) return s.anyOf.map((a) => JSON.stringify(a.const)).join(" | ");
  if (s.type === "integer" || s.type === "number") return "number";
  if (s.type === "string" || s.type === "boolean") return s.type;
  if (s.type === "array" && s.items) return `${wrap(tsType(s.items, type, `${path}[]`, named))}[]`;
  if (s.type !== "object") return "unknown";
  if (!s.properties) return "Record<string, unknown>";
  const members = specMembers(s, type, `${path}.`, named);
  const name = NAMED[`${type} ${path}`] ?? NAMED[path];
  if (name === undefined) return `{ ${members.map((m) => `${m.key}${m.optional ? "?" : ""}: ${m.type}`).join("; ")} }`;
  const previous = named.get(name);
  // One interface for the same object in two bodies (a VM's and a database's `credentials`).
  if (previous && JSON.stringify(previous.members) !== JSON.stringify(members))
    throw new Error(`${name}: ${type}'s ${path} differs from another body's`);
  if (previous) return name;
  const item = path.endsWith("[]") ? ` An item of \`${path.slice(0, -2)}\`.` : "";
  const doc = name === "CredentialsArgs" ? CREDENTIALS_DOC : `${sentence(phraseOf(type, path))}${item}`;
  named.set(name, { name, doc, members });
  return name;
}

const CREDENTIALS_DOC = "A login. Write-only: set on create, stored by the service as a secret, never returned.";

function phraseOf(type: string, path: string): string {
  const phrase = SPEC_FIELD_DOCS[`${type} ${path}`] ?? SPEC_FIELD_DOCS[path.replace(/\[\]$/, "")];
  if (phrase === undefined) throw new Error(`provider/fields/spec-docs.ts: no phrase for ${type}'s ${path}`);
  return phrase;
}

/** The members of a body's object: its spec fields, each with the declarations' words at the top level. */
function specMembers(s: Schema, type: string, prefix: string, named: Map<string, Declared>): Member[] {
  return Object.entries(s.properties ?? {})
    .filter(([key]) => !(prefix === "" && key === "id"))
    .map(([key, child]) => {
      const path = `${prefix}${key}`;
      const declared = prefix === "" ? (WORKLOAD_FIELDS as FieldTable)[key] : undefined;
      const rules = (SPEC_FIELD_RULES as Record<string, { changeIf: readonly ConditionalChange[] }>)[key];
      const secret = prefix === "" ? (SECRET_SPEC_FIELDS as Record<string, string>)[key] : undefined;
      const words = typeWords(child);
      const text = declared ? sentence(declared.doc) : `${phraseOf(type, path)}${words ? `: ${words}` : ""}.`;
      const doc = [
        [
          text,
          ...(declared?.detail ? [declared.detail] : []),
          ...(prefix === ""
            ? changeWords(
                { change: declared?.change ?? "update", changeIf: declared?.changeIf ?? rules?.changeIf },
                type,
              )
            : []),
          ...(secret ? [`A Pulumi secret: ${secret}.`] : []),
        ].join(" "),
      ];
      const ts = tsType(child, type, path, named);
      return { key, optional: !s.required?.includes(key), type: wrap(ts), doc };
    });
}

const OPTION_TYPE: Readonly<Record<string, string>> = {
  boolean: "boolean",
  seconds: "number",
  "restart-trigger": "string | number",
};

/** A declared argument (identity, connection, option): its doc, detail, change and default. */
function declaredMember(key: string, d: FieldDeclaration, optional = true): Member {
  // A connection's workspace is also a `Workspace`, which carries the other two.
  const type = key === "workspace" ? "pulumi.Input<string> | Workspace" : wrap(OPTION_TYPE[d.value ?? ""] ?? "string");
  // The connection is every class's: a workload's replacement deletes first, a template's creates first.
  const change =
    d.role === "connection" && replaces(d.change) ? ["Changing it replaces the resource."] : changeWords(d);
  const text = [sentence(d.doc), ...(d.detail ? [d.detail] : []), ...change].join(" ");
  return { key, optional, type, doc: [text, ...defaultTag(d)] };
}

/** The declared arguments of `fields` with one of `roles`, for workloads of `type` (undefined: every type's). */
function declaredMembers(fields: FieldTable, roles: string[], only?: (d: FieldDeclaration) => boolean): Member[] {
  return Object.entries(fields)
    .filter(([, d]) => roles.includes(d.role) && d.argument !== false && (only ? only(d) : d.onlyFor === undefined))
    .map(([key, d]) => declaredMember(key, d));
}

const forType = (type: string) => (d: FieldDeclaration) => d.onlyFor?.includes(type) === true;

function workloadArgs(): Declared[] {
  const named = new Map<string, Declared>();
  const vmOs = Object.keys(CREATE_BODY).filter((t) => t.startsWith("vm-"));
  const classes = CLASSES.map(({ name, type, doc }): Declared => {
    const own: Member[] =
      name === "VirtualMachine"
        ? [
            {
              key: "os",
              optional: false,
              type: wrap("VmOs"),
              doc: [
                `The image: ${vmOs.map((t) => `\`${t.slice(3)}\` → type \`${t}\``).join(", ")}. ${changeWords(WORKLOAD_FIELDS.type)}`,
              ],
            },
          ]
        : [];
    const members = [
      ...own,
      ...specMembers(jsonSchemaOf(CREATE_BODY[type]), type, "", named),
      ...declaredMembers(WORKLOAD_FIELDS, ["option"], forType(type)),
    ];
    return { name: `${name}Args`, doc, extends: ["WorkloadCommonArgs"], members };
  });
  const credentials = WORKLOAD_FIELDS.credentials as FieldDeclaration;
  const workload: Declared = {
    name: "WorkloadArgs",
    doc: "The arguments of a `Workload`: any type by its `kind`, its spec fields in `spec`.",
    extends: ["WorkloadCommonArgs"],
    members: [
      {
        key: "kind",
        optional: false,
        type: wrap("WorkloadType"),
        doc: [`The workload type. ${changeWords(WORKLOAD_FIELDS.type)}`],
      },
      {
        key: "spec",
        optional: true,
        type: "Record<string, pulumi.Input<unknown>>",
        doc: [
          "The fields of the type's create body other than `id` and `credentials` (service spec 2.1), as the class of " +
            'that type takes them, e.g. `{cpus: 2, memory: "4Gi"}` for a VM. Each is checked at preview against the type\'s schema.',
        ],
      },
      { ...declaredMember("credentials", credentials), type: wrap("CredentialsArgs") },
      ...declaredMembers(WORKLOAD_FIELDS, ["option"], (d) => d.onlyFor !== undefined),
    ],
  };
  return [...named.values(), ...classes, workload];
}

/** The VM images, each the type `vm-<os>`. */
function vmOsType(): string {
  const vmOs = Object.keys(CREATE_BODY).filter((t) => t.startsWith("vm-"));
  return `${docBlock(["The VM images: each is the type `vm-<os>`."], "")}export type VmOs = ${vmOs.map((t) => JSON.stringify(t.slice(3))).join(" | ")};
`;
}

function commonArgs(): Declared[] {
  return [
    {
      name: "ConnectionArgs",
      doc: "Where and how to reach the service. Each setting: this argument → stack config → environment.",
      members: declaredMembers(CONNECTION_FIELDS, ["connection"]),
    },
    {
      name: "WaitArgs",
      doc: "How `pulumi up` waits, restarts and adopts. None of these is sent to the service.",
      members: declaredMembers(WORKLOAD_FIELDS, ["identity", "option"]),
    },
    {
      name: "WorkloadCommonArgs",
      doc: "Arguments every workload resource takes.",
      extends: ["ConnectionArgs", "WaitArgs"],
      members: [],
    },
  ];
}

function templateArgs(): Declared {
  const schema = jsonSchemaOf(TemplateCreate);
  const table = TEMPLATE_FIELDS as FieldTable;
  const spec = Object.entries(schema.properties ?? {}).map(([key, s]): Member => {
    const d = table[key];
    const words = typeWords(s);
    const text = [`${sentence(d.doc).slice(0, -1)}${words ? `: ${words}` : ""}.`, ...(d.detail ? [d.detail] : [])];
    return {
      key,
      optional: !schema.required?.includes(key),
      type: wrap(tsType(s, "template", key, new Map())),
      doc: [[...text, ...changeWords(d)].join(" ")],
    };
  });
  return {
    name: "TemplateArgs",
    doc: "The arguments of a `Template`.",
    extends: ["ConnectionArgs"],
    members: [...spec, ...declaredMembers(table, ["option"])],
  };
}

const docBlock = (lines: string[], indent: string): string =>
  `${indent}/**\n${lines.map((l) => `${indent} * ${l}`).join("\n")}\n${indent} */\n`;

function emit(d: Declared): string {
  const head = `export interface ${d.name}${d.extends ? ` extends ${d.extends.join(", ")}` : ""} {`;
  const members = d.members.map((m) => `${docBlock(m.doc, "  ")}  ${m.key}${m.optional ? "?" : ""}: ${m.type};`);
  return `${docBlock([d.doc], "")}${head}${members.length ? `\n${members.join("\n")}\n` : ""}}\n`;
}

/** The text of provider/resources/args.ts, before prettier. */
export function argsSource(): string {
  const header = [
    "// Generated by `npm run docs:fields` from the field declarations (provider/fields/) and the SDK's",
    "// schemas (sdk/schemas/): do not edit. test/provider/fields/args.test.ts fails when it is stale.",
    'import type * as pulumi from "@pulumi/pulumi";',
    'import type { WorkloadType } from "../../sdk";',
    'import type { Workspace } from "./workspace";',
  ].join("\n");
  return [header, ...[...commonArgs(), ...workloadArgs(), templateArgs()].map(emit), vmOsType()].join("\n\n");
}
