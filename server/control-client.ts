import type { CountersSnapshot } from "./http/counters";
import type { FaultConfig } from "./http/faults";
import type { PhaseTransition } from "./state/types";

export type { CountersSnapshot, FaultConfig, PhaseTransition };

/** The service's own record of a workload, in every profile: the full `/status` record and the applied spec. */
export interface WorkloadRecordView {
  id: string;
  type: string;
  phase: string;
  message?: string;
  updatedAt: string;
  generation: number;
  observedGeneration: number;
  restartCount: number;
  endpoint?: string;
  adminUrl?: string;
  adminReady?: boolean;
  spec: Record<string, unknown>;
}

/**
 * Typed client of the local service's `/_control` endpoints (enabled by its `controlToken`), for
 * tests and benchmarks of the SDK and the provider.
 */
export class ControlClient {
  private readonly base: string;

  constructor(
    baseUrl: string,
    private readonly token: string,
  ) {
    this.base = baseUrl.replace(/\/+$/, "");
  }

  /** Sets the workload's phase to `Failed` with `message`. */
  async failWorkload(workspace: string, id: string, message: string): Promise<void> {
    await this.call("POST", `/_control/workloads/${encodeURIComponent(workspace)}/${encodeURIComponent(id)}/fail`, {
      message,
    });
  }

  /** Gives `workspace` the API key `key`; its old key is refused from then on. */
  async rotateKey(workspace: string, key: string): Promise<void> {
    await this.call("PUT", `/_control/workspaces/${encodeURIComponent(workspace)}/key`, { key });
  }

  /** While paused no workload changes phase. */
  async pauseReconciler(): Promise<void> {
    await this.call("POST", "/_control/reconciler/pause");
  }

  async resumeReconciler(): Promise<void> {
    await this.call("POST", "/_control/reconciler/resume");
  }

  /** Destroys every open event stream; returns how many were open. */
  async dropStreams(): Promise<number> {
    return ((await this.call("POST", "/_control/streams/drop")) as { dropped: number }).dropped;
  }

  async setFaults(faults: FaultConfig): Promise<void> {
    await this.call("PUT", "/_control/faults", faults);
  }

  async clearFaults(): Promise<void> {
    await this.call("DELETE", "/_control/faults");
  }

  async counters(): Promise<CountersSnapshot> {
    return (await this.call("GET", "/_control/counters")) as CountersSnapshot;
  }

  async resetCounters(): Promise<void> {
    await this.call("POST", "/_control/counters/reset");
  }

  /** The service's own full record of the workload (whatever its profile shows), or `undefined` once it is gone. */
  async workload(workspace: string, id: string): Promise<WorkloadRecordView | undefined> {
    const path = `/_control/workloads/${encodeURIComponent(workspace)}/${encodeURIComponent(id)}`;
    try {
      return (await this.call("GET", path)) as WorkloadRecordView;
    } catch (err) {
      if (err instanceof Error && / answered 404 /.test(err.message)) return undefined;
      throw err;
    }
  }

  /** Phase changes of the workload, oldest first (`at`: epoch ms, sub-ms precision; `Gone` marks removal). */
  async transitions(workspace: string, id: string): Promise<PhaseTransition[]> {
    const path = `/_control/workloads/${encodeURIComponent(workspace)}/${encodeURIComponent(id)}/transitions`;
    return ((await this.call("GET", path)) as { transitions: PhaseTransition[] }).transitions;
  }

  /**
   * Emits `count` synthetic `task-update` events (data carries `sentAt`), paced at `ratePerSec`
   * when given; each from a job of its own unless `separateJobs` is false (one burst per tick).
   */
  async emitEvents(
    workspace: string,
    count: number,
    ratePerSec?: number,
    separateJobs?: boolean,
  ): Promise<{ firstId: string; lastId: string; elapsedMs: number }> {
    const body = {
      workspace,
      count,
      ...(ratePerSec !== undefined ? { ratePerSec } : {}),
      ...(separateJobs !== undefined ? { separateJobs } : {}),
    };
    return (await this.call("POST", "/_control/events/emit", body)) as {
      firstId: string;
      lastId: string;
      elapsedMs: number;
    };
  }

  private async call(method: string, path: string, body?: unknown): Promise<unknown> {
    const headers: Record<string, string> = { "x-control-token": this.token };
    if (body !== undefined) headers["content-type"] = "application/json";
    const res = await fetch(this.base + path, {
      method,
      headers,
      body: body === undefined ? undefined : JSON.stringify(body),
    });
    const text = await res.text();
    if (!res.ok) {
      let detail = text;
      try {
        const e = (JSON.parse(text) as { error?: { code?: string; message?: string } }).error;
        if (e) detail = `${e.code}: ${e.message}`;
      } catch {
        // not JSON: keep the raw text
      }
      throw new Error(`control ${method} ${path} answered ${res.status} ${detail}`);
    }
    return text === "" ? undefined : (JSON.parse(text) as unknown);
  }
}
