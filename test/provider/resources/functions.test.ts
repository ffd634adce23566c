import * as pulumi from "@pulumi/pulumi";
import {
  Workspace,
  getFleetHosts,
  getFleetHostsOutput,
  getTemplate,
  getTemplateOutput,
  getWorkload,
  getWorkloadOutput,
  getWorkloadStatus,
  getWorkloadStatusOutput,
  listTemplates,
  listTemplatesOutput,
  listWorkloads,
  listWorkloadsOutput,
} from "../../../provider";
import { WorkspaceClient } from "../../../sdk";
import { KEY, startHarness, type Harness } from "../harness";
import { recordResources, secretOf, valueOf } from "../mocks";

/** The environment's connection settings, set for the length of `f` (unset where `undefined`). */
async function withEnv<T>(env: Record<string, string | undefined>, f: () => Promise<T>): Promise<T> {
  const before = Object.fromEntries(Object.keys(env).map((k) => [k, process.env[k]]));
  const set = (values: Record<string, string | undefined>): void => {
    for (const [k, v] of Object.entries(values))
      if (v === undefined) delete process.env[k];
      else process.env[k] = v;
  };
  set(env);
  try {
    return await f();
  } finally {
    set(before);
  }
}

/** What two reads of one workload share while it settles (its phase and generations move on). */
const stableStatus = (s: { id?: string; type?: string }) => ({ id: s.id, type: s.type });
const stableInfo = (w: { workloadId: string; type: string; spec: unknown; status: { id?: string } }) => ({
  workloadId: w.workloadId,
  type: w.type,
  spec: w.spec,
  status: { id: w.status.id },
});

const NO_ENV = { WWS_BASE_URL: undefined, WWS_API_KEY: undefined, WWS_WORKSPACE: undefined };

describe("getFleetHosts and getWorkloadStatus", () => {
  let h: Harness;
  beforeAll(async () => {
    h = await startHarness();
    await recordResources();
  });
  afterAll(() => h.close());
  afterEach(() => pulumi.runtime.setAllConfig({}));

  it("should read the fleet with the connection from the stack config, as a plain (not secret) output", async () => {
    pulumi.runtime.setAllConfig({ "wws:baseUrl": h.svc.url, "wws:workspace": "demo", "wws:apiKey": KEY }, [
      "wws:apiKey",
    ]);
    const fleet = getFleetHostsOutput();
    const value = await valueOf(fleet);
    expect(value.regions.length).toBeGreaterThan(0);
    expect(value.regions[0].hosts[0]).toMatchObject({
      name: expect.any(String),
      capacity: expect.any(Object),
      free: expect.any(Object),
    });
    expect(await secretOf(fleet)).toBe(false);
  });

  it("should read a workload's status through a Workspace's connection, in both forms", async () => {
    const client = new WorkspaceClient({ baseUrl: h.svc.url, workspace: "demo", apiKey: KEY });
    await client.upsertWorkload("browser", { id: "fn-browser" });
    await client.close();
    const ws = new Workspace("ws", { name: "demo", baseUrl: h.svc.url, apiKey: KEY });
    const status = await valueOf(getWorkloadStatusOutput({ workspace: ws, workloadId: "fn-browser" }));
    expect(status).toMatchObject({ id: "fn-browser", type: "browser" });
    expect(await getWorkloadStatus({ workspace: ws, workloadId: "fn-browser" })).toMatchObject(stableStatus(status));
  });

  it("should fail naming every way to set what is missing, and take what the environment sets", async () => {
    // (Through an output, this error becomes the program's: `pulumi up` stops with it.)
    await withEnv(NO_ENV, () =>
      expect(getFleetHosts({ workspace: "demo" })).rejects.toThrow(
        /^getFleetHosts: no base URL is set: .*WWS_BASE_URL; no API key is set: .*--secret wws:apiKey.*WWS_API_KEY$/,
      ),
    );
    const fleet = await withEnv({ ...NO_ENV, WWS_BASE_URL: `${h.svc.url}/`, WWS_API_KEY: KEY }, () =>
      getFleetHosts({ workspace: "demo" }),
    );
    expect(fleet.regions.length).toBeGreaterThan(0);
  });

  it("should say, to a program that applies the Promise form as it did when they returned an Output, which form to call", async () => {
    pulumi.runtime.setAllConfig({ "wws:baseUrl": h.svc.url, "wws:workspace": "demo", "wws:apiKey": KEY }, [
      "wws:apiKey",
    ]);
    const asBefore = (p: unknown) => (p as pulumi.Output<unknown>).apply((v) => v);
    const fleet = getFleetHosts();
    expect(() => asBefore(fleet)).toThrow(
      "getFleetHosts returns a Promise: await it, or call getFleetHostsOutput(…) for an Output to apply",
    );
    const status = getWorkloadStatus({ workloadId: "fn-browser" });
    expect(() => asBefore(status)).toThrow(
      "getWorkloadStatus returns a Promise: await it, or call getWorkloadStatusOutput(…) for an Output to apply",
    );
    // Awaited, they answer.
    expect((await fleet).regions.length).toBeGreaterThan(0);
    expect((await status).id).toBe("fn-browser");
  });
});

