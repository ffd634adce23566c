import { ControlClient, type RunningService } from "../../server";
import { CONTROL_TOKEN, DB, VM, call, start, statusOf, uid, waitFor, waitReady } from "./helpers";

let svc: RunningService;
let control: ControlClient;
beforeAll(async () => {
  svc = await start();
  control = new ControlClient(svc.url, CONTROL_TOKEN);
});
afterAll(() => svc.close());

const upsert = (type: string, body: unknown): ReturnType<typeof call> =>
  call(svc, "POST", `/v1/tenants/demo/workloads/${type}`, { body });

describe("POST /v1/tenants/{name}/workloads/{type}", () => {
  it("should accept a new workload with 202 and reconcile it Pending → Provisioning → Running", async () => {
    const id = uid();
    const res = await upsert("vm-ubuntu", VM(id));
    expect(res.status).toBe(202);
    expect(res.json).toEqual({ tenant: "demo", status: "accepted" });
    const s = await waitReady(svc, id);
    expect(s).toMatchObject({
      id,
      type: "vm-ubuntu",
      phase: "Running",
      generation: 1,
      observedGeneration: 1,
      restartCount: 0,
    });
    expect(typeof s.updatedAt).toBe("string");
    const phases = (await control.transitions("demo", id)).map((t) => t.phase);
    expect(phases).toEqual(["Pending", "Provisioning", "Running"]);
  });

  it("should accept every workload type", async () => {
    const bodies: Array<[string, Record<string, unknown>]> = [
      ["vm-ubuntu-desktop", VM(uid())],
      ["vm-windows", VM(uid())],
      ["pod", { id: uid(), image: "nginx:1.27", ports: [{ name: "http", port: 8080 }] }],
      ["browser", { id: uid(), cpu: "500m", memory: "512Mi" }],
      ["controller", { id: uid(), autodiscover: true }],
      ["storage", DB(uid(), { engine: "redis" })],
    ];
    for (const [type, body] of bodies) expect((await upsert(type, body)).status).toBe(202);
    for (const [, body] of bodies) await waitReady(svc, body.id as string);
  });

  it("should bump the generation on every accepted upsert, an identical one too, and reach it again", async () => {
    const id = uid();
    await upsert("pod", { id, image: "nginx" });
    await waitReady(svc, id);
    await upsert("pod", { id, image: "nginx" });
    expect((await statusOf(svc, id)).json.generation).toBe(2);
    const s = await waitReady(svc, id);
    expect(s).toMatchObject({ generation: 2, observedGeneration: 2 });
  });

  it("should answer 409 for an existing id of another type and leave it unchanged", async () => {
    const id = uid();
    await upsert("browser", { id });
    const res = await upsert("controller", { id });
    expect(res.status).toBe(409);
    expect(res.json.error).toMatchObject({ code: "conflict", details: [{ path: "id" }] });
    expect((await statusOf(svc, id)).json).toMatchObject({ type: "browser", generation: 1 });
  });

  it("should require credentials for a new VM but not on update", async () => {
    const id = uid();
    const noCreds = VM(id);
    delete noCreds.credentials;
    const missing = await upsert("vm-ubuntu", noCreds);
    expect(missing.status).toBe(400);
    expect(missing.json.error.details).toEqual([{ path: "credentials", message: "required when the VM is new" }]);
    expect((await statusOf(svc, id)).status).toBe(404);
    expect((await upsert("vm-ubuntu", VM(id))).status).toBe(202);
    expect((await upsert("vm-ubuntu", { ...noCreds, cpus: 4 })).status).toBe(202);
  });

  it("should refuse enabling aiDaemon without credentials, naming credentials", async () => {
    const id = uid();
    await upsert("vm-ubuntu", VM(id));
    const res = await upsert("vm-ubuntu", { id, aiDaemon: { enabled: true } });
    expect(res.status).toBe(400);
    expect(res.json.error.details[0].path).toBe("credentials");
  });

  it("should set storage credentials once: the same password is fine, a different one is 409", async () => {
    const id = uid();
    await upsert("storage", DB(id));
    expect((await upsert("storage", DB(id, { tls: true }))).status).toBe(202);
    const res = await upsert("storage", DB(id, { credentials: { password: "another-password" } }));
    expect(res.status).toBe(409);
    expect(res.json.error.details[0].path).toBe("credentials.password");
    expect(res.text).not.toContain("another-password");
    expect((await statusOf(svc, id)).json.generation).toBe(2);
  });

  it("should reject backup for redis and placement with both region and host", async () => {
    const redis = await upsert("storage", DB(uid(), { engine: "redis", backup: { enabled: true } }));
    expect(redis.json.error.details[0].path).toBe("backup");
    const both = await upsert("vm-ubuntu", VM(uid(), { placement: { region: "eu-central", host: "eu-central-1" } }));
    expect(both.status).toBe(400);
    expect(both.json.error.details[0].path).toBe("placement.host");
  });

  it("should report the endpoint of exposed storage and of pods with ports", async () => {
    const pg = uid("pg");
    const redis = uid("rd");
    const pod = uid("pod");
    await upsert("storage", DB(pg, { network: { exposed: true } }));
    await upsert("storage", DB(redis, { engine: "redis", network: { exposed: true } }));
    await upsert("pod", { id: pod, image: "x", ports: [{ name: "web", port: 3000 }] });
    expect((await statusOf(svc, pg)).json.endpoint).toBe(`${pg}.demo.workloads.localhost:5432`);
    expect((await statusOf(svc, redis)).json.endpoint).toBe(`${redis}.demo.workloads.localhost:6380`);
    expect((await statusOf(svc, pod)).json.endpoint).toBe(`${pod}.demo.workloads.localhost:3000`);
    const closed = uid();
    await upsert("storage", DB(closed));
    expect((await statusOf(svc, closed)).json.endpoint).toBeUndefined();
  });

  it("should report the admin console, ready only one step after Running", async () => {
    const id = uid("db");
    await upsert("storage", DB(id, { adminConsole: true }));
    const first = (await statusOf(svc, id)).json;
    expect(first).toMatchObject({ adminUrl: `https://${id}-admin-demo.workloads.localhost`, adminReady: false });
    await waitFor(async () => (await statusOf(svc, id)).json.adminReady === true);
    const actions = (await call(svc, "GET", "/v1/tenants/demo/activity?limit=1000")).json.rows
      .filter((r: { target: { id: string } }) => r.target.id === id)
      .map((r: { action: string; detail: { phase?: string } }) => r.detail.phase ?? r.action);
    expect(actions.slice(-2)).toEqual(["Running", "workload.admin-ready"]);
  });
});

