import { performance } from "node:perf_hooks";
import { ControlClient, startService, type RunningService, type ServiceOptions } from "../../../server";
import { WorkspaceClient, type ClientOptions } from "../../../sdk";

export const KEYS = { demo: "sdk-demo-key-7f3a", other: "sdk-other-key-91bc" };
export const CONTROL_TOKEN = "sdk-control-token";
export const STATUS_ROUTE = "GET /v1/tenants/:name/workloads/:id/status";

export interface Harness {
  svc: RunningService;
  ctl: ControlClient;
  client(over?: Partial<ClientOptions>): WorkspaceClient;
  close(): Promise<void>;
}

/** The real local service on a free port, shrunk for tests, with clients that are closed with it. */
export async function startHarness(options: ServiceOptions = {}): Promise<Harness> {
  const svc = await startService({ port: 0, keys: KEYS, reconcileMs: 100, heartbeatMs: 60_000, ringSize: 1000, controlToken: CONTROL_TOKEN, ...options });
  const ctl = new ControlClient(svc.url, CONTROL_TOKEN);
  const clients: WorkspaceClient[] = [];
  return {
    svc,
    ctl,
    client: (over = {}) => {
      const c = new WorkspaceClient({ baseUrl: svc.url, workspace: "demo", apiKey: KEYS.demo, ...over });
      clients.push(c);
      return c;
    },
    close: async () => {
      await Promise.all(clients.map((c) => c.close()));
      await svc.close();
    },
  };
}

let counter = 0;
export function uid(prefix = "w"): string {
  return `${prefix}-${process.pid}-${++counter}`;
}

/** The same clock as the service's transition times: epoch ms, sub-ms precision. */
export function preciseNow(): number {
  return performance.timeOrigin + performance.now();
}

/** Polls `check` until it returns something other than undefined/false (for test setup only). */
export async function until<T>(check: () => T | undefined | false | Promise<T | undefined | false>, timeoutMs = 5000): Promise<T> {
  const deadline = Date.now() + timeoutMs;
  for (;;) {
    const v = await check();
    if (v !== undefined && v !== false) return v;
    if (Date.now() > deadline) throw new Error("condition not met in time");
    await new Promise((r) => setTimeout(r, 5));
  }
}

/** When the workload last became Running for `generation`, by the service's own record. */
export async function runningAt(ctl: ControlClient, id: string, generation?: number): Promise<number> {
  const transitions = await ctl.transitions("demo", id);
  const hit = transitions.filter((t) => t.phase === "Running" && (generation === undefined || t.generation === generation)).pop();
  if (!hit) throw new Error(`workload ${id} never became Running`);
  return hit.at;
}

export function percentile(values: number[], p: number): number {
  const sorted = [...values].sort((a, b) => a - b);
  return sorted[Math.min(sorted.length - 1, Math.ceil((p / 100) * sorted.length) - 1)];
}

export const pod = (id: string, image = "nginx:1.27") => ({ id, image });
