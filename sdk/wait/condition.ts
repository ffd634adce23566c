import type { WorkloadStatus } from "../schemas";

export type WaitGoal = "ready" | "gone";

/**
 * What a wait for an update or a restart must not be fooled by: the status record from before
 * the request, still `Running`. `previous` is the record read just before the request (the
 * closer to it, the better); `requestedAt` the epoch ms at which the request was sent.
 */
export interface Since {
  previous?: WorkloadStatus;
  requestedAt: number;
}

export interface ConditionOptions {
  until: WaitGoal;
  /** Also require `adminReady === true` (storage with an admin console). */
  adminReady?: boolean;
  since?: Since;
}

/** One look at `/status`: the record, or `undefined` for 404. */
export type Observation = WorkloadStatus | undefined;

export type Verdict =
  | { kind: "satisfied"; status: WorkloadStatus | undefined }
  | { kind: "failed"; status: WorkloadStatus }
  | { kind: "pending"; reason: string };

const hasGenerations = (s: WorkloadStatus): s is WorkloadStatus & { generation: number; observedGeneration: number } =>
  s.generation !== undefined && s.observedGeneration !== undefined;

function parseTime(value: string | undefined): number | undefined {
  if (value === undefined) return undefined;
  const t = Date.parse(value);
  return Number.isNaN(t) ? undefined : t;
}

/**
 * Readiness decided from `/status` records only, one record at a time, in the order they were read.
 *
 * Goal `gone`: satisfied by a 404, nothing else (a `Failed` workload can still be deleted).
 * Goal `ready`: `phase == Running`, `observedGeneration >= generation` when both are present,
 * and `adminReady` when asked for. `Failed` fails the wait.
 *
 * With `since`, a record must also be fresh, i.e. about the request and not from before it:
 * - with generations on both records: `observedGeneration >= previous.generation + 1` (a Failed
 *   record: `generation > previous.generation`);
 * - otherwise evidence of change: a phase other than the previous one was seen (a record read
 *   after the request, so it reflects it), `updatedAt` later than both `requestedAt` and the
 *   previous `updatedAt` (the second test guards against a server clock ahead of ours), or
 *   `restartCount` above the previous one.
 * A stale Running or a stale Failed leaves the wait pending.
 */
export class WorkloadCondition {
  /** A phase different from the previous record's was seen since the request. */
  private changed = false;
  private readonly previousPhase: string;

  constructor(private readonly options: ConditionOptions) {
    this.previousPhase = options.since?.previous?.phase ?? "Running";
  }

  observe(status: Observation): Verdict {
    if (this.options.until === "gone") {
      return status === undefined ? { kind: "satisfied", status: undefined } : { kind: "pending", reason: `still present in phase ${status.phase}` };
    }
    if (status === undefined) return { kind: "pending", reason: "not found (404)" };
    if (status.phase !== this.previousPhase) this.changed = true;
    const fresh = this.fresh(status);
    if (status.phase === "Failed") {
      return fresh ? { kind: "failed", status } : { kind: "pending", reason: "still the Failed record from before the request" };
    }
    if (status.phase !== "Running") return { kind: "pending", reason: `phase ${status.phase}` };
    if (hasGenerations(status) && status.observedGeneration < status.generation) {
      return { kind: "pending", reason: `generation ${status.generation} not yet observed (observed ${status.observedGeneration})` };
    }
    if (!fresh) return { kind: "pending", reason: "still the Running record from before the request" };
    if (this.options.adminReady && status.adminReady !== true) return { kind: "pending", reason: "admin console not ready yet" };
    return { kind: "satisfied", status };
  }

  private fresh(status: WorkloadStatus): boolean {
    const since = this.options.since;
    if (since === undefined) return true;
    const previous = since.previous;
    const prevGeneration = previous?.generation;
    if (prevGeneration !== undefined && status.generation !== undefined) {
      if (status.phase === "Failed") return status.generation > prevGeneration;
      if (status.observedGeneration !== undefined) return status.observedGeneration >= prevGeneration + 1;
    }
    if (this.changed) return true;
    const updatedAt = parseTime(status.updatedAt);
    const prevUpdatedAt = parseTime(previous?.updatedAt);
    if (updatedAt !== undefined && updatedAt > since.requestedAt && (prevUpdatedAt === undefined || updatedAt > prevUpdatedAt)) return true;
    if (status.restartCount !== undefined && previous?.restartCount !== undefined && status.restartCount > previous.restartCount) return true;
    return false;
  }
}