describe("GET /v1/tenants/{name}/workloads/{id}/status", () => {
  it("should answer 404 with the error body for an unknown id", async () => {
    const res = await statusOf(svc, "nope");
    expect(res.status).toBe(404);
    expect(res.json.error.code).toBe("not_found");
  });
});

describe("POST /v1/tenants/{name}/workloads/{id}/restart", () => {
  it("should go Restarting → Running, bump generation and restartCount", async () => {
    const id = uid();
    await upsert("browser", { id });
    await waitReady(svc, id);
    const res = await call(svc, "POST", `/v1/tenants/demo/workloads/${id}/restart`);
    expect(res.status).toBe(200);
    expect(res.json).toEqual({ tenant: "demo", id, status: "restarting" });
    const s = await waitReady(svc, id);
    expect(s).toMatchObject({ generation: 2, observedGeneration: 2, restartCount: 1 });
    expect((await control.transitions("demo", id)).map((t) => t.phase).slice(-2)).toEqual(["Restarting", "Running"]);
  });

  it("should answer 404 for an unknown id and 409 while deleting", async () => {
    expect((await call(svc, "POST", "/v1/tenants/demo/workloads/nope/restart")).status).toBe(404);
    const id = uid();
    await upsert("browser", { id });
    await control.pauseReconciler();
    try {
      await call(svc, "DELETE", `/v1/tenants/demo/workloads/${id}`);
      const res = await call(svc, "POST", `/v1/tenants/demo/workloads/${id}/restart`);
      expect(res.status).toBe(409);
      expect(res.json.error.code).toBe("conflict");
    } finally {
      await control.resumeReconciler();
    }
  });
});

describe("DELETE /v1/tenants/{name}/workloads/{id}", () => {
  it("should go Deleting → gone (404), take it out of the spec and remove its secret", async () => {
    const id = uid();
    await upsert("storage", DB(id));
    await waitReady(svc, id);
    await control.pauseReconciler();
    const res = await call(svc, "DELETE", `/v1/tenants/demo/workloads/${id}`);
    expect(res.status).toBe(202);
    expect((await statusOf(svc, id)).json.phase).toBe("Deleting");
    expect(JSON.stringify((await call(svc, "GET", "/v1/tenants/demo/spec")).json)).not.toContain(id);
    expect((await call(svc, "POST", "/v1/tenants/demo/workloads/storage", { body: DB(id) })).status).toBe(409);
    await control.resumeReconciler();
    await waitFor(async () => (await statusOf(svc, id)).status === 404);
    const secrets = (await call(svc, "GET", "/v1/tenants/demo/secrets")).json.secrets.map(
      (s: { path: string }) => s.path,
    );
    expect(secrets).not.toContain(`workloads/${id}/credentials`);
    expect((await control.transitions("demo", id)).map((t) => t.phase).slice(-2)).toEqual(["Deleting", "Gone"]);
    expect((await call(svc, "DELETE", `/v1/tenants/demo/workloads/${id}`)).status).toBe(404);
  });
});

describe("reconciler", () => {
  it("should make no phase change while paused and continue on resume", async () => {
    await control.pauseReconciler();
    const id = uid();
    try {
      await upsert("controller", { id });
      // Another request round-trip gives a running reconciler ample time to step (reconcileMs 5).
      await new Promise((r) => setTimeout(r, 50));
      expect((await statusOf(svc, id)).json.phase).toBe("Pending");
    } finally {
      await control.resumeReconciler();
    }
    await waitReady(svc, id);
  });

  it("should set Failed with the message from any phase, and recover on restart", async () => {
    const id = uid();
    await upsert("pod", { id, image: "x" });
    await control.failWorkload("demo", id, "image pull failed");
    const failed = (await statusOf(svc, id)).json;
    expect(failed).toMatchObject({ phase: "Failed", message: "image pull failed" });
    await call(svc, "POST", `/v1/tenants/demo/workloads/${id}/restart`);
    expect((await waitReady(svc, id)).message).toBeUndefined();
  });

  it("should record transitions with sub-millisecond epoch timestamps in order", async () => {
    const id = uid();
    await upsert("browser", { id });
    await waitReady(svc, id);
    const t = await control.transitions("demo", id);
    expect(t.every((x) => x.generation === 1 && x.at > 1.6e12)).toBe(true);
    expect([...t].sort((a, b) => a.at - b.at)).toEqual(t);
  });
});
