import { availableParallelism } from "node:os";
import { median, round } from "./common";
import { runPulumiUp, type UpRow } from "./pulumi-up";
import { s1, type Report } from "./report";

export type Parallelism = "default" | number;
export type ParallelRow = UpRow & { parallel: Parallelism; round: number };

/**
 * Scenario 7: `pulumi up` of `pods` pods at the engine's default parallelism (the flag left out:
 * 4 × cores steps at once) and with `--parallel <pods>`, alternating for `rounds` rounds, each up
 * against a fresh service with the same reconcile step. A create holds its step until its pod
 * runs (the readiness wait), so at the default only 4 × cores pods are awaited at once.
 */
export async function runParallel(options: {
  pods: number;
  rounds: number;
  stepMs: number;
  progress?: (line: string) => void;
}): Promise<{ rows: ParallelRow[]; json: Record<string, unknown> }> {
  const rows: ParallelRow[] = [];
  for (let r = 1; r <= options.rounds; r++) {
    for (const parallel of ["default", options.pods] as const) {
      const up = await runPulumiUp({ pods: [options.pods], rounds: 1, stepMs: options.stepMs, parallel });
      const row = { ...up.rows[0], parallel, round: r };
      options.progress?.(`round ${r}: pulumi up of ${options.pods} pods, --parallel ${parallel}: ${s1(row.wallMs)}`);
      rows.push(row);
    }
  }
  const wallS = (p: Parallelism): number =>
    round(median(rows.filter((x) => x.parallel === p).map((x) => x.wallMs)) / 1000, 1);
  const json = {
    pods: options.pods,
    rounds: options.rounds,
    default_parallel: 4 * availableParallelism(),
    median_wall_s: { default: wallS("default"), raised: wallS(options.pods) },
    rows: rows.map((x) => ({
      parallel: x.parallel,
      round: x.round,
      wall_s: round(x.wallMs / 1000, 2),
      last_step_start_s: x.timeline?.lastCreateStartS,
      last_step_done_s: x.timeline?.lastCreateDoneS,
    })),
  };
  return { rows, json };
}

/** Scenario 7's rows: one per up, the parallelism in the mode column, the pod steps' timeline in the notes. */
export function addParallel(report: Report, result: { rows: ParallelRow[]; json: Record<string, unknown> }): void {
  for (const r of result.rows) {
    report.rows.push([
      "7 up",
      r.parallel === "default" ? `default (${4 * availableParallelism()})` : `--parallel ${r.parallel}`,
      `${r.pods} pods`,
      `${s1(r.wallMs)} wall`,
      "-",
      r.statusGetsPerPod?.toFixed(2) ?? "-",
      r.streamsPerWorkspace !== undefined ? String(r.streamsPerWorkspace) : "-",
      `round ${r.round}${r.timeline ? `, pod steps start ${r.timeline.firstCreateS}-${r.timeline.lastCreateStartS} s, last done ${r.timeline.lastCreateDoneS} s` : ""}`,
    ]);
  }
  report.json.parallel = result.json;
}
