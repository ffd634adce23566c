/**
 * The provider's lifecycle in every profile of the local service × every way it shows an update
 * or restart: what a wait reported ready must be, on the service's own full record read right
 * after it, the new spec and generation (a wait that resolved on the record from before the
 * request is caught there, `in-place` applying 1 s after the request).
 */
import type { WorkspaceClient } from "../../../sdk";
import { PROFILES, TRANSITIONS, type Profile, type Transitions } from "../../../server";
import { PASSWORD, apiRequests, change, startHarness, uid, up, type Harness } from "../harness";

/** Far below the 600 s default: a wait that cannot decide fails the test long before jest's timeout. */
const READY_TIMEOUT_S = 30;
const STATUS_ROUTE = "GET /v1/tenants/:name/workloads/:id/status";
const MATRIX = PROFILES.flatMap((profile) =>
  TRANSITIONS.map((transitions) => [profile, transitions] as [Profile, Transitions]),
);

describe.each(MATRIX)("workload provider, service profile %s, transitions %s", (profile, transitions) => {
  let h: Harness;
  let client: WorkspaceClient;
  beforeAll(async () => {
    h = await startHarness({ profile, transitions });
    client = h.client;
  });
  afterAll(() => h.close());

  const pod = (id: string, image: string) => ({
    workloadId: id,
    type: "pod",
    image,
    ports: [{ name: "http", port: 80 }],
    readyTimeoutSeconds: READY_TIMEOUT_S,
  });
  const vm = (id: string, extra: Record<string, unknown> = {}) => ({
    workloadId: id,
    type: "vm-ubuntu",
    credentials: { password: PASSWORD },
    readyTimeoutSeconds: READY_TIMEOUT_S,
    ...extra,
  });
  /** The service's own record, read as soon as the provider call returned. */
  const record = (id: string) => h.ctl.workload("demo", id);

  it("should create, update, restart, replace, refresh a drift and delete, each ready on the new spec and generation", async () => {
    const [a, b] = [uid("pod"), uid("vm")];
    const [pa, pb] = await Promise.all([
      up(h.workload, pod(a, "nginx:1.27")),
      up(h.workload, vm(b, { restartTrigger: "v1" })),
    ]);
    expect(await record(a)).toMatchObject({ phase: "Running", generation: 1, observedGeneration: 1 });
    expect(await record(b)).toMatchObject({ phase: "Running", generation: 1, observedGeneration: 1 });

    const [ua, rb] = await Promise.all([
      change(h.workload, pa.id, pa.outs, pod(a, "nginx:1.28")).then(async (r) => ({ ...r, record: await record(a) })),
      change(h.workload, pb.id, pb.outs, vm(b, { restartTrigger: "v2" })).then(async (r) => ({
        ...r,
        record: await record(b),
      })),
    ]);
    expect(ua.outs).toMatchObject({ phase: "Running", image: "nginx:1.28" });
    expect(ua.record).toMatchObject({
      phase: "Running",
      generation: 2,
      observedGeneration: 2,
      spec: { image: "nginx:1.28" },
    });
    expect(rb.outs).toMatchObject({ phase: "Running", restartTrigger: "v2" });
    expect(rb.record).toMatchObject({ phase: "Running", generation: 2, observedGeneration: 2, restartCount: 1 });
    // What the outputs carry depends on what the service shows, never more.
    if (profile === "spec") expect(ua.outs).not.toHaveProperty("generation");
    else expect(ua.outs).toMatchObject({ generation: 2, observedGeneration: 2 });
    // A wait that had no evidence says it settled.
    const settled = h.lines.some(
      (l) => l.includes(`pod ${a} in workspace demo: Running after`) && l.includes("settling"),
    );
    expect(settled).toBe(profile === "spec" && transitions !== "visible");

    // Replace: another os means delete, then create under the same id.
    const replaced = await change(h.workload, pb.id, rb.outs!, vm(b, { type: "vm-windows", restartTrigger: "v2" }));
    expect(replaced.diff).toMatchObject({ replaces: ["type"], deleteBeforeReplace: true });
    await h.workload.delete(pb.id, rb.outs!);
    expect(await record(b)).toBeUndefined();
    const pw = await up(h.workload, vm(b, { type: "vm-windows" }));
    expect(await record(b)).toMatchObject({
      type: "vm-windows",
      phase: "Running",
      generation: 1,
      observedGeneration: 1,
    });

    // Drift made outside Pulumi shows on refresh as live inputs.
    await client.upsertWorkload("pod", { id: a, image: "nginx:drift", ports: [{ name: "http", port: 80 }] });
    const read = await h.workload.read(pa.id, ua.outs!);
    expect(read.inputs).toMatchObject({ workloadId: a, image: "nginx:drift" });

    await Promise.all([h.workload.delete(pa.id, ua.outs!), h.workload.delete(pw.id, pw.outs)]);
    expect([await record(a), await record(b)]).toEqual([undefined, undefined]);
    // Nothing waited for its timeout: such a wait reads the status every 0.5 s (the harness's
    // safety poll) for 30 s, 60 reads on top of the 18-36 all these waits make (measured in every
    // profile). How long they take is a speed figure: `npm run bench`.
    expect((await apiRequests(h))[STATUS_ROUTE]).toBeLessThanOrEqual(72);
  });

  // With `instant` the update is Running before the answer: a later failure is not the update's.
  if (transitions === "instant") return;
  it("should fail an update the service fails before applying it, not wait for the timeout", async () => {
    const id = uid("fail");
    const { id: rid, outs } = await up(h.workload, pod(id, "nginx:1.27"));
    await h.ctl.pauseReconciler();
    try {
      const pending = change(h.workload, rid, outs, pod(id, "nginx:broken"));
      // Failed only once the service holds the update: failed before, the update would clear it.
      for (let i = 0; i < 500 && (await record(id))?.generation !== 2; i++) await new Promise((r) => setTimeout(r, 10));
      await h.ctl.failWorkload("demo", id, "image nginx:broken not found");
      await expect(pending).rejects.toThrow(/did not become ready: .*image nginx:broken not found/);
    } finally {
      await h.ctl.resumeReconciler();
    }
  });
});
