import { ControlClient, type RunningService } from "../../server";
import { CONTROL_TOKEN, VM, call, start, statusOf, uid, waitFor } from "./helpers";

const POD = (id: string, image = "nginx:1.27") => ({ id, image, ports: [{ name: "http", port: 80 }] });

describe("service profile spec", () => {
  let svc: RunningService;
  let control: ControlClient;
  beforeAll(async () => {
    svc = await start({ profile: "spec" });
    control = new ControlClient(svc.url, CONTROL_TOKEN);
  });
  afterAll(() => svc.close());

  it("should answer /status, /activity, /pulse and restart with only what the published spec names", async () => {
    const id = uid("p");
    expect((await call(svc, "POST", "/v1/tenants/demo/workloads/pod", { body: POD(id) })).json).toEqual({
      tenant: "demo",
      status: "accepted",
    });
    const status = await waitFor(async () =>
      (await statusOf(svc, id)).json.phase === "Running" ? (await statusOf(svc, id)).json : undefined,
    );
    expect(Object.keys(status).sort()).toEqual(["id", "phase", "type"]);
    const restart = await call(svc, "POST", `/v1/tenants/demo/workloads/${id}/restart`);
    expect(restart).toMatchObject({ status: 200, json: {} });
    const rows = (await call(svc, "GET", "/v1/tenants/demo/activity")).json.rows as Array<Record<string, unknown>>;
    expect(rows.length).toBeGreaterThan(0);
    for (const row of rows) expect(Object.keys(row).sort()).toEqual(["action", "actor", "at", "id"]);
    expect(Object.keys((await call(svc, "GET", "/v1/tenants/demo/pulse")).json)).toEqual(["agents"]);
    // The endpoints the provider needs for a lifecycle stay: the tenant spec and delete.
    expect((await call(svc, "GET", "/v1/tenants/demo/spec")).json.workloads).toContainEqual({
      id,
      type: "pod",
      spec: { image: "nginx:1.27", ports: [{ name: "http", port: 80 }] },
    });
    expect((await call(svc, "DELETE", `/v1/tenants/demo/workloads/${id}`)).status).toBe(202);
  });

  it("should still show its own full record through /_control", async () => {
    const id = uid("c");
    await call(svc, "POST", "/v1/tenants/demo/workloads/pod", { body: POD(id) });
    const record = await waitFor(async () => {
      const r = await control.workload("demo", id);
      return r?.phase === "Running" ? r : undefined;
    });
    expect(record).toMatchObject({
      id,
      generation: 1,
      observedGeneration: 1,
      restartCount: 0,
      endpoint: `${id}.demo.workloads.localhost:80`,
      spec: { image: "nginx:1.27" },
    });
    expect(await control.workload("demo", "never-was")).toBeUndefined();
  });
});

describe("service transitions", () => {
  it("should be Running for the new generation before answering, with transitions instant", async () => {
    const svc = await start({ transitions: "instant", reconcileMs: 60_000 });
    try {
      const id = uid("i");
      await call(svc, "POST", "/v1/tenants/demo/workloads/vm-ubuntu", { body: VM(id) });
      expect((await statusOf(svc, id)).json).toMatchObject({ phase: "Running", generation: 1, observedGeneration: 1 });
      await call(svc, "POST", "/v1/tenants/demo/workloads/vm-ubuntu", { body: VM(id, { cpus: 4 }) });
      expect((await statusOf(svc, id)).json).toMatchObject({ phase: "Running", generation: 2, observedGeneration: 2 });
      await call(svc, "POST", `/v1/tenants/demo/workloads/${id}/restart`);
      expect((await statusOf(svc, id)).json).toMatchObject({
        phase: "Running",
        generation: 3,
        observedGeneration: 3,
        restartCount: 1,
      });
    } finally {
      await svc.close();
    }
  });

  it("should never leave Running on an update or restart with transitions in-place, applying it after the delay", async () => {
    const svc = await start({ transitions: "in-place", inPlaceDelayMs: 150 });
    const control = new ControlClient(svc.url, CONTROL_TOKEN);
    try {
      const id = uid("ip");
      await call(svc, "POST", "/v1/tenants/demo/workloads/pod", { body: POD(id) });
      await waitFor(async () => (await statusOf(svc, id)).json.phase === "Running");
      await call(svc, "POST", "/v1/tenants/demo/workloads/pod", { body: POD(id, "nginx:1.28") });
      expect((await statusOf(svc, id)).json).toMatchObject({ phase: "Running", generation: 2, observedGeneration: 1 });
      expect((await control.workload("demo", id))?.spec).toMatchObject({ image: "nginx:1.28" });
      await waitFor(async () => (await statusOf(svc, id)).json.observedGeneration === 2);
      await call(svc, "POST", `/v1/tenants/demo/workloads/${id}/restart`);
      expect((await statusOf(svc, id)).json).toMatchObject({ phase: "Running", generation: 3, observedGeneration: 2 });
      await waitFor(async () => (await statusOf(svc, id)).json.observedGeneration === 3);
      const phases = (await control.transitions("demo", id)).map((t) => `${t.phase}@${t.generation}`);
      expect(phases).toEqual(["Pending@1", "Provisioning@1", "Running@1", "Running@2", "Running@3"]);
    } finally {
      await svc.close();
    }
  });

  it("should refuse an unknown profile or transitions mode, naming the option", async () => {
    await expect(start({ profile: "hosted" as never })).rejects.toThrow(/^profile: must be one of full, spec/);
    await expect(start({ transitions: "slow" as never })).rejects.toThrow(
      /^transitions: must be one of visible, instant, in-place/,
    );
  });
});
