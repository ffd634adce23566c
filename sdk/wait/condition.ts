import type { WorkloadStatus } from "../schemas";
import { DEFAULT_SETTLE_RULE, settleAt, type SettleClock, type SettleRule } from "./settle";

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
  /** For `since` waits without evidence (see `settle.ts`). @default DEFAULT_SETTLE_RULE */
  settle?: SettleRule;
}

/** One look at `/status`: the record, or `undefined` for 404. */
export type Observation = WorkloadStatus | undefined;

export type Verdict =
  | { kind: "satisfied"; status: WorkloadStatus | undefined }
  | { kind: "failed"; status: WorkloadStatus }
  | { kind: "pending"; reason: string; settleAt?: number };

/** What a record says about being about the request: yes, no, or nothing either way. */
type Freshness = "fresh" | "stale" | "no-evidence";

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
 * With `since`, a record must also be about the request and not from before it:
 * - with generations on both records: `observedGeneration >= previous.generation + 1` (a Failed
 *   record: `generation > previous.generation`), and nothing else counts;
 * - otherwise evidence of change: a phase other than the previous one was seen (a record read
 *   after the request, so it reflects it), `updatedAt` later than both `requestedAt` and the
 *   previous `updatedAt` (the second test guards against a server clock ahead of ours), or
 *   `restartCount` above the previous one;
 * - with none of these, the settle rule of `settle.ts` decides, from the `SettleClock` the waiter
 *   passes (without one, such a record stays pending).
 */
export class WorkloadCondition {
  /** A phase different from the previous record's was seen since the request. */
  private changed = false;
  private readonly previousPhase: string;
  private readonly settle: SettleRule;

  constructor(private readonly options: ConditionOptions) {
    this.previousPhase = options.since?.previous?.phase ?? "Running";
    this.settle = options.settle ?? DEFAULT_SETTLE_RULE;
  }

  observe(status: Observation, clock?: SettleClock): Verdict {
    if (this.options.until === "gone") {
      return status === undefined
        ? { kind: "satisfied", status: undefined }
        : { kind: "pending", reason: `still present in phase ${status.phase}` };
    }
    if (status === undefined) return { kind: "pending", reason: "not found (404)" };
    if (status.phase !== this.previousPhase) this.changed = true;
    const freshness = this.freshness(status);
    if (status.phase === "Failed") {
      if (freshness === "fresh") return { kind: "failed", status };
      if (freshness === "stale") return { kind: "pending", reason: "still the Failed record from before the request" };
      return this.settleRuleTakes(clock) ? { kind: "failed", status } : this.settlingVerdict(clock);
    }
    if (status.phase !== "Running") return { kind: "pending", reason: `phase ${status.phase}` };
    if (hasGenerations(status) && status.observedGeneration < status.generation) {
      return {
        kind: "pending",
        reason: `generation ${status.generation} not yet observed (observed ${status.observedGeneration})`,
      };
    }
    if (freshness === "stale") return { kind: "pending", reason: "still the Running record from before the request" };
    if (freshness === "no-evidence" && !this.settleRuleTakes(clock)) return this.settlingVerdict(clock);
    if (this.options.adminReady && status.adminReady !== true)
      return { kind: "pending", reason: "admin console not ready yet" };
    return { kind: "satisfied", status };
  }

  /** Whether the settle rule takes a record without evidence now. */
  private settleRuleTakes(clock: SettleClock | undefined): boolean {
    return (
      clock !== undefined && clock.now >= settleAt(this.settle, this.options.since!.requestedAt, clock.lastActivityAt)
    );
  }

  private settlingVerdict(clock: SettleClock | undefined): Verdict {
    const reason =
      "settling: the service shows no evidence that this record is about the request (no generation, no phase change seen)";
    return clock === undefined
      ? { kind: "pending", reason }
      : {
          kind: "pending",
          reason,
          settleAt: settleAt(this.settle, this.options.since!.requestedAt, clock.lastActivityAt),
        };
  }

  private freshness(status: WorkloadStatus): Freshness {
    const since = this.options.since;
    if (since === undefined) return "fresh";
    const previous = since.previous;
    const prevGeneration = previous?.generation;
    if (prevGeneration !== undefined && status.generation !== undefined) {
      if (status.phase === "Failed") return status.generation > prevGeneration ? "fresh" : "stale";
      if (status.observedGeneration !== undefined)
        return status.observedGeneration >= prevGeneration + 1 ? "fresh" : "stale";
    }
    if (this.changed) return "fresh";
    const updatedAt = parseTime(status.updatedAt);
    const prevUpdatedAt = parseTime(previous?.updatedAt);
    if (
      updatedAt !== undefined &&
      updatedAt > since.requestedAt &&
      (prevUpdatedAt === undefined || updatedAt > prevUpdatedAt)
    )
      return "fresh";
    if (
      status.restartCount !== undefined &&
      previous?.restartCount !== undefined &&
      status.restartCount > previous.restartCount
    )
      return "fresh";
    return "no-evidence";
  }
}
