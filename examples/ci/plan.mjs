#!/usr/bin/env node
// What the CI workflows run on the JSON of one `pulumi preview --json` (no dependency but Node):
//
//   node plan.mjs summary preview.json          Markdown: every resource that would change, how
//                                               (create, update, replace, delete) and, per
//                                               property, the kind of change; for the job summary
//                                               and the pull request comment.
//   node plan.mjs gate-databases preview.json   Exits 1, naming each one, when the plan would
//                                               replace or delete a Database (its data goes with
//                                               it); 0 otherwise.
//   node plan.mjs count preview.json            The number of resources that would change (the
//                                               drift check: 0 when what runs is what the state says).
//
// A preview that failed (an error diagnostic, no steps) is not a plan: every command says so and
// exits 2, so that no gate passes and no drift report goes out on a broken run.
//
// A replacement shows in the JSON as several steps of one resource (create-replacement, replace,
// delete-replaced); each resource is listed once, under its strongest change.
import { readFileSync, realpathSync } from "node:fs";
import { pathToFileURL } from "node:url";

/** The change a resource's steps amount to, strongest first. */
const CHANGES = [
  ["replace", ["replace", "create-replacement", "delete-replaced", "import-replacement"]],
  ["delete", ["delete", "discard", "read-discard"]],
  ["create", ["create", "import"]],
  ["update", ["update"]],
];

/** The order the plan lists changes in. */
const ORDER = ["create", "update", "replace", "delete"];

/** `urn:pulumi:prod::team::pulumi-nodejs:dynamic/wws:Database::db` → `{type: "Database", name: "db"}`. */
function resourceOf(urn) {
  const parts = urn.split("::");
  const type = parts[parts.length - 2] ?? "";
  return { type: type.slice(type.lastIndexOf(":") + 1), name: parts[parts.length - 1] };
}

/** One row per resource that changes: `{change, type, name, properties: ["cpus: update", …]}`. */
export function planOf(preview) {
  const byUrn = new Map();
  for (const step of preview.steps ?? []) {
    if (step.op === "same" || step.urn.includes("::pulumi:pulumi:Stack::")) continue;
    const entry = byUrn.get(step.urn) ?? { ops: new Set(), properties: new Map() };
    entry.ops.add(step.op);
    for (const [path, diff] of Object.entries(step.detailedDiff ?? {})) entry.properties.set(path, diff.kind);
    // A provider that gives no detailed diff still names the changed keys.
    for (const key of step.diffReasons ?? []) if (!entry.properties.has(key)) entry.properties.set(key, "changed");
    byUrn.set(step.urn, entry);
  }
  const rows = [];
  for (const [urn, entry] of byUrn) {
    const found = CHANGES.find(([, ops]) => ops.some((op) => entry.ops.has(op)));
    if (!found) continue; // refresh, read: not a change of the stack's resources
    const properties = [...entry.properties].sort(([a], [b]) => a.localeCompare(b)).map(([p, k]) => `${p}: ${k}`);
    rows.push({ change: found[0], ...resourceOf(urn), properties });
  }
  return rows.sort((a, b) => ORDER.indexOf(a.change) - ORDER.indexOf(b.change) || a.name.localeCompare(b.name));
}

/** The preview's error messages: a failed preview has no plan to show. */
export const errorsOf = (preview) =>
  (preview.diagnostics ?? []).filter((d) => d.severity === "error").map((d) => d.message.trim());

export function summaryOf(rows) {
  if (rows.length === 0) return "### pulumi preview: no changes\n";
  const counts = ORDER.map((change) => [change, rows.filter((r) => r.change === change).length])
    .filter(([, n]) => n > 0)
    .map(([change, n]) => `${n} to ${change}`);
  const lines = [`### pulumi preview: ${counts.join(", ")}`, "", "| change | resource | properties |", "|---|---|---|"];
  for (const r of rows) lines.push(`| ${r.change} | ${r.type} ${r.name} | ${r.properties.join(", ")} |`);
  return `${lines.join("\n")}\n`;
}

/** The rows a database gate refuses: a Database replaced or deleted. */
export const lostDatabases = (rows) =>
  rows.filter((r) => r.type === "Database" && (r.change === "replace" || r.change === "delete"));

function main([command, file]) {
  if (!["summary", "gate-databases", "count"].includes(command) || !file) {
    process.stderr.write("usage: node plan.mjs summary|gate-databases|count <preview.json>\n");
    return 2;
  }
  const preview = JSON.parse(readFileSync(file, "utf8"));
  const errors = errorsOf(preview);
  if (errors.length > 0) {
    process.stdout.write(
      `### pulumi preview failed\n\n${errors.map((e) => `    ${e.replace(/\n/g, "\n    ")}`).join("\n\n")}\n`,
    );
    return 2;
  }
  const rows = planOf(preview);
  if (command === "summary") process.stdout.write(summaryOf(rows));
  if (command === "count") process.stdout.write(`${rows.length}\n`);
  if (command !== "gate-databases") return 0;
  const lost = lostDatabases(rows);
  for (const r of lost)
    process.stdout.write(
      `::error::Database ${r.name} would be ${r.change}d: its data would be lost (${r.properties.join(", ") || "removed from the program"})\n`,
    );
  if (lost.length === 0) process.stdout.write("no Database is replaced or deleted\n");
  return lost.length === 0 ? 0 : 1;
}

if (import.meta.url === pathToFileURL(realpathSync(process.argv[1])).href)
  process.exitCode = main(process.argv.slice(2));
