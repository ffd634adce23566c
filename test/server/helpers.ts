import type { RunningService, ServiceOptions } from "../../server";
import { sendRequest, type CallOptions, type HttpAnswer } from "../support/http";
import { responseProblem } from "../support/openapi-responses";
import { pollUntil } from "../support/poll";
import { startTestService } from "../support/service";

export const KEYS = { demo: "demo-key", other: "other-key" };
export const CONTROL_TOKEN = "control-secret";

/** A service on a free port, shrunk for tests. */
export function start(options: ServiceOptions = {}): Promise<RunningService> {
  return startTestService({ keys: KEYS, reconcileMs: 5, ringSize: 50, controlToken: CONTROL_TOKEN, ...options });
}

export type Answer = HttpAnswer;
export type { CallOptions };

/**
 * One request; `key` defaults to the demo workspace's key, `null` sends none. Every answer is
 * checked against the OpenAPI document (its status documented, its JSON body matching the schema).
 */
export async function call(svc: RunningService, method: string, path: string, o: CallOptions = {}): Promise<Answer> {
  const answer = await sendRequest(svc.url + path, method, KEYS.demo, o);
  const problem = responseProblem(method, svc.url + path, answer.status, answer.text);
  if (problem) throw new Error(`the answer disagrees with openapi/openapi.json: ${problem}`);
  return answer;
}

/** Polls `check` until it returns a value other than undefined/false. */
export function waitFor<T>(
  check: () => T | undefined | false | Promise<T | undefined | false>,
  timeoutMs = 5000,
): Promise<T> {
  return pollUntil(check, { timeoutMs });
}

export async function statusOf(svc: RunningService, id: string, key = KEYS.demo): Promise<Answer> {
  return call(svc, "GET", `/v1/tenants/demo/workloads/${id}/status`, { key });
}

/** Waits until the workload is Running for its latest generation (and its admin console, if any, is ready). */
export function waitReady(svc: RunningService, id: string): Promise<Record<string, unknown>> {
  return waitFor(async () => {
    const s = (await statusOf(svc, id)).json;
    return s?.phase === "Running" && s.observedGeneration >= s.generation && s.adminReady !== false ? s : undefined;
  });
}

export { uniqueId as uid } from "../support/ids";

export const VM = (id: string, extra: Record<string, unknown> = {}): Record<string, unknown> => ({
  id,
  cpus: 2,
  memory: "4Gi",
  credentials: { username: "ubuntu", password: "vm-Pa55word!" },
  ...extra,
});

export const DB = (id: string, extra: Record<string, unknown> = {}): Record<string, unknown> => ({
  id,
  engine: "postgres",
  credentials: { password: "db-Pa55word!" },
  ...extra,
});
