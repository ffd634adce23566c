import type { RehearsalReport, ResourceRow } from "./report";

const seconds = (ms: number | undefined): string => (ms === undefined ? "" : `${(ms / 1000).toFixed(1)} s`);
/** A table cell: no pipe or line break may end it early. */
const cell = (s: string): string => s.replace(/\|/g, "\\|").replace(/\r?\n/g, "<br>");
const ICON: Record<RehearsalReport["verdict"], string> = {
  "would work": "✅",
  "would fail": "❌",
  "could not rehearse": "⚠️",
};

function notes(r: ResourceRow): string {
  return [
    r.losesData ? "**loses data**" : "",
    r.failure === "capacity" ? "capacity refused" : "",
    r.failure === "conflict" ? "conflict" : "",
    r.error ? `\`${cell(r.error.split("\n")[0])}\`` : "",
  ]
    .filter(Boolean)
    .join("; ");
}

/** The report as a pull-request comment. */
export function reportMarkdown(report: RehearsalReport): string {
  const lines = [
    `### ${ICON[report.verdict]} Rehearsal of \`${report.stack}\`: ${report.verdict}`,
    "",
    cell(report.summary),
    "",
  ];
  const rows = report.resources.filter((r) => r.op !== "same");
  if (rows.length > 0) {
    lines.push("| step | resource | operation | result | time | notes |", "|---|---|---|---|---|---|");
    for (const r of rows)
      lines.push(`| ${r.step} | \`${r.name}\` | ${r.op} | ${r.result} | ${seconds(r.ms)} | ${notes(r)} |`);
    lines.push("");
  }
  const same = report.resources.filter((r) => r.op === "same").length;
  if (same > 0) lines.push(`${same} resources unchanged.`, "");
  lines.push(
    ...report.steps.map(
      (s) => `- ${s.step}: ${s.ok ? "ok" : "**failed**"} in ${seconds(s.ms)}${s.detail ? ` — ${cell(s.detail)}` : ""}`,
    ),
  );
  const others = report.othersWorkloads;
  const othersNote =
    others.length === 0
      ? ""
      : `; ${others.length} not this stack's (another writer's): ${others
          .slice(0, 10)
          .map((id) => `\`${id}\``)
          .join(", ")}${others.length > 10 ? ", …" : ""}`;
  lines.push(`- copied ${report.copied.workloads} workloads and ${report.copied.templates} templates${othersNote}`);
  if (report.notCopied.length > 0) {
    lines.push("", "<details><summary>What the copy could not hold</summary>", "");
    for (const n of report.notCopied) lines.push(`- ${cell(n.what)}: ${cell(n.why)}`);
    lines.push("", "</details>");
  }
  lines.push("", `_Rehearsed in ${seconds(report.ms)} on a copy; the real service and the stack received no write._`);
  return lines.join("\n");
}
