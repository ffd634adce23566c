/**
 * One operation, one budget: `customTimeouts: { create: "3s" }` against a slow service ends the
 * create within 3 s plus scheduling slack: for a workload whose every answer takes 2 s (its read,
 * upsert and wait share the deadline), and for a template whose one call would take 4 s. A
 * workload's create whose answer the deadline cut is kept in the stack, and the next update sends
 * it again. The real local service over HTTP.
 */
import { STUB, startHarness, uid, type Harness } from "./harness";

/** Scheduling slack on this 2-core machine: the event loop, the last attempt's abort. */
const SLACK_MS = 1_500;
const LATENCY_MS = 2_000;

let h: Harness;
beforeAll(async () => {
  h = await startHarness();
});
afterAll(() => h.close());
afterEach(() => h.ctl.clearFaults());

async function timed(run: () => Promise<unknown>): Promise<{ ms: number; error: unknown }> {
  const started = Date.now();
  const error = await run().then(
    () => undefined,
    (err: unknown) => err,
  );
  return { ms: Date.now() - started, error };
}

describe("one operation, one budget", () => {
  it("should end a workload's create within its customTimeouts against a slow service, keeping what may exist", async () => {
    const id = uid("slow");
    const news = { workloadId: id, type: "pod", image: "nginx:1.27", customTimeouts: { create: "3s" } };
    const checked = await h.workload.check({}, news);
    expect(checked.failures).toEqual([]);
    await h.ctl.setFaults({ latencyMs: LATENCY_MS });
    const { ms, error } = await timed(() => h.workload.create!({ ...checked.inputs, __provider: STUB }));
    console.log(`workload create, customTimeouts.create 3s, every answer after 2 s: failed after ${ms} ms`);
    expect(ms).toBeLessThan(3_000 + SLACK_MS);
    // The create's answer was cut (or its wait ran out): the engine keeps the resource, with init errors.
    expect(error).toMatchObject({ id: `demo/${id}`, reasons: [expect.stringMatching(/It stays in the stack/)] });

    await h.ctl.clearFaults();
    const kept = (error as { properties: Record<string, unknown> }).properties;
    const { outs } = await h.workload.update!(`demo/${id}`, kept, { ...checked.inputs, __provider: STUB });
    expect(outs).toMatchObject({ phase: "Running", generation: 1 });
  });

  it("should end a template's create within its customTimeouts against a slow service", async () => {
    const news = {
      name: uid("tpl"),
      kind: "pod",
      config: { pod: { image: "nginx:1.27" } },
      customTimeouts: { create: "3s" },
    };
    const checked = await h.template.check({}, news);
    expect(checked.failures).toEqual([]);
    await h.ctl.setFaults({ latencyMs: 2 * LATENCY_MS });
    const { ms, error } = await timed(() => h.template.create!({ ...checked.inputs, __provider: STUB }));
    console.log(`template create, customTimeouts.create 3s, every answer after 4 s: failed after ${ms} ms`);
    // The budget, not another failure: not before the deadline, named in the message.
    // Its last attempt had what the budget left: 3000 ms, or a millisecond or two less when it began
    // a moment after the operation.
    const said = /create template tpl-\S+ in workspace demo timed out after (\d+) ms/.exec(String(error));
    expect(said).not.toBeNull();
    expect(Number(said![1])).toBeGreaterThanOrEqual(2_990);
    expect(Number(said![1])).toBeLessThanOrEqual(3_000);
    expect(ms).toBeGreaterThanOrEqual(2_900);
    expect(ms).toBeLessThan(3_000 + SLACK_MS);
  });

  it("should refuse a template's customTimeouts that is not a duration, at check", async () => {
    const checked = await h.template.check(
      {},
      { name: "t", kind: "pod", config: { pod: { image: "nginx" } }, customTimeouts: { create: "soon" } },
    );
    expect(checked.failures).toEqual([
      {
        property: "",
        reason: expect.stringMatching(
          /^customTimeouts\.create \(set to "soon"\): must be a duration.*customTimeouts resource option/,
        ),
      },
    ]);
  });
});
