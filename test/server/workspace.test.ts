import type { RunningService } from "../../server";
import { DB, VM, call, start, uid, waitReady } from "./helpers";

let svc: RunningService;
beforeAll(async () => {
  svc = await start({
    fleet: {
      regions: [
        { name: "north", hosts: [{ name: "n1", capacity: { cpus: 8, memory: "16Gi" } }] },
        {
          name: "south",
          hosts: [
            { name: "s1", capacity: { cpus: 4, memory: "8Gi" } },
            { name: "s2", capacity: { cpus: 4, memory: "8Gi" } },
          ],
        },
      ],
    },
  });
});
afterAll(() => svc.close());

describe("GET /v1/tenants/{name}/spec", () => {
  it("should list workloads with their spec and never their credentials", async () => {
    const id = uid();
    await call(svc, "POST", "/v1/tenants/demo/workloads/storage", { body: DB(id, { version: "16" }) });
    const res = await call(svc, "GET", "/v1/tenants/demo/spec");
    expect(res.status).toBe(200);
    expect(res.json.name).toBe("demo");
    expect(res.json.generation).toBeGreaterThan(0);
    expect(res.json.workloads).toContainEqual({ id, type: "storage", spec: { engine: "postgres", version: "16" } });
    expect(res.text).not.toContain("credentials");
  });
});

describe("GET /v1/tenants/{name}/pulse", () => {
  it("should hold lastEventId, the workloads with their phase and the agents of aiDaemon VMs", async () => {
    const id = uid("vm");
    await call(svc, "POST", "/v1/tenants/demo/workloads/vm-ubuntu", { body: VM(id, { aiDaemon: { enabled: true } }) });
    await waitReady(svc, id);
    const pulse = (await call(svc, "GET", "/v1/tenants/demo/pulse")).json;
    expect(pulse.lastEventId).toMatch(/^[0-9]+$/);
    expect(pulse.workloads).toContainEqual({ id, type: "vm-ubuntu", phase: "Running" });
    expect(pulse.agents[`daemon:${id}`]).toEqual({ busy: false, sleeping: false, sessions: 0, tasks: 0 });
  });
});

describe("GET /v1/tenants/{name}/activity", () => {
  it("should page forward with after and limit, in id order", async () => {
    const all = (await call(svc, "GET", "/v1/tenants/demo/activity?limit=1000")).json.rows;
    expect(all.length).toBeGreaterThan(3);
    const ids = all.map((r: { id: string }) => Number(r.id));
    expect([...ids].sort((a, b) => a - b)).toEqual(ids);
    const page = (await call(svc, "GET", `/v1/tenants/demo/activity?after=${all[0].id}&limit=2`)).json.rows;
    expect(page).toEqual(all.slice(1, 3));
    expect(all[0]).toEqual({
      id: expect.stringMatching(/^[0-9]+$/),
      at: expect.any(String),
      actor: "api",
      action: "workload.created",
      target: { type: "workload", id: expect.any(String) },
      detail: expect.any(Object),
    });
  });

  it("should answer 400 naming after or limit when they are not integers in range", async () => {
    for (const q of ["after=abc", "limit=0", "limit=5000", "after=-1"]) {
      const res = await call(svc, "GET", `/v1/tenants/demo/activity?${q}`);
      expect(res.status).toBe(400);
      expect(res.json.error.details[0].path).toBe(q.split("=")[0]);
    }
  });
});

describe("GET /v1/tenants/{name}/asks and /secrets", () => {
  it("should answer asks as an empty list", async () => {
    expect((await call(svc, "GET", "/v1/tenants/demo/asks")).json).toEqual({ asks: [] });
  });

  it("should list secret paths and update times only", async () => {
    const id = uid();
    await call(svc, "POST", "/v1/tenants/demo/workloads/storage", { body: DB(id) });
    const secrets = (await call(svc, "GET", "/v1/tenants/demo/secrets")).json.secrets;
    const mine = secrets.find((s: { path: string }) => s.path === `workloads/${id}/credentials`);
    expect(mine).toEqual({ path: `workloads/${id}/credentials`, updatedAt: expect.any(String) });
  });
});

describe("GET /v1/fleet/hosts", () => {
  it("should answer the configured fleet to any valid key, with free capacity after placement", async () => {
    const before = (await call(svc, "GET", "/v1/fleet/hosts", { key: "other-key" })).json;
    expect(before.regions.map((r: { name: string }) => r.name)).toEqual(["north", "south"]);
    expect(before.regions[0].hosts[0]).toEqual({
      name: "n1",
      capacity: { cpus: 8, memory: "16Gi" },
      free: expect.any(Object),
    });
    const id = uid();
    await call(svc, "POST", "/v1/tenants/demo/workloads/vm-ubuntu", {
      body: VM(id, { cpus: 2, memory: "4Gi", placement: { host: "s2" } }),
    });
    const after = (await call(svc, "GET", "/v1/fleet/hosts")).json;
    expect(after.regions[1].hosts[1].free).toEqual({ cpus: 2, memory: "4Gi" });
  });

  it("should answer 400 naming placement.region or placement.host when unknown", async () => {
    const region = await call(svc, "POST", "/v1/tenants/demo/workloads/vm-ubuntu", {
      body: VM(uid(), { placement: { region: "mars" } }),
    });
    expect(region.status).toBe(400);
    expect(region.json.error.details[0].path).toBe("placement.region");
    const host = await call(svc, "POST", "/v1/tenants/demo/workloads/vm-ubuntu", {
      body: VM(uid(), { placement: { host: "x9" } }),
    });
    expect(host.status).toBe(400);
    expect(host.json.error.details[0].path).toBe("placement.host");
    expect(
      (
        await call(svc, "POST", "/v1/tenants/demo/workloads/vm-ubuntu", {
          body: VM(uid(), { placement: { region: "south" } }),
        })
      ).status,
    ).toBe(202);
  });
});

describe("GET /healthz and /v1/openapi.json", () => {
  it("should answer without a key", async () => {
    expect((await call(svc, "GET", "/healthz", { key: null })).json).toEqual({ ok: true });
    const doc = await call(svc, "GET", "/v1/openapi.json", { key: null });
    expect(doc.json.openapi).toBe("3.1.0");
  });
});
