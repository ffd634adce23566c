import type { FailureKind } from "./classify";
import type { NotCopied } from "./copy-workspace";

/** One resource of the rehearsal: what the copy's run did to it, and how it went. */
export interface ResourceRow {
  urn: string;
  /** The resource's name in the program. */
  name: string;
  type: string;
  /** The engine's operation: create, update, replace, delete, same, read, … */
  op: string;
  /** `done`; `failed` (with `error`); `not reached` (the run stopped before it ended). */
  result: "done" | "failed" | "not reached";
  /** The real error message, as the provider or the program gave it. */
  error?: string;
  failure?: FailureKind;
  /** Time the operation took in the copy, in ms. */
  ms?: number;
  /** A replacement or delete that loses the workload's data (a database). */
  losesData: boolean;
  /** The run it belongs to. */
  step: "up" | "destroy";
}

/** A step of the rehearsal and how it went. */
export interface StepResult {
  step: "copy" | "preview" | "up" | "second preview" | "destroy";
  ok: boolean;
  ms: number;
  /** What went wrong, or for the second preview, what it would still change. */
  detail?: string;
}

/**
 * The rehearsal's verdict: `would work` (exit 0), `would fail` (exit 1, `firstFailure` names the
 * first failure) or `could not rehearse` (exit 2, `reason` says why).
 */
export interface RehearsalReport {
  stack: string;
  workspace: string;
  verdict: "would work" | "would fail" | "could not rehearse";
  exitCode: 0 | 1 | 2;
  summary: string;
  firstFailure?: string;
  reason?: string;
  steps: StepResult[];
  resources: ResourceRow[];
  copied: { workloads: number; templates: number };
  notCopied: NotCopied[];
  /** Workloads in the workspace that this stack's state does not hold: another writer's. */
  othersWorkloads: string[];
  /** Total wall time of the rehearsal, in ms. */
  ms: number;
}

const firstLine = (s: string): string => s.split("\n")[0];

const plural = (n: number, one: string, many = `${one}s`): string => `${n} ${n === 1 ? one : many}`;

/** The verdict from the steps and rows: the first failure named, a summary line. */
export function verdictOf(
  report: Omit<RehearsalReport, "verdict" | "exitCode" | "summary" | "firstFailure">,
): RehearsalReport {
  if (report.reason !== undefined)
    return { ...report, verdict: "could not rehearse", exitCode: 2, summary: `could not rehearse: ${report.reason}` };
  const failedRow = report.resources.find((r) => r.result === "failed" || (r.result === "not reached" && r.error));
  const failedStep = report.steps.find((s) => !s.ok);
  const changed = report.resources.filter((r) => r.op !== "same");
  const losing = report.resources.filter((r) => r.losesData);
  const counts =
    `${plural(changed.length, "change")}` +
    (losing.length > 0
      ? `, ${plural(losing.length, "replacement or delete")} losing data (${losing.map((r) => r.name).join(", ")})`
      : "");
  if (failedRow || failedStep) {
    const firstFailure = failedRow
      ? `${failedRow.name} (${failedRow.op}${failedRow.failure && failedRow.failure !== "failed" ? `, ${failedRow.failure}` : ""}): ${firstLine(failedRow.error ?? "failed")}`
      : `${failedStep!.step}: ${firstLine(failedStep!.detail ?? "failed")}`;
    return {
      ...report,
      verdict: "would fail",
      exitCode: 1,
      firstFailure,
      summary: `would fail: ${firstFailure} (${counts})`,
    };
  }
  return { ...report, verdict: "would work", exitCode: 0, summary: `would work: ${counts}, second preview clean` };
}
