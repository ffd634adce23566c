import * as pulumi from "@pulumi/pulumi";
import {
  Workspace,
  getFleetHosts,
  getTemplate,
  getWorkload,
  getWorkloadStatus,
  listTemplatesOutput,
  listWorkloadsOutput,
} from "../../../provider";
import { programConnection } from "../../../provider/functions";
import { WorkspaceClient, workspaceConnection } from "../../../sdk";
import { KEY, startHarness, type Harness } from "../harness";
import { recordResources, secretOf, valueOf } from "../mocks";

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
    const fleet = getFleetHosts();
    const value = await valueOf(fleet);
    expect(value.regions.length).toBeGreaterThan(0);
    expect(value.regions[0].hosts[0]).toMatchObject({
      name: expect.any(String),
      capacity: expect.any(Object),
      free: expect.any(Object),
    });
    expect(await secretOf(fleet)).toBe(false);
  });

  it("should read a workload's status through a Workspace's connection", async () => {
    const client = new WorkspaceClient({ baseUrl: h.svc.url, workspace: "demo", apiKey: KEY });
    await client.upsertWorkload("browser", { id: "fn-browser" });
    await client.close();
    const ws = new Workspace("ws", { name: "demo", baseUrl: h.svc.url, apiKey: KEY });
    const status = await valueOf(getWorkloadStatus({ workspace: ws, workloadId: "fn-browser" }));
    expect(status).toMatchObject({ id: "fn-browser", type: "browser" });
  });

  it("should fail naming every way to set what is missing", () => {
    // (Through an output, this error becomes the program's: `pulumi up` stops with it.)
    expect(() => programConnection("getFleetHosts", { workspace: "demo" }, {})).toThrow(
      /^getFleetHosts: no base URL is set: .*WWS_BASE_URL; no API key is set: .*--secret wws:apiKey.*WWS_API_KEY$/,
    );
    const made = programConnection("f", { workspace: "demo" }, { WWS_BASE_URL: "http://h/", WWS_API_KEY: "k-1234" });
    expect(made).toEqual(workspaceConnection({ workspace: "demo", baseUrl: "http://h", apiKey: "k-1234" }));
    expect(made).toMatchObject({ workspace: "demo", baseUrl: "http://h", apiKey: "k-1234" });
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

  it("should read workloads, templates and the fleet in both forms, and fail a missing one by name", async () => {
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
    expect((await valueOf(listWorkloadsOutput({ kind: "browser" }))).map((w) => w.workloadId)).toEqual([
      "spec-browser",
    ]);
    expect((await getTemplate({ name: "spec-base" })).id).toBe(saved.id);
    expect((await valueOf(listTemplatesOutput())).map((t) => t.id)).toEqual([saved.id]);
    expect((await getFleetHosts()).regions.length).toBeGreaterThan(0);
    await expect(getWorkload({ workloadId: "nope" })).rejects.toThrow(
      "getWorkload: workspace demo has no workload nope",
    );
    await expect(getTemplate({ templateId: "tpl_0" })).rejects.toThrow(
      "getTemplate: workspace demo has no template tpl_0",
    );
  });
});
