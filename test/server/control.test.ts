import { ControlClient, type RunningService } from "../../server";
import { CONTROL_TOKEN, call, start, statusOf } from "./helpers";

let svc: RunningService;
let control: ControlClient;
beforeAll(async () => {
  svc = await start();
  control = new ControlClient(svc.url, CONTROL_TOKEN);
});
afterEach(() => control.clearFaults());
afterAll(() => svc.close());

describe("control auth", () => {
  it("should answer 401 without the right x-control-token", async () => {
    for (const headers of [{}, { "x-control-token": "wrong" }] as Array<Record<string, string>>) {
      const res = await fetch(`${svc.url}/_control/counters`, { headers });
      expect(res.status).toBe(401);
      expect(((await res.json()) as { error: { code: string } }).error.code).toBe("unauthorized");
    }
    await expect(new ControlClient(svc.url, "wrong").counters()).rejects.toThrow(/401 unauthorized/);
  });

  it("should not exist without a control token", async () => {
    const plain = await start({ controlToken: undefined });
    try {
      const res = await fetch(`${plain.url}/_control/counters`, { headers: { "x-control-token": CONTROL_TOKEN } });
      expect(res.status).toBe(404);
    } finally {
      await plain.close();
    }
  });

  it("should answer 400 for a fail body without a message and 404 for an unknown workload", async () => {
    const res = await fetch(`${svc.url}/_control/workloads/demo/x/fail`, {
      method: "POST",
      headers: { "x-control-token": CONTROL_TOKEN, "content-type": "application/json" },
      body: "{}",
    });
    expect(res.status).toBe(400);
    await expect(control.failWorkload("demo", "nope", "m")).rejects.toThrow(/404/);
  });
});

describe("faults", () => {
  it("should answer faulted /v1 requests with the error body and Retry-After, and change nothing", async () => {
    await control.setFaults({ errorRate: 1, errorStatuses: [503], retryAfterSeconds: 7 });
    const res = await call(svc, "POST", "/v1/tenants/demo/workloads/pod", { body: { id: "faulted", image: "x" } });
    expect(res.status).toBe(503);
    expect(res.json.error.code).toBe("unavailable");
    expect(res.headers.get("retry-after")).toBe("7");
    expect(res.headers.get("x-request-id")).toMatch(/^req_/);
    await control.clearFaults();
    expect((await statusOf(svc, "faulted")).status).toBe(404);
  });

  it("should use 429 rate_limited among the default statuses and stop after maxFaults", async () => {
    await control.setFaults({ errorRate: 1, errorStatuses: [429], maxFaults: 2 });
    const statuses: number[] = [];
    for (let i = 0; i < 3; i++) statuses.push((await call(svc, "GET", "/v1/tenants/demo/spec")).status);
    expect(statuses).toEqual([429, 429, 200]);
  });

  it("should apply only under pathPrefix, to the stream too, and never to /healthz or /_control", async () => {
    await control.setFaults({ errorRate: 1, errorStatuses: [500], pathPrefix: "/v1/tenants/demo/events" });
    expect((await call(svc, "GET", "/v1/tenants/demo/spec")).status).toBe(200);
    await control.resetCounters();
    const stream = await fetch(`${svc.url}/v1/tenants/demo/events/stream`, { headers: { "x-api-key": "demo-key" } });
    expect(stream.status).toBe(500);
    expect(((await stream.json()) as { error: { code: string } }).error.code).toBe("internal");
    expect((await control.counters()).requests.byRoute).toEqual({ "GET /v1/tenants/:name/events/stream": 1 });
    await control.setFaults({ errorRate: 1 });
    expect((await call(svc, "GET", "/healthz")).status).toBe(200);
    await expect(control.counters()).resolves.toBeDefined();
  });

  it("should add latency, fixed or within a range", async () => {
    await control.setFaults({ latencyMs: [60, 80] });
    const t0 = performance.now();
    expect((await call(svc, "GET", "/v1/tenants/demo/asks")).status).toBe(200);
    expect(performance.now() - t0).toBeGreaterThanOrEqual(55);
  });

  it("should refuse an invalid fault config with 400", async () => {
    await expect(control.setFaults({ errorRate: 2 })).rejects.toThrow(/400/);
    await expect(control.setFaults({ pathPrefix: "/other" })).rejects.toThrow(/400/);
  });
});

describe("counters", () => {
  it("should count requests by route pattern and status, and mutating ones, not control calls", async () => {
    await control.resetCounters();
    await call(svc, "POST", "/v1/tenants/demo/workloads/browser", { body: { id: "counted" } });
    await call(svc, "GET", "/v1/tenants/demo/workloads/counted/status");
    await call(svc, "GET", "/v1/tenants/demo/workloads/counted/status");
    await call(svc, "GET", "/v1/tenants/demo/workloads/none/status");
    const c = await control.counters();
    expect(c.requests.total).toBe(4);
    expect(c.requests.mutating).toBe(1);
    expect(c.requests.byRoute).toEqual({
      "POST /v1/tenants/:name/workloads/:type": 1,
      "GET /v1/tenants/:name/workloads/:id/status": 3,
    });
    expect(c.requests.byStatus).toEqual({ "202": 1, "200": 2, "404": 1 });
    await control.resetCounters();
    expect((await control.counters()).requests.total).toBe(0);
  });
});

describe("synthetic events", () => {
  it("should emit the requested number of task-update events with consecutive ids", async () => {
    // The other workspace is quiet, so nothing else takes ids in between.
    const r = await control.emitEvents("other", 20, 2000);
    expect(Number(r.lastId) - Number(r.firstId)).toBe(19);
    const pulse = (await call(svc, "GET", "/v1/tenants/other/pulse", { key: "other-key" })).json;
    expect(pulse.lastEventId).toBe(r.lastId);
  });
});
