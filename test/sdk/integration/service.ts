import { performance } from "node:perf_hooks";
import { ControlClient, type RunningService, type ServiceOptions } from "../../../server";
import { WorkspaceClient, type ClientOptions } from "../../../sdk";
import { pollUntil } from "../../support/poll";
import { startTestService } from "../../support/service";

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
  const svc = await startTestService({
    keys: KEYS,
    reconcileMs: 100,
    ringSize: 1000,
    controlToken: CONTROL_TOKEN,
    ...options,
  });
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

export { uniqueId as uid } from "../../support/ids";

/** The same clock as the service's transition times: epoch ms, sub-ms precision. */
export function preciseNow(): number {
  return performance.timeOrigin + performance.now();
}

/** Polls `check` until it returns something other than undefined/false (for test setup only). */
export function until<T>(
  check: () => T | undefined | false | Promise<T | undefined | false>,
  timeoutMs = 5000,
): Promise<T> {
  return pollUntil(check, { timeoutMs });
}

/** When the workload last became Running for `generation`, by the service's own record. */
export async function runningAt(ctl: ControlClient, id: string, generation?: number): Promise<number> {
  const transitions = await ctl.transitions("demo", id);
  const hit = transitions
    .filter((t) => t.phase === "Running" && (generation === undefined || t.generation === generation))
    .pop();
  if (!hit) throw new Error(`workload ${id} never became Running`);
  return hit.at;
}

export function percentile(values: number[], p: number): number {
  const sorted = [...values].sort((a, b) => a - b);
  return sorted[Math.min(sorted.length - 1, Math.ceil((p / 100) * sorted.length) - 1)];
}

export const pod = (id: string, image = "nginx:1.27") => ({ id, image });
