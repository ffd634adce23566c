import { round } from "./common";
import type { PulumiUpResult, UpRow } from "./pulumi-up";
import type { WaitMode } from "./readiness";
import { modeName, ratio, s1, type Report, type Target } from "./report";

/** Provider peak RSS allowed for `up` of 1,000 pods. */
export const RSS_LIMIT_MB = 300;

const mb = (bytes: number): string =>
  bytes >= 2 ** 30 ? `${(bytes / 2 ** 30).toFixed(2)} GiB` : `${(bytes / 2 ** 20).toFixed(1)} MiB`;

function notesOf(r: UpRow): string {
  return [
    r.diagnostic ?? "",
    r.cpuS
      ? `CPU s: CLI ${r.cpuS.cli ?? "?"}, provider ${r.cpuS.provider ?? "?"}, service ${r.cpuS.service ?? "?"}, program ${r.cpuS.program}`
      : "",
    r.peakRssMb !== undefined ? `provider peak RSS ${Math.round(r.peakRssMb)} MiB` : "",
    r.writtenBytes !== undefined ? `written ${mb(r.writtenBytes)}` : "",
    r.checkpointBytes !== undefined ? `checkpoint ${(r.checkpointBytes / 1024).toFixed(0)} KiB` : "",
    r.timeline
      ? `pod steps start ${r.timeline.firstCreateS}-${r.timeline.lastCreateStartS} s, last done ${r.timeline.lastCreateDoneS} s`
      : "",
    r.note ?? "",
  ]
    .filter(Boolean)
    .join(", ");
}

/**
 * Scenario 3, or why it was not run: a row per `up` and `destroy` (wall, and how many times the
 * floor it takes: `up` of no resource plus the service's own time to Running), the ratio of 300
 * pods to 10, and whether 1,000 pods completed within the provider's memory limit.
 */
export function addPulumiUp(report: Report, result: PulumiUpResult | { skipped: string }): void {
  const target: Target = { name: "pulumi up 300 pods vs 10 (stream)", target: "≤ 3×", value: "-", met: undefined };
  const bigTarget: Target = {
    name: "pulumi up 1,000 pods (stream)",
    target: `completes, provider peak RSS ≤ ${RSS_LIMIT_MB} MiB`,
    value: "-",
    met: undefined,
  };
  if ("skipped" in result) {
    report.json.pulumi_up = { skipped: result.skipped };
    report.targets.push(
      { ...target, note: `not measured: ${result.skipped}` },
      { ...bigTarget, note: `not measured: ${result.skipped}` },
    );
    return;
  }
  const floorMs = result.emptyUpMs !== undefined ? result.emptyUpMs + result.serviceReadyMs : undefined;
  if (result.emptyUpMs !== undefined) {
    report.rows.push([
      "3 floor",
      "-",
      "0 pods",
      `${s1(result.emptyUpMs)} wall`,
      "-",
      "-",
      "-",
      `up of no resource; + ${s1(result.serviceReadyMs)} service to Running = ${s1(floorMs ?? 0)}`,
    ]);
  }
  for (const r of result.rows) {
    const timesFloor = r.op === "up" && floorMs ? `${ratio(r.wallMs, floorMs)}× floor` : "-";
    report.rows.push([
      r.diagnostic ? "3 up (diag.)" : `3 ${r.op}`,
      modeName(r.mode, report.pollIntervalMs),
      `${r.pods} pods`,
      `${s1(r.wallMs)} wall`,
      timesFloor,
      r.statusGetsPerPod?.toFixed(2) ?? "-",
      r.streamsPerWorkspace !== undefined ? String(r.streamsPerWorkspace) : "-",
      notesOf(r),
    ]);
  }
  const main = result.rows.filter((r) => !r.diagnostic);
  const rowOf = (op: UpRow["op"], mode: WaitMode, pods: number): UpRow | undefined =>
    main.find((r) => r.op === op && r.mode === mode && r.pods === pods);
  const sizes = main.map((r) => r.pods);
  const [smallest, compared] = [Math.min(...sizes), sizes.includes(300) ? 300 : Math.max(...sizes)];
  const r = ratio(rowOf("up", "stream", compared)?.wallMs, rowOf("up", "stream", smallest)?.wallMs);
  const wall = (op: UpRow["op"], mode: WaitMode): Record<string, number> =>
    Object.fromEntries(
      main.filter((x) => x.op === op && x.mode === mode).map((x) => [String(x.pods), round(x.wallMs / 1000, 1)]),
    );
  Object.assign(report.json, {
    up_ratio_300_vs_10: r,
    up_wall_s: { stream: wall("up", "stream"), poll: wall("up", "poll") },
    destroy_wall_s: wall("destroy", "stream"),
    ...(floorMs !== undefined ? { up_floor_s: round(floorMs / 1000, 2) } : {}),
    provider_peak_rss_mb: round(Math.max(...result.rows.map((x) => x.peakRssMb ?? 0)), 1),
    pulumi_up: result.json,
  });
  const notes = [result.note, compared !== 300 ? `measured up to ${compared} pods only` : undefined];
  const top = rowOf("up", "stream", compared);
  const small = rowOf("up", "stream", smallest)?.wallMs;
  for (const d of result.rows.filter((x) => x.diagnostic && x.mode === "stream" && x.pods === compared)) {
    notes.push(
      `with ${d.diagnostic}: ${s1(d.wallMs)} (${ratio(d.wallMs, small) ?? "-"}× of ${smallest} pods), pulumi CLI CPU ${top?.cpuS?.cli ?? "?"} s → ${d.cpuS?.cli ?? "?"} s`,
    );
  }
  report.targets.push({
    ...target,
    value: `${r ?? "-"}×`,
    met: r === undefined || compared !== 300 ? undefined : r <= 3,
    note: notes.filter(Boolean).join("; ") || undefined,
  });
  const big = rowOf("up", "stream", 1000);
  report.targets.push(
    big
      ? {
          ...bigTarget,
          value: `${s1(big.wallMs)}, ${big.peakRssMb !== undefined ? `${Math.round(big.peakRssMb)} MiB` : "RSS not measured"}`,
          met: big.peakRssMb !== undefined && big.peakRssMb <= RSS_LIMIT_MB,
        }
      : { ...bigTarget, note: "not measured in this run" },
  );
}
