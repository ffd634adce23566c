import { performance } from "node:perf_hooks";
import type { Phase } from "../../sdk/schemas";
import { EventFanout, type FanoutOptions } from "../events";
import { rowView, type Profile } from "../profile";
import type { ActivityRecord, Actor, AgentRecord, TemplateRecord, PhaseTransition, WorkloadRecord } from "./types";

/** Audit rows kept for `GET /activity`; older rows are dropped. */
const ACTIVITY_LIMIT = 10_000;
/** Transitions kept per workload id. */
const TRANSITION_LIMIT = 1_000;

/** Epoch milliseconds with sub-millisecond precision. */
export function preciseNow(): number {
  return performance.timeOrigin + performance.now();
}

/**
 * The state of one workspace (tenant) and its event stream. Every audit row is also an `activity`
 * event, and the row's id is that event's id, so `?after=` of `/activity` and `Last-Event-ID`
 * speak the same numbers.
 */
export class WorkspaceState {
  readonly fanout: EventFanout;
  readonly workloads = new Map<string, WorkloadRecord>();
  readonly templates = new Map<string, TemplateRecord>();
  readonly agents = new Map<string, AgentRecord>();
  readonly activity: ActivityRecord[] = [];
  readonly transitions = new Map<string, PhaseTransition[]>();
  /** Bumped on every change of the desired state (upsert, delete). */
  generation = 0;

  constructor(
    readonly name: string,
    fanoutOptions: FanoutOptions,
    /** What answers and events show (the state is the same in every profile). */
    readonly profile: Profile = "full",
  ) {
    this.fanout = new EventFanout(fanoutOptions);
  }

  audit(
    actor: Actor,
    action: string,
    target: { type: string; id: string },
    detail: Record<string, unknown> = {},
  ): void {
    const row: ActivityRecord = {
      id: String(this.fanout.lastId + 1),
      at: new Date().toISOString(),
      actor,
      action,
      target,
      detail,
    };
    this.fanout.emit("activity", rowView(this.profile, row));
    this.activity.push(row);
    if (this.activity.length > ACTIVITY_LIMIT) this.activity.splice(0, this.activity.length - ACTIVITY_LIMIT);
  }

  /** The one place a workload's phase changes: stamps it, records the transition, audits it. */
  setPhase(w: WorkloadRecord, phase: Phase, actor: Actor, message?: string): void {
    w.phase = phase;
    w.message = message;
    // An admin console is ready one step after Running, and never outside Running.
    if (w.adminReady !== undefined && phase !== "Running") w.adminReady = false;
    w.updatedAt = new Date().toISOString();
    this.recordTransition(w.id, phase, w.generation);
    this.audit(
      actor,
      "workload.phase",
      { type: "workload", id: w.id },
      {
        phase,
        generation: w.generation,
        ...(message !== undefined ? { message } : {}),
      },
    );
  }

  recordTransition(id: string, phase: PhaseTransition["phase"], generation: number): void {
    let list = this.transitions.get(id);
    if (!list) this.transitions.set(id, (list = []));
    list.push({ phase, generation, at: preciseNow() });
    if (list.length > TRANSITION_LIMIT) list.splice(0, list.length - TRANSITION_LIMIT);
  }

  setAgent(key: string, agent: AgentRecord | undefined): void {
    const before = this.agents.get(key);
    if (agent === undefined) {
      if (!before) return;
      this.agents.delete(key);
      this.fanout.emit("agent-sleep-state", { key, sleeping: true });
      return;
    }
    this.agents.set(key, agent);
    if (!before || before.busy !== agent.busy || before.sessions !== agent.sessions || before.tasks !== agent.tasks) {
      this.fanout.emit("agent-busy", { key, busy: agent.busy, sessions: agent.sessions, tasks: agent.tasks });
    }
    if (!before || before.sleeping !== agent.sleeping)
      this.fanout.emit("agent-sleep-state", { key, sleeping: agent.sleeping });
  }

  /** The pulse snapshot: taken in one synchronous step with `lastEventId`, so a stream opened at it misses nothing. */
  pulse(): {
    lastEventId: string;
    workloads: Array<{ id: string; type: string; phase: string }>;
    agents: Record<string, AgentRecord>;
  } {
    return {
      lastEventId: String(this.fanout.lastId),
      workloads: [...this.workloads.values()].map((w) => ({ id: w.id, type: w.type, phase: w.phase })),
      agents: Object.fromEntries([...this.agents].map(([k, a]) => [k, { ...a }])),
    };
  }
}
