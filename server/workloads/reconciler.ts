import { isVmType } from "../../sdk/schemas";
import { credentialsPath } from "../state/secrets";
import type { Store } from "../state/store";
import type { WorkloadRecord } from "../state/types";
import type { WorkspaceState } from "../state/workspace-state";

/**
 * Drives each workload toward running (or gone), one step per `stepMs`, asynchronously.
 *
 * States: Pending, Provisioning, Running, Restarting, Failed, Deleting, and gone (removed).
 * Inputs from outside (they set the phase, then `kick`): upsert → Pending; restart → Restarting;
 * delete → Deleting; control fail → Failed. Input from here: a step.
 * Steps: Pending → Provisioning → Running; Restarting → Running; Deleting → gone; Running with a
 * generation not yet observed (an in-place update or restart) → observed, still Running; Running
 * with an admin console not yet ready → adminReady = true (one step after Running).
 * Reaching Running sets observedGeneration = generation ("ready" when they are equal).
 * Settled (no step pending): Failed, and Running with nothing left to do.
 * Paused: no step runs; resume schedules every unsettled workload again.
 */
export class Reconciler {
  private readonly timers = new Map<WorkloadRecord, () => void>();
  private paused = false;

  constructor(
    private readonly store: Store,
    private readonly stepMs: number,
  ) {}

  get isPaused(): boolean {
    return this.paused;
  }

  /** (Re)schedules the next step of `w` in `delayMs`, dropping one already scheduled. */
  kick(ws: WorkspaceState, w: WorkloadRecord, delayMs = this.stepMs): void {
    this.cancel(w);
    if (this.paused || !needsStep(w)) return;
    const run = (): void => {
      this.timers.delete(w);
      this.step(ws, w);
    };
    // 0 ms: as soon as possible, but never inside the request that caused it.
    if (delayMs === 0) {
      const h = setImmediate(run);
      this.timers.set(w, () => clearImmediate(h));
    } else {
      const h = setTimeout(run, delayMs);
      this.timers.set(w, () => clearTimeout(h));
    }
  }

  /** Takes `w` from Pending, Provisioning or Restarting to Running at once (transitions `instant`). */
  runToRunning(ws: WorkspaceState, w: WorkloadRecord): void {
    if (w.phase === "Pending") ws.setPhase(w, "Provisioning", "reconciler");
    if (w.phase === "Provisioning" || w.phase === "Restarting") this.reachRunning(ws, w);
  }

  pause(): void {
    this.paused = true;
    for (const cancel of this.timers.values()) cancel();
    this.timers.clear();
  }

  resume(): void {
    this.paused = false;
    this.kickAll();
  }

  /** Schedules every unsettled workload (on start, after a restart of the service, on resume). */
  kickAll(): void {
    for (const ws of this.store.workspaces.values()) for (const w of ws.workloads.values()) this.kick(ws, w);
  }

  close(): void {
    this.pause();
  }

  private cancel(w: WorkloadRecord): void {
    this.timers.get(w)?.();
    this.timers.delete(w);
  }

  private step(ws: WorkspaceState, w: WorkloadRecord): void {
    // A record replaced or removed since this step was scheduled is no longer ours to move.
    if (ws.workloads.get(w.id) !== w) return;
    switch (w.phase) {
      case "Pending":
        ws.setPhase(w, "Provisioning", "reconciler");
        break;
      case "Provisioning":
      case "Restarting":
        this.reachRunning(ws, w);
        break;
      case "Running":
        if (w.observedGeneration < w.generation) {
          w.observedGeneration = w.generation;
          w.updatedAt = new Date().toISOString();
          ws.recordTransition(w.id, "Running", w.generation);
          ws.audit("reconciler", "workload.applied", { type: "workload", id: w.id }, { generation: w.generation });
          this.daemonIdle(ws, w);
        } else if (w.adminReady === false) {
          w.adminReady = true;
          w.updatedAt = new Date().toISOString();
          ws.audit("reconciler", "workload.admin-ready", { type: "workload", id: w.id }, { adminReady: true });
        }
        break;
      case "Deleting":
        this.remove(ws, w);
        return;
      case "Failed":
        return;
    }
    this.store.changed();
    this.kick(ws, w);
  }

  private reachRunning(ws: WorkspaceState, w: WorkloadRecord): void {
    w.observedGeneration = w.generation;
    ws.setPhase(w, "Running", "reconciler");
    this.daemonIdle(ws, w);
  }

  private daemonIdle(ws: WorkspaceState, w: WorkloadRecord): void {
    if (isVmType(w.type) && (w.spec.aiDaemon as { enabled?: boolean } | undefined)?.enabled) {
      ws.setAgent(`daemon:${w.id}`, { busy: false, sleeping: false, sessions: 0, tasks: 0 });
    }
  }

  private remove(ws: WorkspaceState, w: WorkloadRecord): void {
    ws.workloads.delete(w.id);
    ws.recordTransition(w.id, "Gone", w.generation);
    const path = credentialsPath(w.id);
    const hadSecret = this.store.secrets.delete(ws.name, path);
    ws.setAgent(`daemon:${w.id}`, undefined);
    ws.audit("reconciler", "workload.deleted", { type: "workload", id: w.id }, { type: w.type });
    if (hadSecret) ws.fanout.emit("secret-changed", { path });
    this.store.changed(hadSecret);
  }
}

function needsStep(w: WorkloadRecord): boolean {
  switch (w.phase) {
    case "Pending":
    case "Provisioning":
    case "Restarting":
    case "Deleting":
      return true;
    case "Running":
      return w.adminReady === false || w.observedGeneration < w.generation;
    case "Failed":
      return false;
  }
}