describe("the functions on a service that offers only the published spec", () => {
  let h: Harness;
  beforeAll(async () => {
    h = await startHarness({ profile: "spec" });
    await recordResources();
  });
  afterAll(() => h.close());
  afterEach(() => pulumi.runtime.setAllConfig({}));

  it("should read workloads, templates, statuses and the fleet in both forms, alike, and fail a missing one by name", async () => {
    pulumi.runtime.setAllConfig({ "wws:baseUrl": h.svc.url, "wws:workspace": "demo", "wws:apiKey": KEY }, [
      "wws:apiKey",
    ]);
    const client = new WorkspaceClient({ baseUrl: h.svc.url, workspace: "demo", apiKey: KEY });
    await client.upsertWorkload("browser", { id: "spec-browser" });
    const saved = await client.createTemplate({ name: "spec-base", kind: "browser", config: { browser: {} } });
    await client.close();

    const info = await getWorkload({ workloadId: "spec-browser" });
    expect(info).toMatchObject({ workloadId: "spec-browser", type: "browser", status: { phase: expect.any(String) } });
    expect(info.status.endpoint).toBeUndefined(); // an extension the spec profile leaves out
    expect(stableInfo(await valueOf(getWorkloadOutput({ workloadId: pulumi.output("spec-browser") })))).toEqual(
      stableInfo(info),
    );

    const browsers = await listWorkloads({ kind: "browser" });
    expect(browsers.map((w) => w.workloadId)).toEqual(["spec-browser"]);
    expect((await valueOf(listWorkloadsOutput({ kind: pulumi.output("browser" as const) }))).map(stableInfo)).toEqual(
      browsers.map(stableInfo),
    );

    const status = await getWorkloadStatus({ workloadId: "spec-browser" });
    expect(status).toMatchObject({ id: "spec-browser", phase: expect.any(String) });
    expect(await valueOf(getWorkloadStatusOutput({ workloadId: pulumi.output("spec-browser") }))).toMatchObject(
      stableStatus(status),
    );

    const byName = await getTemplate({ name: "spec-base" });
    expect(byName.id).toBe(saved.id);
    expect(await valueOf(getTemplateOutput({ templateId: pulumi.output(saved.id) }))).toEqual(byName);

    const templates = await listTemplates();
    expect(templates.map((t) => t.id)).toEqual([saved.id]);
    expect(await valueOf(listTemplatesOutput({ workspace: pulumi.output("demo") }))).toEqual(templates);

    const fleet = await getFleetHosts();
    expect(fleet.regions.length).toBeGreaterThan(0);
    expect(await valueOf(getFleetHostsOutput({ baseUrl: pulumi.output(h.svc.url) }))).toEqual(fleet);

    await expect(getWorkload({ workloadId: "nope" })).rejects.toThrow(
      "getWorkload: workspace demo has no workload nope",
    );
    await expect(getTemplate({ templateId: "tpl_0" })).rejects.toThrow(
      "getTemplate: workspace demo has no template tpl_0",
    );
  });

  it("should take, in a Promise form, an Output known as the program runs (what a JavaScript program may pass)", async () => {
    pulumi.runtime.setAllConfig({ "wws:baseUrl": h.svc.url, "wws:workspace": "demo", "wws:apiKey": KEY }, [
      "wws:apiKey",
    ]);
    const asJs = (v: unknown) => v as string;
    const info = await getWorkload({
      workloadId: asJs(pulumi.output("spec-browser")),
      apiKey: asJs(pulumi.secret(KEY)),
    });
    expect(info.workloadId).toBe("spec-browser");
  });
});
