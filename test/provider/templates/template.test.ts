import { createContext } from "../../../provider/dynamic/context";
import { createTemplateProvider } from "../../../provider/dynamic/templates/provider";
import type { StackConfig } from "../../../provider/dynamic/service/connection";
import type { WorkspaceClient } from "../../../sdk";
import { KEY, PASSWORD, STUB, apiRequests, startHarness, up, type Harness } from "../harness";

describe("template provider against the local service", () => {
  let h: Harness;
  let client: WorkspaceClient;
  beforeAll(async () => {
    h = await startHarness();
    client = h.client;
  });
  afterAll(() => h.close());
  beforeEach(() => h.ctl.resetCounters());

  const browserTpl = {
    name: "agent browser",
    description: "with an agent",
    kind: "browser",
    config: { browser: { aiAgent: { enabled: true, provider: "p", model: "m" } } },
  };

  it("should save a template and identify it as <workspace>/<templateId>", async () => {
    const { id, outs } = await up(h.template, browserTpl);
    expect(id).toMatch(/^demo\/tpl_[0-9a-f]+$/);
    expect(outs).toMatchObject({ ...browserTpl, workspace: "demo", templateId: id.slice(5), __provider: STUB });
    expect(Date.parse(String(outs.createdAt))).not.toBeNaN();
    expect(await client.getTemplate(id.slice(5))).toMatchObject(browserTpl);
  });

  it("should take over a saved template by adoptId only when every field matches, sending nothing", async () => {
    const saved = await client.createTemplate(browserTpl as Parameters<WorkspaceClient["createTemplate"]>[0]);
    await h.ctl.resetCounters();
    const { id, outs } = await up(h.template, { ...browserTpl, adoptId: saved.id });
    expect(id).toBe(`demo/${saved.id}`);
    expect(outs).toMatchObject({ templateId: saved.id, createdAt: saved.createdAt });
    expect((await h.ctl.counters()).requests.mutating).toBe(0);
    const differs = await up(h.template, { ...browserTpl, name: "other", adoptId: saved.id }).catch((e: unknown) => e);
    expect((differs as Error).message).toMatch(
      new RegExp(`adoptId: template ${saved.id} differs from the declared one in name; a template cannot be updated`),
    );
    const { failures } = await h.template.check({}, { ...browserTpl, adoptId: "nope" });
    expect(failures).toEqual([{ property: "adoptId", reason: expect.stringContaining("tpl_<hex>") }]);
  });

  it("should refuse a password at preview and send nothing", async () => {
    const { failures } = await h.template.check(
      {},
      {
        name: "vm",
        kind: "vm-ubuntu",
        config: { vm: { cpus: 2, credentials: { username: "u", password: PASSWORD } } },
      },
    );
    expect(failures).toEqual([
      {
        property: "",
        reason: expect.stringMatching(
          /^config\.vm\.credentials\.password \(set; not shown, it may be secret\): a template cannot hold a password/,
        ),
      },
    ]);
    expect(JSON.stringify(failures)).not.toContain(PASSWORD);
    expect(await apiRequests(h)).toEqual({});
  });

  it("should replace on any template field, create first, and record a connection change without a request", async () => {
    const { id, outs } = await up(h.template, browserTpl);
    const replaced = await h.template.diff(id, outs, {
      ...browserTpl,
      name: "renamed",
      workspace: "demo",
      baseUrl: h.svc.url,
    });
    expect(replaced).toMatchObject({ changes: undefined, replaces: ["name"], deleteBeforeReplace: false });
    await h.ctl.resetCounters();
    const moved = await h.template.update(id, outs, { ...browserTpl, workspace: "demo", baseUrl: `${h.svc.url}/` });
    expect(moved.outs).toMatchObject({
      templateId: outs.templateId,
      createdAt: outs.createdAt,
      baseUrl: `${h.svc.url}/`,
    });
    expect(await apiRequests(h)).toEqual({});
  });

  it("should read a template back, live, and drop one that is gone", async () => {
    const { id, outs } = await up(h.template, browserTpl);
    const read = await h.template.read(id, outs); // refresh: the engine passes the recorded outputs
    expect(read.props).toMatchObject({ ...browserTpl, templateId: outs.templateId, workspace: "demo" });
    expect(read.inputs).toMatchObject(browserTpl);
    expect(read.inputs).not.toHaveProperty("templateId");
    await h.template.delete(id, outs);
    expect(await h.template.read(id, outs)).toEqual({ id: "" });
    await expect(h.template.delete(id, outs)).resolves.toBeUndefined();
  });

  it("should take the connection from the stack config given to configure", async () => {
    const ctx = createContext({ env: {} });
    const provider = createTemplateProvider(ctx);
    const values: Record<string, string> = { "wws:baseUrl": h.svc.url, "wws:workspace": "demo", "wws:apiKey": KEY };
    const config: StackConfig = { get: (k) => values[k] };
    expect((await provider.check({}, browserTpl)).failures).toHaveLength(3);
    await provider.configure({ config });
    const checked = await provider.check({}, browserTpl);
    expect(checked.failures).toEqual([]);
    expect(checked.inputs).not.toHaveProperty("apiKey");
    const { id } = await provider.create(checked.inputs);
    expect(id).toMatch(/^demo\/tpl_/);
    await ctx.close();
  });
});
