/**
 * Far from the service, what costs is the round trips a deployment makes in series: the engine
 * calls `check` one resource at a time, so a read per resource there costs N × the latency. The
 * checks of one deployment share one read of the workspace, while an id that exists is still
 * refused. A create reads its own id just before its upsert (the proof that it takes nothing over),
 * and the creates run side by side: a round trip each, not one after another.
 */
import { forgetSpecs } from "../../../provider/dynamic/service/shared-spec";
import { STUB, apiRequests, startHarness, uid, type Harness } from "../harness";

const SPEC_ROUTE = "GET /v1/tenants/:name/spec";
const STATUS_ROUTE = "GET /v1/tenants/:name/workloads/:id/status";
const CREATE_ROUTE = "POST /v1/tenants/:name/workloads/:type";

let h: Harness;
beforeAll(async () => {
  h = await startHarness();
});
afterAll(async () => h?.close());

it("should check 20 new pods one after the other with one read of the workspace, still refuse an id that exists, and create each after a read of its own id", async () => {
  const taken = uid("rt-taken");
  await h.client.upsertWorkload("pod", { id: taken, image: "nginx" });
  forgetSpecs(); // a new deployment: its provider has read nothing yet
  await h.ctl.resetCounters();
  const ids = Array.from({ length: 20 }, (_, i) => `${uid("rt")}-${i}`);
  const checked = [];
  for (const id of ids) {
    const c = await h.workload.check({}, { workloadId: id, type: "pod", image: "nginx", waitForReady: false });
    expect(c.failures).toEqual([]);
    checked.push(c.inputs);
  }
  expect(await apiRequests(h)).toEqual({ [SPEC_ROUTE]: 1 });

  const refused = await h.workload.check({}, { workloadId: taken, type: "pod", image: "nginx" });
  expect(refused.failures).toEqual([
    { property: "workloadId", reason: expect.stringMatching(new RegExp(`workload ${taken} already exists`)) },
  ]);
  expect(await apiRequests(h)).toEqual({ [SPEC_ROUTE]: 1, [STATUS_ROUTE]: 1 });

  await h.ctl.resetCounters();
  await Promise.all(checked.map((inputs) => h.workload.create!({ ...inputs, __provider: STUB })));
  // Each create: its id's status (free), its upsert, then (waitForReady: false) one status read for the outputs.
  expect(await apiRequests(h)).toEqual({ [CREATE_ROUTE]: 20, [STATUS_ROUTE]: 40 });
});
