import { startService, type RunningService, type ServiceOptions } from "../../server";

export const KEYS = { demo: "demo-key", other: "other-key" };
export const CONTROL_TOKEN = "control-secret";

/** A service on a free port, shrunk for tests. */
export function start(options: ServiceOptions = {}): Promise<RunningService> {
  return startService({
    port: 0,
    keys: KEYS,
    reconcileMs: 5,
    heartbeatMs: 60_000,
    ringSize: 50,
    controlToken: CONTROL_TOKEN,
    ...options,
  });
}

export interface Answer {
  status: number;
  headers: Headers;
  text: string;
  json: any; // eslint-disable-line @typescript-eslint/no-explicit-any
}

export interface CallOptions {
  key?: string | null;
  bearer?: string;
  body?: unknown;
  rawBody?: string;
  headers?: Record<string, string>;
}

/** One request; `key` defaults to the demo workspace's key, `null` sends none. */
export async function call(svc: RunningService, method: string, path: string, o: CallOptions = {}): Promise<Answer> {
  const headers: Record<string, string> = { ...o.headers };
  const key = o.key === undefined ? KEYS.demo : o.key;
  if (o.bearer !== undefined) headers.authorization = `Bearer ${o.bearer}`;
  else if (key !== null) headers["x-api-key"] = key;
  let body: string | undefined = o.rawBody;
  if (o.body !== undefined) {
    body = JSON.stringify(o.body);
    headers["content-type"] ??= "application/json";
  }
  const res = await fetch(svc.url + path, { method, headers, body });
  const text = await res.text();
  let json: unknown;
  try {
    json = text === "" ? undefined : JSON.parse(text);
  } catch {
    json = undefined;
  }
  return { status: res.status, headers: res.headers, text, json };
}

/** Polls `check` until it returns a value other than undefined/false. */
export async function waitFor<T>(check: () => T | undefined | false | Promise<T | undefined | false>, timeoutMs = 5000): Promise<T> {
  const deadline = Date.now() + timeoutMs;
  for (;;) {
    const v = await check();
    if (v !== undefined && v !== false) return v;
    if (Date.now() > deadline) throw new Error("condition not met in time");
    await new Promise((r) => setTimeout(r, 5));
  }
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

let counter = 0;
/** A fresh DNS-label id per call, so tests sharing one service never collide. */
export function uid(prefix = "w"): string {
  return `${prefix}-${process.pid}-${++counter}`;
}

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
