import type { RehearsalReport, ResourceRow } from "./report";

const seconds = (ms: number | undefined): string => (ms === undefined ? "-" : `${(ms / 1000).toFixed(1)} s`);

function rowLine(r: ResourceRow): string {
  const marks = [
    r.losesData ? "LOSES DATA" : "",
    r.failure === "capacity" ? "capacity refused" : "",
    r.failure === "conflict" ? "conflict" : "",
  ].filter(Boolean);
  const head = `  ${r.result.padEnd(11)} ${r.op.padEnd(8)} ${r.name} (${r.type.replace("pulumi-nodejs:dynamic/", "")}) ${seconds(r.ms)}`;
  return `${head}${marks.length > 0 ? `  [${marks.join(", ")}]` : ""}${r.error ? `\n      ${r.error.split("\n").join("\n      ")}` : ""}`;
}

/** The report as a terminal shows it. */
export function reportText(report: RehearsalReport): string {
  const lines = [`Rehearsal of stack ${report.stack || "?"} on a copy of workspace ${report.workspace || "?"}:`];
  for (const step of ["up", "destroy"] as const) {
    const rows = report.resources.filter((r) => r.step === step);
    const same = rows.filter((r) => r.op === "same");
    if (rows.length === 0) continue;
    lines.push(`${step}:`);
    for (const r of rows.filter((x) => x.op !== "same")) lines.push(rowLine(r));
    if (same.length > 0) lines.push(`  ${same.length} unchanged`);
  }
  for (const s of report.steps)
    lines.push(`step ${s.step}: ${s.ok ? "ok" : "FAILED"} in ${seconds(s.ms)}${s.detail ? ` (${s.detail})` : ""}`);
  lines.push(`Copied ${report.copied.workloads} workloads and ${report.copied.templates} templates.`);
  if (report.othersWorkloads.length > 0)
    lines.push(
      `Of them, ${report.othersWorkloads.length} ${report.othersWorkloads.length === 1 ? "is" : "are"} not this stack's (another writer's): ${report.othersWorkloads.slice(0, 10).join(", ")}${report.othersWorkloads.length > 10 ? ", …" : ""}`,
    );
  if (report.notCopied.length > 0) {
    lines.push(`Not copied:`);
    for (const n of report.notCopied) lines.push(`  - ${n.what}: ${n.why}`);
  }
  lines.push(
    `${report.summary} (rehearsed in ${seconds(report.ms)}; the real service and the stack received no write)`,
  );
  return lines.join("\n");
}
