/**
 * Calls that must not run twice (a restart, a template create), against the real local service:
 * sent again when the service refused them (429, 503), and read back, not blindly repeated, when
 * the answer was lost after the service acted (the connection dropped instead of the answer).
 */
import { apiRequests, change, startHarness, uid, up, type Harness } from "../harness";

jest.setTimeout(30_000);

let h: Harness;
beforeAll(async () => {
  h = await startHarness();
});
afterAll(async () => h?.close());
afterEach(async () => h.ctl.clearFaults());

async function restartedPod(faults: Parameters<Harness["ctl"]["setFaults"]>[0]): Promise<number> {
  const id = uid("rb");
  const { id: rid, outs } = await up(h.workload, { workloadId: id, type: "pod", image: "nginx", restartTrigger: "1" });
  const before = (await h.client.getStatus(id)).restartCount ?? 0;
  await h.ctl.setFaults({ ...faults, pathPrefix: `/v1/tenants/demo/workloads/${id}/restart` });
  await change(h.workload, rid, outs, { workloadId: id, type: "pod", image: "nginx", restartTrigger: "2" });
  return ((await h.client.getStatus(id)).restartCount ?? 0) - before;
}

describe("calls that must not run twice", () => {
  it("should send a restart again when the service refused it with 429 or 503", async () => {
    expect(await restartedPod({ errorRate: 1, errorStatuses: [429, 503], retryAfterSeconds: 0, maxFaults: 2 })).toBe(1);
  });

  it("should take a restart whose answer was lost as done, once the status shows it, and restart once", async () => {
    expect(await restartedPod({ errorRate: 1, dropAnswer: true, maxFaults: 1 })).toBe(1);
  });

  it("should take a template whose answer was lost from the list, saving one template", async () => {
    const name = `read-back ${uid("t")}`;
    await h.ctl.setFaults({ errorRate: 1, dropAnswer: true, maxFaults: 1, pathPrefix: "/v1/tenants/demo/templates" });
    const { outs } = await up(h.template, { name, kind: "pod", config: { pod: { image: "nginx" } } });
    await h.ctl.clearFaults();
    const saved = (await h.client.listTemplates()).filter((t) => t.name === name);
    expect(saved.map((t) => t.id)).toEqual([outs.templateId]);
  });
});

describe("a service that fails every such call", () => {
  it("should space the restarts it reads back, say so on the row, and fail at the deadline naming the status", async () => {
    const id = uid("rb");
    const pod = { workloadId: id, type: "pod", image: "nginx", readyTimeoutSeconds: 4 };
    const { id: rid, outs } = await up(h.workload, { ...pod, restartTrigger: "1" });
    await h.ctl.resetCounters();
    await h.ctl.setFaults({
      errorRate: 1,
      errorStatuses: [500],
      pathPrefix: `/v1/tenants/demo/workloads/${id}/restart`,
    });
    h.lines.length = 0;
    const started = Date.now();
    const failed = await change(h.workload, rid, outs, { ...pod, restartTrigger: "2" }).catch((e: unknown) => e);
    const ms = Date.now() - started;
    expect(String(failed)).toMatch(/restart .* failed: HTTP 500 .*gave up after \d+ attempts/);
    const requests = await apiRequests(h);
    const restarts = requests["POST /v1/tenants/:name/workloads/:id/restart"] ?? 0;
    // Without spacing, a 4 s budget held thousands of restarts; with the client's backoff (200 ms
    // doubling, full jitter) it holds about ten, each read back once.
    expect(restarts).toBeGreaterThanOrEqual(2);
    expect(restarts).toBeLessThanOrEqual(25);
    expect(ms).toBeLessThan(10_000);
    expect(
      h.lines.some((l) =>
        /update of pod .*: the restart got HTTP 500 and its status shows no restart: sending it again in/.test(l),
      ),
    ).toBe(true);
  });

  it("should space the template creates it reads back and fail at the deadline naming the status", async () => {
    await h.ctl.resetCounters();
    await h.ctl.setFaults({
      errorRate: 1,
      errorStatuses: [500],
      pathPrefix: "/v1/tenants/demo/templates",
      methods: ["POST"],
    });
    const name = `spaced ${uid("t")}`;
    const template = { name, kind: "pod", config: { pod: { image: "nginx" } }, customTimeouts: { create: "3s" } };
    const failed = await up(h.template, template).catch((e: unknown) => e);
    expect(String(failed)).toMatch(/create template .* failed: HTTP 500 .*gave up after \d+ attempts/);
    const creates = (await apiRequests(h))["POST /v1/tenants/:name/templates"] ?? 0;
    expect(creates).toBeGreaterThanOrEqual(2);
    expect(creates).toBeLessThanOrEqual(25);
  });
});
