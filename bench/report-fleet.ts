import { round } from "./common";
import type { FleetOp, FleetRow } from "./fleet";
import type { Report } from "./report";

/** The goal of a fleet of 2,000 pods on PostgreSQL, after Pulumi's own performance gate: walls in s. */
export const FLEET_GOAL = { up: 200, preview: 100, destroy: 200, providerRssMb: 250 } as const;

const s1 = (ms: number | undefined): string => (ms === undefined ? "-" : `${(ms / 1000).toFixed(1)} s`);
const size = (bytes: number | undefined): string =>
  bytes === undefined
    ? "-"
    : bytes >= 2 ** 30
      ? `${(bytes / 2 ** 30).toFixed(2)} GiB`
      : bytes >= 2 ** 20
        ? `${(bytes / 2 ** 20).toFixed(1)} MiB`
        : `${(bytes / 1024).toFixed(0)} KiB`;

const COLUMNS = [
  "run",
  "backend",
  "stacks × pods",
  "op",
  "wall",
  "gate / apply",
  "CPU s: CLI / program / provider / other node / service / PG",
  "peak RSS provider / program",
  "written",
  "state",
  "load 1m",
];

function cells(r: FleetRow): string[] {
  const c = r.cpuS;
  return [
    r.label,
    r.backend,
    `${r.stacks} × ${r.pods / r.stacks}`,
    r.op,
    s1(r.wallMs),
    r.gateMs || r.applyMs ? `${s1(r.gateMs)} / ${s1(r.applyMs)}` : "-",
    [c.cli, c.program, c.provider, c["other node"], c.service, c.postgres ?? "-"].join(" / "),
    `${r.peakRssMb.provider ?? "-"} / ${r.peakRssMb.program ?? "-"} MiB`,
    size(r.writtenBytes),
    size(r.stateBytes),
    r.load.join("→"),
  ];
}

const toJson = (r: FleetRow): Record<string, unknown> => ({
  label: r.label,
  backend: r.backend,
  stacks: r.stacks,
  pods: r.pods,
  op: r.op,
  wall_s: round(r.wallMs / 1000, 1),
  gate_s: r.gateMs !== undefined ? round(r.gateMs / 1000, 1) : undefined,
  apply_s: r.applyMs !== undefined ? round(r.applyMs / 1000, 1) : undefined,
  cpu_s: r.cpuS,
  peak_rss_mb: r.peakRssMb,
  written_mb: r.writtenBytes !== undefined ? round(r.writtenBytes / 2 ** 20, 1) : undefined,
  state_kb: r.stateBytes !== undefined ? round(r.stateBytes / 1024, 0) : undefined,
  load_1m: r.load,
  changes: r.changes,
});

/**
 * Scenario 8: a table of every run's operations, and the fleet's goal: 2,000 pods (or the largest
 * fleet measured) on PostgreSQL, up, no-change preview and destroy within Pulumi's own budget,
 * with the single stack of as many pods beside it.
 */
export function addFleet(report: Report, rows: FleetRow[]): void {
  report.sections.push({
    title:
      "Scenario 8: pods at scale through examples/fleet (up = the gate's previews, then the ups; CPU per kind of process)",
    columns: COLUMNS,
    rows: rows.map(cells),
  });
  report.json.fleet = rows.map(toJson);
  const fleets = rows.filter((r) => r.label.startsWith("fleet") && r.backend === "postgres");
  const pods = Math.max(0, ...fleets.map((r) => r.pods));
  const at = (label: string, op: FleetOp): FleetRow | undefined =>
    rows.find((r) => r.label === label && r.backend === "postgres" && r.pods === pods && r.op === op);
  if (pods === 0) return;
  const beside = (op: FleetOp): string =>
    [
      ["1 stack", `one stack of ${pods}`],
      ["fleet, lz4 TOAST compression", "with lz4 TOAST compression"],
      ["fleet, PULUMI_SKIP_CHECKPOINTS=true", "without checkpoints"],
    ]
      .map(([label, what]) => {
        const r = at(label, op);
        return r ? `${what}: ${s1(r.wallMs)}` : label === "1 stack" ? `${what}: not measured in this run` : "";
      })
      .filter(Boolean)
      .join("; ");
  const wallTarget = (op: FleetOp, limitS: number): void => {
    const r = at("fleet", op);
    report.targets.push({
      name: `fleet of ${pods} pods in ${r?.stacks ?? "?"} stacks, PostgreSQL: ${op === "preview" ? "no-change preview" : op}`,
      target: `≤ ${limitS} s`,
      value: r ? `${s1(r.wallMs)} (load ${r.load.join("→")})` : "-",
      met: r ? r.wallMs <= limitS * 1000 : undefined,
      note: beside(op),
    });
  };
  wallTarget("up", FLEET_GOAL.up);
  wallTarget("preview", FLEET_GOAL.preview);
  wallTarget("destroy", FLEET_GOAL.destroy);
  const rss = Math.max(0, ...fleets.map((r) => r.peakRssMb.provider ?? 0));
  report.targets.push({
    name: `fleet of ${pods} pods: provider peak RSS, per process`,
    target: `< ${FLEET_GOAL.providerRssMb} MiB`,
    value: rss > 0 ? `${rss} MiB` : "-",
    met: rss > 0 ? rss < FLEET_GOAL.providerRssMb : undefined,
  });
}
