import {
  AbortedError,
  InvalidOptionError,
  NotFoundError,
  RequestTimeoutError,
  ResponseValidationError,
  ServerError,
  RetriesExhaustedError,
  UnavailableError,
  WorkspaceClient,
  type ClientOptions,
} from "../../sdk";
import { openPools } from "../../sdk/http/pools";
import { backoffClock } from "./backoff-clock";
import { fail, fakeServer, freePort, json, type FakeServer } from "./fake-server";

const KEY = "sk-test-0123456789";
const status = {
  id: "web",
  type: "pod",
  phase: "Running",
  updatedAt: "2030-01-01T00:00:00Z",
  generation: 1,
  observedGeneration: 1,
};
const template = { id: "tpl_ab", name: "t", kind: "pod", config: { pod: {} }, createdAt: "2030-01-01T00:00:00Z" };

/** Plausible answers for every route the client calls. */
function routeAnswer(method: string, url: string): [number, unknown] {
  const path = url.split("?")[0];
  if (method === "POST" && /\/restart$/.test(path)) return [200, { tenant: "demo", id: "web", status: "restarting" }];
  if (method === "POST" && /\/workloads\/[^/]+$/.test(path)) return [202, { tenant: "demo", status: "accepted" }];
  if (method === "POST" && path.endsWith("/templates")) return [201, template];
  if (method === "DELETE" && path.includes("/workloads/")) return [202, { status: "deleting" }];
  if (method === "DELETE") return [204, undefined];
  if (path.endsWith("/status")) return [200, status];
  if (path.endsWith("/spec")) return [200, { name: "demo", generation: 1, workloads: [] }];
  if (path.endsWith("/templates")) return [200, { templates: [template] }];
  if (path.includes("/templates/")) return [200, template];
  if (path.endsWith("/pulse")) return [200, { lastEventId: "7", agents: {} }];
  if (path.endsWith("/activity")) return [200, { rows: [{ id: "1", action: "workload.created" }] }];
  if (path.endsWith("/asks")) return [200, { asks: [] }];
  if (path.endsWith("/secrets")) return [200, { secrets: [{ path: "workloads/web/credentials" }] }];
  if (path.endsWith("/fleet/hosts")) return [200, { regions: [] }];
  return [404, { error: { code: "not_found", message: "no such route" } }];
}

