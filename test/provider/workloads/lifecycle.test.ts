import type { WorkspaceClient } from "../../../sdk";
import {
  KEY,
  PASSWORD,
  STUB,
  apiRequests,
  change,
  startHarness,
  uid,
  up,
  withoutCredentials,
  type Harness,
} from "../harness";
import { forgetSpecs } from "../../../provider/dynamic/service/shared-spec";
import { createWorkloadProvider } from "../../../provider/dynamic/workloads/provider";

const CREATE_ROUTE = "POST /v1/tenants/:name/workloads/:type";
const RESTART_ROUTE = "POST /v1/tenants/:name/workloads/:id/restart";

describe("workload provider against the local service", () => {
  let h: Harness;
  let client: WorkspaceClient;
  beforeAll(async () => {
    h = await startHarness();
    client = h.client;
  });
  afterAll(() => h.close());
  // Each test is a deployment of its own: workloads made outside the provider between two tests
  // must be seen by the next one's checks, as a new provider process would see them.
  beforeEach(async () => {
    forgetSpecs();
    await h.ctl.resetCounters();
  });

  const vm = (id: string, extra: Record<string, unknown> = {}) => ({
    workloadId: id,
    type: "vm-ubuntu",
    cpus: 2,
    credentials: { password: PASSWORD },
    ...extra,
  });

  it("should create a VM, wait until it is ready and report it, the password in no output but the secret credentials", async () => {
    const id = uid("vm");
    const { id: resourceId, outs } = await up(h.workload, vm(id));
    expect(resourceId).toBe(`demo/${id}`);
    expect(outs).toMatchObject({
      workloadId: id,
      workspace: "demo",
      baseUrl: h.svc.url,
      type: "vm-ubuntu",
      phase: "Running",
      generation: 1,
      observedGeneration: 1,
      restartCount: 0,
      __provider: STUB,
    });
    expect(JSON.stringify(withoutCredentials(outs))).not.toContain(PASSWORD);
    expect(outs).not.toHaveProperty("apiKey");
    expect(h.lines).toContain(`wws: waiting up to 600 s for vm-ubuntu ${id} in workspace demo to be ready`);
    expect(h.lines.some((l) => l.startsWith(`wws: vm-ubuntu ${id} in workspace demo: Running after`))).toBe(true);
    expect(h.lines.join("\n")).not.toContain(PASSWORD);
  });

  it("should refuse an id that exists already with another spec at check and at create, saying what adopt does, and send nothing", async () => {
    const id = uid("taken");
    await client.upsertWorkload("pod", { id, image: "nginx:1.25" });
    await h.ctl.resetCounters();
    const news = { workloadId: id, type: "pod", image: "nginx" };
    const refusal = new RegExp(
      `workload ${id} already exists in workspace demo \\(pod, phase \\w+\\)[\\s\\S]*another workloadId.*\`adopt: true\`.*: its live spec is then replaced.*deletes the workload`,
    );
    const checked = await h.workload.check({}, news);
    expect(checked.failures).toEqual([{ property: "workloadId", reason: expect.stringMatching(refusal) }]);
    expect(checked.failures[0].reason).not.toMatch(/import/);
    // `create` refuses it as well (a create whose check ran before the workload appeared).
    await expect(h.workload.create!({ ...checked.inputs, __provider: "p" })).rejects.toThrow(refusal);
    expect((await h.ctl.counters()).requests.mutating).toBe(0);
  });

  it("should refuse a workload of another type with the same spec", async () => {
    const id = uid("other-type");
    await client.upsertWorkload("vm-windows", { id, cpus: 2, credentials: { password: PASSWORD } });
    await expect(up(h.workload, vm(id))).rejects.toThrow(/already exists in workspace demo \(vm-windows/);
  });

  it("should refuse a workload that runs exactly the declared type and spec: a matching spec proves nothing", async () => {
    const id = uid("same-spec");
    // What another stack (or a killed `pulumi up` of this one) leaves: the workload, and no resource here.
    await client.upsertWorkload("vm-ubuntu", { id, cpus: 2, credentials: { password: PASSWORD } });
    await h.ctl.resetCounters();
    const urn = `urn:pulumi:dev::infra::pulumi-nodejs:dynamic/wws:VirtualMachine::${id}`;
    const checked = await h.workload.check({}, { ...vm(id), __wws: { urn } });
    expect(checked.failures).toEqual([
      {
        property: "workloadId",
        reason: expect.stringMatching(
          new RegExp(
            `nothing proves it is VirtualMachine "${id}"'s[\\s\\S]*\`aliases\`[\\s\\S]*\`adopt: true\`[\\s\\S]*npx pulumi-wws recover[\\s\\S]*pulumi up --replace ${urn}`,
          ),
        ),
      },
    ]);
    await expect(h.workload.create!({ ...checked.inputs, __provider: STUB })).rejects.toThrow(/nothing proves it/);
    expect((await h.ctl.counters()).requests.mutating).toBe(0);
    expect((await client.getStatus(id)).generation).toBe(1);
  });

  it("should leave a workload another resource of the run now holds, dropping only the old resource (adopt after a move)", async () => {
    const id = uid("moved");
    const { id: rid, outs } = await up(h.workload, { workloadId: id, type: "pod", image: "nginx:1.27" });
    // The resource moved into a component, with adopt: true and without aliases: a new URN.
    const moved = `urn:pulumi:dev::infra::app:Component$pulumi-nodejs:dynamic/wws:Pod::${id}`;
    const checked = await h.workload.check(
      {},
      { workloadId: id, type: "pod", image: "nginx:1.27", adopt: true, __wws: { urn: moved } },
    );
    expect(checked.failures).toEqual([]);
    await h.workload.create!({ ...checked.inputs, __provider: STUB });
    await h.ctl.resetCounters();
    await h.workload.delete(rid, outs);
    expect((await h.ctl.counters()).requests.mutating).toBe(0);
    expect((await client.getStatus(id)).phase).toBe("Running");
    expect(h.lines).toContainEqual(
      expect.stringMatching(
        new RegExp(
          `pod ${id} of workspace demo is now held by Pod "${id}" \\(${moved.replace(/\$/g, "\\$")}\\).*not deleted`,
        ),
      ),
    );
  });

  it("should still delete the workload of a resource that is replaced: its replacement was checked with the state that held it", async () => {
    const id = uid("replaced");
    const { id: rid, outs } = await up(h.workload, vm(id));
    const urn = `urn:pulumi:dev::infra::pulumi-nodejs:dynamic/wws:VirtualMachine::${id}`;
    const next = await change(h.workload, rid, outs, { ...vm(id, { type: "vm-windows" }), __wws: { urn } });
    expect(next.diff).toMatchObject({ replaces: ["type"], deleteBeforeReplace: true });
    await h.workload.delete(rid, outs);
    await expect(client.getStatus(id)).rejects.toMatchObject({ status: 404 });
  });

  it("should adopt an existing workload when asked, making the resource's spec the live one", async () => {
    const id = uid("adopt");
    await client.upsertWorkload("pod", { id, image: "nginx" });
    const { outs } = await up(h.workload, { workloadId: id, type: "pod", image: "nginx:1.27", adopt: true });
    expect(outs).toMatchObject({ phase: "Running", generation: 2, observedGeneration: 2 });
    expect((await client.getSpec()).workloads.find((w) => w.id === id)?.spec).toEqual({ image: "nginx:1.27" });
  });

  it("should take over a workload that runs the declared spec without sending anything", async () => {
    const id = uid("same");
    await client.upsertWorkload("storage", {
      id,
      engine: "postgres",
      network: { exposed: true },
      credentials: { password: PASSWORD },
    });
    await h.ctl.resetCounters();
    const { outs } = await up(h.workload, {
      workloadId: id,
      type: "storage",
      engine: "postgres",
      network: { exposed: true },
      credentials: { password: PASSWORD },
      adopt: true,
    });
    expect(outs).toMatchObject({ phase: "Running", generation: 1, observedGeneration: 1 });
    expect((await h.ctl.counters()).requests.mutating).toBe(0);
  });

  const importing = (id: string) => ({
    workloadId: id,
    type: "pod",
    image: "nginx:1.27",
    __wws: { importId: `demo/${id}` },
  });

  it("should import a workload that runs the declared spec with nothing sent, and refuse at create one changed after check", async () => {
    const id = uid("imp");
    await client.upsertWorkload("pod", { id, image: "nginx:1.27" });
    await h.ctl.resetCounters();
    expect((await up(h.workload, importing(id))).outs).toMatchObject({ phase: "Running", generation: 1 });
    expect((await h.ctl.counters()).requests.mutating).toBe(0);

    const changed = uid("imp");
    await client.upsertWorkload("pod", { id: changed, image: "nginx:1.27" });
    const checked = await h.workload.check({}, importing(changed));
    expect(checked.failures).toEqual([]);
    await client.upsertWorkload("pod", { id: changed, image: "busybox:1.36" });
    await h.ctl.resetCounters();
    await expect(h.workload.create!({ ...checked.inputs, __provider: STUB })).rejects.toThrow(
      /runs another spec than this declaration \(it differs in image\)/,
    );
    expect((await h.ctl.counters()).requests.mutating).toBe(0);
  });

  it("should refuse, sending nothing, the create of an import that another provider process checked: the proof is this process's check", async () => {
    const id = uid("imp");
    await client.upsertWorkload("pod", { id, image: "nginx:1.27" });
    const checked = await h.workload.check({}, importing(id));
    expect(checked.failures).toEqual([]);
    await h.ctl.resetCounters();
    const unchecked = createWorkloadProvider(h.ctx);
    await expect(unchecked.create!({ ...checked.inputs, __provider: STUB })).rejects.toThrow(
      new RegExp(`workload ${id} already exists in workspace demo`),
    );
    expect((await h.ctl.counters()).requests.mutating).toBe(0);
  });

  it("should update a spec field in place with one upsert, then wait for the new generation", async () => {
    const id = uid("upd");
    const { id: rid, outs } = await up(h.workload, vm(id));
    await h.ctl.resetCounters();
    const next = await change(h.workload, rid, outs, vm(id, { cpus: 4 }));
    expect(next.diff).toMatchObject({ changes: undefined, replaces: [] });
    expect(next.outs).toMatchObject({ cpus: 4, phase: "Running", generation: 2, observedGeneration: 2 });
    const byRoute = (await h.ctl.counters()).requests.byRoute;
    expect(byRoute[CREATE_ROUTE]).toBe(1);
    expect(byRoute[RESTART_ROUTE]).toBeUndefined();
  });

  it("should restart, and send nothing else, when only the restart trigger changes", async () => {
    const id = uid("rst");
    const { id: rid, outs } = await up(h.workload, vm(id, { restartTrigger: "v1" }));
    await h.ctl.resetCounters();
    const next = await change(h.workload, rid, outs, vm(id, { restartTrigger: "v2" }));
    expect(next.outs).toMatchObject({
      restartCount: 1,
      phase: "Running",
      generation: 2,
      observedGeneration: 2,
      restartTrigger: "v2",
    });
    const c = await h.ctl.counters();
    expect(c.requests.byRoute[RESTART_ROUTE]).toBe(1);
    expect(c.requests.mutating).toBe(1);
  });

  it("should send no request at all for wait option, adopt and connection changes", async () => {
    const id = uid("opt");
    const { id: rid, outs } = await up(h.workload, vm(id));
    await h.ctl.resetCounters();
    const next = await change(
      h.workload,
      rid,
      outs,
      vm(id, { readyTimeoutSeconds: 120, waitForReady: false, adopt: true, apiKey: KEY }),
    );
    expect(next.diff).toMatchObject({ changes: undefined, replaces: [] });
    expect(next.outs).toMatchObject({ readyTimeoutSeconds: 120, phase: "Running", generation: 1 });
    expect(await apiRequests(h)).toEqual({});
  });

  it("should find no change for identical inputs, the unchanged password included", async () => {
    const id = uid("same");
    const { id: rid, outs } = await up(h.workload, vm(id));
    await h.ctl.resetCounters();
    const next = await change(h.workload, rid, outs, vm(id));
    expect(next.diff.changes).toBe(false);
    expect(await apiRequests(h)).toEqual({});
  });

  it("should read the live spec and status on refresh, returning live inputs, and drop a workload that is gone", async () => {
    const id = uid("ref");
    const { id: rid, outs } = await up(h.workload, vm(id));
    await client.upsertWorkload("vm-ubuntu", { id, cpus: 8, memory: "16Gi" });
    const read = await h.workload.read(rid, outs);
    expect(read.props).toMatchObject({
      cpus: 8,
      memory: "16Gi",
      credentials: outs.credentials,
      generation: 2,
      __provider: STUB,
    });
    expect(JSON.stringify(read.props)).not.toContain(PASSWORD);
    expect(read.inputs).toMatchObject({ cpus: 8, memory: "16Gi", workloadId: id });
    expect(read.inputs).not.toHaveProperty("phase");
    // The program still says 2 cpus: the next diff wants an update back.
    expect((await h.workload.diff(rid, read.props!, { ...read.inputs!, cpus: 2 })).changes).toBeUndefined();
    await client.deleteWorkload(id);
    // Gone once /status answers 404 (a loaded machine takes longer than the reconciler's steps).
    for (
      let i = 0;
      i < 200 &&
      (await client.getStatus(id).then(
        () => true,
        () => false,
      ));
      i++
    )
      await new Promise((r) => setTimeout(r, 25));
    expect(await h.workload.read(rid, outs)).toEqual({ id: "" });
  });

  it("should delete and return only once /status answers 404; a workload already gone is fine", async () => {
    const id = uid("del");
    const { id: rid, outs } = await up(h.workload, { workloadId: id, type: "browser" });
    await h.workload.delete(rid, outs);
    await expect(client.getStatus(id)).rejects.toMatchObject({ status: 404 });
    // The goal reads as in the SDK's timeout error ("… waiting for pod a to be gone").
    expect(h.lines).toContain(`wws: waiting up to 600 s for browser ${id} in workspace demo to be gone`);
    await expect(h.workload.delete(rid, outs)).resolves.toBeUndefined();
  });

  it("should replace a VM of another os by deleting it first, since the id is reused", async () => {
    const id = uid("os");
    const { id: rid, outs } = await up(h.workload, vm(id));
    const next = await change(h.workload, rid, outs, vm(id, { type: "vm-windows" }));
    expect(next.diff).toMatchObject({ replaces: ["type"], deleteBeforeReplace: true });
    // Create-before-delete would collide with the existing id:
    await expect(up(h.workload, vm(id, { type: "vm-windows" }))).rejects.toThrow(/already exists/);
    await h.workload.delete(rid, outs);
    expect((await up(h.workload, vm(id, { type: "vm-windows" }))).outs).toMatchObject({
      type: "vm-windows",
      phase: "Running",
    });
  });
});
