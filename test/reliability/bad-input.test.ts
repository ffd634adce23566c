/**
 * The bad-input corpus posted straight to the local service over HTTP: each body is refused with
 * the status, error code and field-by-field details a client reads (fixed in the corpus, not
 * derived from the schema the service validates with), and nothing the service holds changes.
 */
import { ControlClient, type RunningService } from "../../server";
import { CORPUS, SEED, type BadInput } from "./corpus";
import { CONTROL_TOKEN, call, expectErrorAnswer, start, waitFor, type Answer } from "./helpers";

const T = "/v1/tenants/alpha";
const CREATE_ROUTE = "POST /v1/tenants/:name/workloads/:type";
const TEMPLATE_ROUTE = "POST /v1/tenants/:name/templates";

function pathOf(entry: { kind: string }): string {
  return entry.kind === "template" ? `${T}/templates` : `${T}/workloads/${entry.kind}`;
}

let svc: RunningService;
let control: ControlClient;
/** Everything a refused request could have changed, read before the corpus is posted. */
let before: Record<string, string>;
const answers = new Map<BadInput, Answer>();

async function observable(): Promise<Record<string, string>> {
  const out: Record<string, string> = {};
  for (const p of ["spec", "templates", "secrets", "pulse", "activity?limit=1000"])
    out[p] = (await call(svc.url, "GET", `${T}/${p}`)).text;
  return out;
}

beforeAll(async () => {
  svc = await start();
  control = new ControlClient(svc.url, CONTROL_TOKEN);
  for (const s of SEED) expect((await call(svc.url, "POST", pathOf(s), { body: s.body })).status).toBeLessThan(300);
  // Settled first: from here on only a wrongly accepted request could change anything.
  const workloads = SEED.filter((s) => s.kind !== "template").length;
  await waitFor(
    async () => {
      const pulse = (await call(svc.url, "GET", `${T}/pulse`)).json as { workloads: Array<{ phase: string }> };
      return pulse.workloads.length === workloads && pulse.workloads.every((w) => w.phase === "Running");
    },
    10_000,
    "seed workloads Running",
  );
  before = await observable();
  await control.resetCounters();
});
afterAll(() => svc.close());

describe("the bad input corpus", () => {
  it("should hold at least 60 inputs covering every workload kind and templates", () => {
    expect(CORPUS.length).toBeGreaterThanOrEqual(60);
    const kinds = new Set(CORPUS.map((e) => e.kind));
    expect([...kinds].sort()).toEqual([
      "browser",
      "controller",
      "pod",
      "storage",
      "template",
      "vm-ubuntu",
      "vm-ubuntu-desktop",
      "vm-windows",
    ]);
    expect(new Set(CORPUS.map((e) => `${e.kind}: ${e.name}`)).size).toBe(CORPUS.length);
  });
});

describe("the service, given the bad input corpus", () => {
  it.each(CORPUS.map((e) => [`${e.kind} with ${e.name}`, e.field, e] as const))(
    "should refuse %s with the error body naming %j",
    async (_name, field, entry) => {
      const res = await call(svc.url, "POST", pathOf(entry), { body: entry.body });
      answers.set(entry, res);
      expectErrorAnswer(res, entry.status ?? 400);
      expect(res.json.error.code).toBe((entry.status ?? 400) === 413 ? "payload_too_large" : "validation_failed");
      // The fields named, and only those: one mistake per entry (two paths where one mistake is two).
      const named = new Set(res.json.error.details.map((d: { path: string }) => d.path));
      expect([...named].sort()).toEqual([field, ...(entry.also ?? [])].sort());
    },
  );

  it("should leave spec, templates, secrets, pulse and activity as they were", async () => {
    expect(answers.size).toBe(CORPUS.length);
    expect(await observable()).toEqual(before);
  });

  it("should count every refused request and answer none of them with a success", async () => {
    const c = await control.counters();
    const toWorkloads = CORPUS.filter((e) => e.kind !== "template").length;
    const toTemplates = CORPUS.length - toWorkloads;
    const s413 = CORPUS.filter((e) => e.status === 413).length;
    expect(c.requests.byRoute[CREATE_ROUTE]).toBe(toWorkloads);
    expect(c.requests.byRoute[TEMPLATE_ROUTE]).toBe(toTemplates);
    expect(c.requests.mutating).toBe(CORPUS.length);
    expect(c.requests.byStatus["400"]).toBe(CORPUS.length - s413);
    expect(c.requests.byStatus["413"]).toBe(s413);
    for (const ok of ["201", "202", "204"]) expect(c.requests.byStatus[ok]).toBeUndefined();
    console.log(
      `bad input: ${CORPUS.length} inputs tried (${toWorkloads} workload bodies, ${toTemplates} templates), ${answers.size} refused`,
    );
  });
});
