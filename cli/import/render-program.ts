import {
  createBodyFields,
  type LiveWorkload,
  type LiveWorkspace,
  type SavedTemplate,
  type WorkloadType,
} from "../../sdk";
import { WORKLOAD_FIELDS } from "../../provider/fields/workload-fields";
import { literal } from "./literal";

/** The class that declares each type (`provider/resources/*`), and the arguments it adds. */
const CLASSES: Record<string, { className: string; extra?: Record<string, string> }> = {
  "vm-ubuntu": { className: "VirtualMachine", extra: { os: "ubuntu" } },
  "vm-ubuntu-desktop": { className: "VirtualMachine", extra: { os: "ubuntu-desktop" } },
  "vm-windows": { className: "VirtualMachine", extra: { os: "windows" } },
  pod: { className: "Pod" },
  browser: { className: "Browser" },
  controller: { className: "Controller" },
  storage: { className: "Database" },
};

/**
 * The spec fields a typed class takes as arguments: those of its type's create body, but the
 * fields the provider declares itself (`credentials`: the service never shows a password).
 */
function specFieldsOf(type: WorkloadType): readonly string[] {
  return createBodyFields(type).filter((k) => !(k in WORKLOAD_FIELDS));
}

/** The stack config key of a workload's password: `password-<id>`. */
export const passwordKey = (workloadId: string): string => `password-${workloadId}`;

/** Whether a declaration of `w` must carry credentials: a database's (set once), a VM's whose AI daemon is enabled (the schema asks for them with it). */
export function needsPassword(w: LiveWorkload): boolean {
  return (
    w.type === "storage" ||
    (w.type.startsWith("vm-") && (w.spec.aiDaemon as { enabled?: unknown } | undefined)?.enabled === true)
  );
}

/** Whether `w` fits its type's typed class: a spec field that class lacks falls back to `wws.Workload`. */
function fitsTyped(w: LiveWorkload): boolean {
  const typed = CLASSES[w.type];
  // A typed class exists exactly for each workload type.
  const fields = typed !== undefined ? specFieldsOf(w.type as WorkloadType) : [];
  return typed !== undefined && Object.keys(w.spec).every((k) => fields.includes(k));
}

/** The class `index.ts` declares `w` with. */
export function classNameOf(w: LiveWorkload): string {
  return fitsTyped(w) ? CLASSES[w.type].className : "Workload";
}

/** `new wws.<Class>(…)` of one workload, with the `import` resource option naming it. */
function workloadStatement(w: LiveWorkload, workspace: string): string {
  const args: Record<string, unknown> = fitsTyped(w)
    ? { ...CLASSES[w.type].extra, ...w.spec }
    : { kind: w.type, spec: w.spec };
  const lines = Object.entries(args).map(
    ([k, v]) => `  ${/^[A-Za-z_$][\w$]*$/.test(k) ? k : JSON.stringify(k)}: ${literal(v, "  ")},`,
  );
  if (needsPassword(w)) {
    // Required in the declaration (a database's, and a VM's with an AI daemon); an import sends nothing, so it is recorded, not checked.
    lines.push(
      `  credentials: { password: config.requireSecret(${JSON.stringify(passwordKey(w.id))}) }, // its current password${w.type === "storage" ? " (user app unless you add username)" : ""}`,
    );
  } else if (w.type.startsWith("vm-")) {
    lines.push(
      `  // keeps its login; to set a new one: credentials: { password: config.requireSecret(${JSON.stringify(passwordKey(w.id))}) },`,
    );
  }
  const note = w.status?.phase && w.status.phase !== "Running" ? ` // phase at import: ${w.status.phase}` : "";
  const importId = JSON.stringify(`${workspace}/${w.id}`);
  return `new wws.${classNameOf(w)}(${JSON.stringify(w.id)}, {${note}\n${lines.join("\n")}\n}, { import: ${importId} });`;
}

/** Resource names of templates: a slug of the name, made unique with the id where names repeat. */
export function templateNames(templates: SavedTemplate[]): string[] {
  const slug = (t: SavedTemplate): string =>
    t.name
      .toLowerCase()
      .replace(/[^a-z0-9]+/g, "-")
      .replace(/^-+|-+$/g, "") || "template";
  const counts = new Map<string, number>();
  for (const t of templates) counts.set(slug(t), (counts.get(slug(t)) ?? 0) + 1);
  return templates.map((t) => `template-${slug(t)}${(counts.get(slug(t)) ?? 0) > 1 ? `-${t.id.slice(4, 12)}` : ""}`);
}

function templateStatement(t: SavedTemplate, name: string): string {
  const args: Record<string, unknown> = { name: t.name, description: t.description, kind: t.kind, config: t.config };
  const lines = Object.entries(args)
    .filter(([, v]) => v !== undefined)
    .map(([k, v]) => `  ${k}: ${literal(v, "  ")},`);
  lines.push(`  adoptId: ${JSON.stringify(t.id)},`);
  return `new wws.Template(${JSON.stringify(name)}, {\n${lines.join("\n")}\n});`;
}

const plural = (n: number, word: string): string => `${n} ${word}${n === 1 ? "" : "s"}`;

/** The stack program (index.ts) declaring every workload and template of `live`. */
export function renderProgram(live: LiveWorkspace): string {
  const needsConfig = live.workloads.some(needsPassword);
  const names = templateNames(live.templates);
  return [
    "/**",
    ` * Written by \`pulumi-wws import\` from workspace ${live.workspace} (${plural(live.workloads.length, "workload")}, ${plural(live.templates.length, "template")}).`,
    " * The first `pulumi up` takes each of them over without sending anything: a workload with the",
    " * `import` resource option is recorded as it runs (it must run the declared spec); a template with",
    " * `adoptId` is taken over when every field matches (templates cannot be updated: a change makes",
    " * a new one). A `pulumi preview` after it shows no changes; the `import` options may then be",
    " * removed, as Pulumi's docs say, or kept: they change nothing once the workloads are in the stack.",
    " * `pulumi import --file import.json` records the same resources instead (see README.md).",
    " * From then on, edit this file.",
    " * The connection (wws:baseUrl, wws:workspace, wws:apiKey) comes from the stack config: see README.md.",
    " */",
    ...(needsConfig ? ['import * as pulumi from "@pulumi/pulumi";'] : []),
    'import * as wws from "pulumi-wws";',
    "",
    ...(needsConfig ? ["const config = new pulumi.Config();", ""] : []),
    "// Workloads",
    ...live.workloads.map((w) => workloadStatement(w, live.workspace)),
    "",
    "// Templates",
    ...live.templates.map((t, i) => templateStatement(t, names[i])),
    "",
  ].join("\n");
}
