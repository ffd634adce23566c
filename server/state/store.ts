import { Fleet, type Placed } from "../fleet";
import type { ResolvedOptions } from "../options";
import { Persister, loadDataDir, type PersistedState } from "./persistence";
import { SecretStore } from "./secrets";
import type { WorkloadRecord } from "./types";
import { WorkspaceState } from "./workspace-state";

/**
 * The first event id of a workspace. Without a data dir it is time-derived (ms since the epoch ×
 * 1000), so an id from before a restart is always older than the new ring. With one it resumes
 * after the persisted id, but never below the time-derived value: events emitted after the last
 * debounced write (a crash) must not have their ids handed out again.
 */
function firstEventId(persisted: string | undefined): number {
  const timeDerived = Date.now() * 1000;
  const after = persisted !== undefined && /^[0-9]{1,16}$/.test(persisted) ? Number(persisted) + 1 : 0;
  return Math.max(after, timeDerived);
}

/** All workspaces, the secrets, the fleet, and the optional data dir behind them. */
export class Store {
  readonly workspaces = new Map<string, WorkspaceState>();
  readonly secrets = new SecretStore();
  readonly fleet: Fleet;
  private readonly persister: Persister | undefined;

  constructor(options: ResolvedOptions) {
    this.fleet = new Fleet(options.fleet);
    const loaded = options.dataDir !== undefined ? loadDataDir(options.dataDir) : {};
    const persisted = loaded.state?.workspaces ?? {};
    // Workspaces in the file without a configured key are kept (and written back), not dropped.
    const names = new Set([...Object.keys(options.keys), ...Object.keys(persisted)]);
    for (const name of names) {
      const p = persisted[name];
      const ws = new WorkspaceState(
        name,
        {
          ringSize: options.ringSize,
          heartbeatMs: options.heartbeatMs,
          streamMaxMs: options.streamMaxMs,
          retryMs: options.retryMs,
          coalesceMs: options.coalesceMs,
          firstId: firstEventId(p?.lastEventId),
        },
        options.profile,
      );
      if (p) {
        ws.generation = p.generation ?? 0;
        for (const w of p.workloads ?? []) ws.workloads.set(w.id, w);
        for (const t of p.templates ?? []) ws.templates.set(t.id, t);
      }
      this.workspaces.set(name, ws);
    }
    if (loaded.secrets) this.secrets.load(loaded.secrets);
    this.persister = options.dataDir !== undefined ? new Persister(options.dataDir, () => this.snapshot()) : undefined;
  }

  workspace(name: string): WorkspaceState | undefined {
    return this.workspaces.get(name);
  }

  /** Schedules a write of the data dir (`secrets`: the secrets file changed too). */
  changed(secrets = false): void {
    this.persister?.schedule(secrets);
  }

  /** Every placed VM of every workspace (but `except`), for fleet capacity. */
  placedVms(except?: WorkloadRecord): Placed[] {
    const out: Placed[] = [];
    for (const ws of this.workspaces.values()) {
      for (const w of ws.workloads.values()) {
        if (w.host !== undefined && w !== except)
          out.push({
            host: w.host,
            cpus: w.spec.cpus as number | undefined,
            memory: w.spec.memory as string | undefined,
          });
      }
    }
    return out;
  }

  close(): void {
    for (const ws of this.workspaces.values()) ws.fanout.close();
    this.persister?.schedule();
    this.persister?.flush();
  }

  private snapshot(): { state: PersistedState; secrets: ReturnType<SecretStore["serialize"]> } {
    const workspaces: PersistedState["workspaces"] = {};
    for (const [name, ws] of this.workspaces) {
      workspaces[name] = {
        generation: ws.generation,
        lastEventId: String(ws.fanout.lastId),
        workloads: [...ws.workloads.values()],
        templates: [...ws.templates.values()],
      };
    }
    return { state: { workspaces }, secrets: this.secrets.serialize() };
  }
}