describe("WorkspaceClient", () => {
  let server: FakeServer;
  let client: WorkspaceClient;
  const clients: WorkspaceClient[] = [];
  const make = (over: Partial<ClientOptions> = {}): WorkspaceClient => {
    const c = new WorkspaceClient({
      baseUrl: server.url,
      workspace: "demo",
      apiKey: KEY,
      retry: { initialDelayMs: 10, maxDelayMs: 50 },
      ...over,
    });
    clients.push(c);
    return c;
  };
  let handler: (method: string, url: string, res: import("node:http").ServerResponse, index: number) => void;

  beforeEach(async () => {
    handler = (method, url, res) => {
      const [code, body] = routeAnswer(method, url);
      if (body === undefined) {
        res.writeHead(code);
        res.end();
      } else json(res, code, body);
    };
    server = await fakeServer((_req, res, rec, i) => handler(rec.method, rec.url, res, i));
    client = make();
  });

  afterEach(async () => {
    await Promise.all(clients.splice(0).map((c) => c.close()));
    await server.close();
  });

  it("should call every route of the contract with the key, a user agent and encoded path parameters", async () => {
    await client.upsertWorkload("pod", { id: "web", image: "nginx" });
    await client.getStatus("a/b");
    await client.restartWorkload("web");
    await client.deleteWorkload("web");
    await client.getSpec();
    await client.createTemplate({ name: "t", kind: "pod", config: { pod: {} } });
    await client.listTemplates();
    await client.getTemplate("tpl_ab");
    await client.deleteTemplate("tpl_ab");
    await client.getPulse();
    await client.listActivity({ after: 5, limit: 10 });
    await client.listAsks();
    await client.listSecrets();
    await client.getFleetHosts();
    expect(server.requests.map((r) => `${r.method} ${r.url}`)).toEqual([
      "POST /v1/tenants/demo/workloads/pod",
      "GET /v1/tenants/demo/workloads/a%2Fb/status",
      "POST /v1/tenants/demo/workloads/web/restart",
      "DELETE /v1/tenants/demo/workloads/web",
      "GET /v1/tenants/demo/spec",
      "POST /v1/tenants/demo/templates",
      "GET /v1/tenants/demo/templates",
      "GET /v1/tenants/demo/templates/tpl_ab",
      "DELETE /v1/tenants/demo/templates/tpl_ab",
      "GET /v1/tenants/demo/pulse",
      "GET /v1/tenants/demo/activity?after=5&limit=10",
      "GET /v1/tenants/demo/asks",
      "GET /v1/tenants/demo/secrets",
      "GET /v1/fleet/hosts",
    ]);
    for (const r of server.requests) {
      expect(r.headers["x-api-key"]).toBe(KEY);
      expect(r.headers["user-agent"]).toMatch(/^pulumi-wws-sdk\/\d+\.\d+\.\d+/);
    }
    expect(JSON.parse(server.requests[0].body)).toEqual({ id: "web", image: "nginx" });
    expect(server.requests[0].headers["content-type"]).toBe("application/json");
  });

  it("should keep a path prefix of the base URL", async () => {
    const prefixed = make({ baseUrl: `${server.url}/api/` });
    await prefixed.getSpec();
    expect(server.requests[0].url).toBe("/api/v1/tenants/demo/spec");
  });

  it("should keep unknown response fields", async () => {
    handler = (_m, _u, res) => json(res, 200, { ...status, futureField: { x: 1 } });
    expect(await client.getStatus("web")).toMatchObject({ futureField: { x: 1 } });
  });

  it("should reject a body that does not match the schema with the zod issues", async () => {
    handler = (_m, _u, res) => json(res, 200, { id: "web" }, { "x-request-id": "req_bad" });
    const err = await client.getStatus("web").catch((e: unknown) => e);
    expect(err).toBeInstanceOf(ResponseValidationError);
    expect((err as ResponseValidationError).issues[0].path).toBe("phase");
    expect((err as ResponseValidationError).requestId).toBe("req_bad");
  });

  it("should reject a body that is not JSON", async () => {
    handler = (_m, _u, res) => {
      res.writeHead(200, { "content-type": "text/html" });
      res.end("<html>");
    };
    await expect(client.getSpec()).rejects.toThrow(ResponseValidationError);
  });

  it("should throw NotFoundError for a missing workload", async () => {
    handler = (_m, _u, res) => fail(res, 404, "not_found");
    await expect(client.getStatus("nope")).rejects.toThrow(NotFoundError);
    await expect(client.deleteWorkload("nope")).rejects.toThrow(NotFoundError);
    expect(server.requests).toHaveLength(2);
  });

  it("should fail a 501 at once, naming the request the service lacks and not inviting a retry", async () => {
    handler = (_m, _u, res) => fail(res, 501, "not_implemented");
    const err = await client.deleteWorkload("web").catch((e: unknown) => e);
    expect(err).toBeInstanceOf(ServerError);
    expect((err as ServerError).message).toContain(
      "The service does not implement this operation (DELETE /v1/tenants/demo/workloads/web): retrying will not help.",
    );
    expect((err as ServerError).message).not.toMatch(/try again/i);
    expect(server.requests).toHaveLength(1);
  });

  it("should throw a final answer that follows a retry as it is, not as retries exhausted", async () => {
    handler = (_m, _u, res, i) =>
      i === 0 ? fail(res, 503, "unavailable", { "retry-after": "0" }) : fail(res, 404, "not_found");
    await expect(client.getStatus("nope")).rejects.toThrow(NotFoundError);
    expect(server.requests).toHaveLength(2);
  });

  it("should retry the upsert: the same body asks for the same state", async () => {
    handler = (m, u, res, i) =>
      i < 2 ? fail(res, 500, "internal") : json(res, ...(routeAnswer(m, u) as [number, unknown]));
    await expect(client.upsertWorkload("pod", { id: "web", image: "nginx" })).resolves.toEqual({
      tenant: "demo",
      status: "accepted",
    });
    expect(server.requests).toHaveLength(3);
  });

  it("should not retry a restart or a template create whose outcome is unknown (a 500 after sending)", async () => {
    handler = (_m, _u, res) => fail(res, 500, "internal");
    await expect(client.restartWorkload("web")).rejects.toThrow(ServerError);
    await expect(client.createTemplate({ name: "t", kind: "pod", config: { pod: {} } })).rejects.toThrow(ServerError);
    expect(server.requests).toHaveLength(2);
  });

  it("should retry a restart or a template create the service refused (429, 503: not processed)", async () => {
    let n = 0;
    handler = (m, u, res) =>
      n++ % 2 === 0
        ? fail(res, n % 4 === 1 ? 429 : 503, "refused", { "retry-after": "0" })
        : json(res, ...(routeAnswer(m, u) as [number, unknown]));
    await expect(client.restartWorkload("web")).resolves.toMatchObject({ status: "restarting" });
    await expect(client.createTemplate({ name: "t", kind: "pod", config: { pod: {} } })).resolves.toMatchObject({
      id: "tpl_ab",
    });
    expect(server.requests).toHaveLength(4);
  });

  it("should retry a restart whose connection was refused", async () => {
    const port = await freePort();
    const c = make({
      baseUrl: `http://127.0.0.1:${port}`,
      retry: { initialDelayMs: 200, maxDelayMs: 200, maxAttempts: 10 },
    });
    const pending = c.restartWorkload("web");
    await new Promise((r) => setTimeout(r, 50));
    const late = await fakeServer((_q, res) => json(res, 200, { status: "restarting" }), port);
    try {
      await expect(pending).resolves.toEqual({ status: "restarting" });
      expect(late.requests).toHaveLength(1);
    } finally {
      await late.close();
    }
  });

  it("should give up after maxAttempts and say so", async () => {
    handler = (_m, _u, res) => fail(res, 502, "internal");
    const err = await make({ retry: { maxAttempts: 3, initialDelayMs: 1, maxDelayMs: 1 } })
      .getSpec()
      .catch((e: unknown) => e);
    expect(err).toBeInstanceOf(RetriesExhaustedError);
    expect((err as RetriesExhaustedError).lastError).toBeInstanceOf(ServerError);
    expect((err as RetriesExhaustedError).attempts).toBe(3);
    expect((err as Error).message).toMatch(/gave up after 3 attempts/);
    expect(server.requests).toHaveLength(3);
  });

  it("should stop retrying when maxElapsedMs is spent", async () => {
    handler = (_m, _u, res) => fail(res, 503, "unavailable", { "retry-after": "0.1" });
    // Backoffs of exactly 100 ms, skipped on a virtual clock: attempts at 0, 100, 200 and 300 ms;
    // a fifth would start at 400 ms, past the 350 ms budget, long before 100 attempts.
    const { clock, timers } = backoffClock(100, { skip: true });
    const call = make({
      clock,
      random: () => 0,
      retry: { maxAttempts: 100, initialDelayMs: 1, maxElapsedMs: 350 },
    }).getSpec();
    await expect(call).rejects.toThrow(RetriesExhaustedError);
    await expect(call.catch((e: RetriesExhaustedError) => e.lastError)).resolves.toBeInstanceOf(UnavailableError);
    await expect(call).rejects.toThrow(/gave up after 4 attempts in 0\.3 s/);
    expect(server.requests).toHaveLength(4);
    expect(timers.map((t) => t.state)).toEqual(["fired", "fired", "fired"]);
  });

  it("should retry until the call's deadline, however many attempts that takes", async () => {
    let refused = 0;
    handler = (_m, _u, res) =>
      ++refused <= 6
        ? fail(res, 429, "rate_limited", { "retry-after": "0" })
        : json(res, 200, { name: "demo", workloads: [] });
    await expect(
      make({ retry: { maxAttempts: 2, initialDelayMs: 1, maxDelayMs: 1 } }).getSpec({ deadline: Date.now() + 60_000 }),
    ).resolves.toEqual(expect.objectContaining({ workloads: [] }));
    expect(server.requests).toHaveLength(7);
  });

  it("should give up at the deadline with the service's error", async () => {
    handler = (_m, _u, res) => fail(res, 503, "unavailable", { "retry-after": "1" });
    // Backoffs of exactly 1 s, skipped on a virtual clock: attempts at 0 and 1 s; a third would
    // start at 2 s, past the deadline at 1.5 s.
    const { clock } = backoffClock(1000, { skip: true });
    const call = make({ clock, random: () => 0, retry: { maxAttempts: 100 } }).getSpec({
      deadline: clock.now() + 1_500,
    });
    const err = await call.catch((e: unknown) => e);
    expect(err).toBeInstanceOf(RetriesExhaustedError);
    expect((err as RetriesExhaustedError).lastError).toBeInstanceOf(UnavailableError);
    expect(server.requests).toHaveLength(2);
  });

  it("should give up a call with a deadline once its attempts have had no answer for the unreachable window", async () => {
    handler = () => undefined; // never answers: each attempt times out
    const c = make({ timeoutMs: 100, retry: { initialDelayMs: 1, maxDelayMs: 1, unreachableGiveUpMs: 400 } });
    const started = Date.now();
    const err = await c.getSpec({ deadline: started + 60_000 }).catch((e: unknown) => e);
    expect(err).toBeInstanceOf(RetriesExhaustedError);
    expect((err as RetriesExhaustedError).lastError).toBeInstanceOf(RequestTimeoutError);
    // The window counts from the first silent attempt's start: 4 or 5 attempts of 100 ms, far from the deadline.
    expect(Date.now() - started).toBeLessThan(2_000);
    expect(server.requests.length).toBeGreaterThanOrEqual(4);
  });

  it("should time out an attempt with RequestTimeoutError", async () => {
    handler = () => undefined; // never answers
    const c = make({ timeoutMs: 100, retry: { maxAttempts: 2, initialDelayMs: 1, maxDelayMs: 1 } });
    const err = await c.getSpec().catch((e: unknown) => e);
    expect(err).toBeInstanceOf(RetriesExhaustedError);
    expect((err as RetriesExhaustedError).lastError).toBeInstanceOf(RequestTimeoutError);
    expect(server.requests).toHaveLength(2);
    await expect(c.getSpec({ timeoutMs: 50 })).rejects.toThrow(/timed out after 50 ms/);
  });

  it("should abort a call in flight and during a backoff", async () => {
    handler = () => undefined;
    const ac = new AbortController();
    setTimeout(() => ac.abort(), 50);
    await expect(client.getSpec({ signal: ac.signal })).rejects.toThrow(AbortedError);
    handler = (_m, _u, res) => fail(res, 503, "unavailable", { "retry-after": "10" });
    const ac2 = new AbortController();
    // Aborted as the 10 s backoff begins: the backoff is cut short, not waited out.
    const { clock, timers } = backoffClock(10_000, { onSet: () => setImmediate(() => ac2.abort()) });
    await expect(
      make({ clock, random: () => 0, retry: { maxElapsedMs: 60_000 } }).getSpec({ signal: ac2.signal }),
    ).rejects.toThrow(AbortedError);
    expect(timers.map((t) => t.state)).toEqual(["cleared"]);
    await expect(client.getSpec({ signal: AbortSignal.abort() })).rejects.toThrow(AbortedError);
  });

  it("should reject invalid options in the constructor, naming the option and never the key", () => {
    const base = { baseUrl: "http://127.0.0.1:1", workspace: "demo", apiKey: KEY };
    const cases: Array<[Partial<ClientOptions>, string]> = [
      [{ baseUrl: "ftp://x" }, "baseUrl"],
      [{ baseUrl: "not a url" }, "baseUrl"],
      [{ baseUrl: `http://user:${KEY}@host` }, "baseUrl"],
      [{ workspace: "Demo_1" }, "workspace"],
      [{ apiKey: "" }, "apiKey"],
      [{ apiKey: `${KEY} x` }, "apiKey"],
      [{ timeoutMs: 0 }, "timeoutMs"],
      [{ retry: { maxAttempts: 0 } }, "retry.maxAttempts"],
      [{ retry: { initialDelayMs: 100, maxDelayMs: 10 } }, "retry.maxDelayMs"],
      [{ retry: { maxElapsedMs: -1 } }, "retry.maxElapsedMs"],
      [{ userAgent: "a\nb" }, "userAgent"],
      [{ stream: { heartbeatMs: 0 } }, "stream.heartbeatMs"],
    ];
    for (const [over, option] of cases) {
      let caught: unknown;
      try {
        new WorkspaceClient({ ...base, ...over } as ClientOptions);
      } catch (e) {
        caught = e;
      }
      expect(caught).toBeInstanceOf(InvalidOptionError);
      expect((caught as InvalidOptionError).option).toBe(option);
      expect((caught as Error).message).not.toContain(KEY);
    }
  });

  it("should reject invalid call options", async () => {
    await expect(client.getSpec({ timeoutMs: -1 })).rejects.toThrow(InvalidOptionError);
  });

  it("should share one pool per origin and close it with the last client", async () => {
    const key = `requests ${new URL(server.url).origin}`;
    const other = make();
    expect(openPools().get(key)).toBe(2);
    await other.close();
    await other.close();
    expect(openPools().get(key)).toBe(1);
    await client.close();
    expect(openPools().has(key)).toBe(false);
    await expect(client.getSpec()).rejects.toThrow(/client is closed/);
  });
});
