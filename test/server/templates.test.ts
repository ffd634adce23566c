import { TEMPLATE_CONFIG_MAX_BYTES } from "../../sdk/schemas";
import type { RunningService } from "../../server";
import { call, start } from "./helpers";

let svc: RunningService;
beforeAll(async () => {
  svc = await start();
});
afterAll(() => svc.close());

const create = (body: unknown): ReturnType<typeof call> => call(svc, "POST", "/v1/tenants/demo/templates", { body });

describe("POST /v1/tenants/{name}/templates", () => {
  it("should answer 201 with a tpl_<hex> id, createdAt and the config with passwords stripped", async () => {
    const res = await create({
      name: "db",
      description: "a database",
      kind: "storage",
      config: {
        password: "top-level-pw",
        storage: { engine: "postgres", password: "spec-pw", credentials: { username: "app", password: "cred-pw" } },
      },
    });
    expect(res.status).toBe(201);
    expect(res.json.id).toMatch(/^tpl_[0-9a-f]+$/);
    expect(Number.isNaN(Date.parse(res.json.createdAt))).toBe(false);
    expect(res.json).toMatchObject({ name: "db", description: "a database", kind: "storage" });
    expect(res.json.config).toEqual({ storage: { engine: "postgres", credentials: { username: "app" } } });
    expect(res.text).not.toMatch(/top-level-pw|spec-pw|cred-pw/);
  });

  it("should accept a browser template with an aiAgent object under the browser key", async () => {
    const res = await create({
      name: "b",
      kind: "browser",
      config: { browser: { aiAgent: { enabled: true, provider: "p", model: "m" } } },
    });
    expect(res.status).toBe(201);
  });

  it("should answer 400 naming a top-level config key other than the kind's spec key", async () => {
    const res = await create({ name: "x", kind: "vm-ubuntu", config: { vm: {}, pod: {} } });
    expect(res.status).toBe(400);
    expect(res.json.error.details).toContainEqual(expect.objectContaining({ path: "config.pod" }));
  });

  it("should answer 400 naming missing and unknown fields", async () => {
    const res = await create({ kind: "pod", config: { pod: {} }, colour: "red" });
    expect(res.status).toBe(400);
    const paths = res.json.error.details.map((d: { path: string }) => d.path);
    expect(paths).toEqual(expect.arrayContaining(["name", "colour"]));
  });

  it("should answer 413 when the serialized config exceeds 64 KB and store nothing", async () => {
    const before = (await call(svc, "GET", "/v1/tenants/demo/templates")).json.templates.length;
    const big = "x".repeat(TEMPLATE_CONFIG_MAX_BYTES);
    const res = await create({ name: "big", kind: "pod", config: { pod: { image: big } } });
    expect(res.status).toBe(413);
    expect(res.json.error).toMatchObject({ code: "payload_too_large", details: [{ path: "config" }] });
    expect((await call(svc, "GET", "/v1/tenants/demo/templates")).json.templates).toHaveLength(before);
  });

  it("should accept a config of exactly 64 KB serialized", async () => {
    const overhead = JSON.stringify({ pod: { image: "" } }).length;
    const res = await create({
      name: "edge",
      kind: "pod",
      config: { pod: { image: "y".repeat(TEMPLATE_CONFIG_MAX_BYTES - overhead) } },
    });
    expect(res.status).toBe(201);
  });
});

describe("GET and DELETE /v1/tenants/{name}/templates[/{id}]", () => {
  it("should list, get and delete a template (204), then answer 404", async () => {
    const t = (await create({ name: "pod", kind: "pod", config: { pod: { image: "nginx" } } })).json;
    const list = await call(svc, "GET", "/v1/tenants/demo/templates");
    expect(list.status).toBe(200);
    expect(list.json.templates).toContainEqual(t);
    expect((await call(svc, "GET", `/v1/tenants/demo/templates/${t.id}`)).json).toEqual(t);
    const del = await call(svc, "DELETE", `/v1/tenants/demo/templates/${t.id}`);
    expect(del.status).toBe(204);
    expect(del.text).toBe("");
    expect((await call(svc, "GET", `/v1/tenants/demo/templates/${t.id}`)).status).toBe(404);
    expect((await call(svc, "DELETE", `/v1/tenants/demo/templates/${t.id}`)).status).toBe(404);
  });

  it("should answer 400 for a malformed template id", async () => {
    const res = await call(svc, "GET", "/v1/tenants/demo/templates/..%2Fetc");
    expect(res.status).toBe(400);
    expect(res.json.error.details[0].path).toBe("id");
  });

  it("should keep templates per workspace", async () => {
    const t = (await create({ name: "mine", kind: "controller", config: { controller: {} } })).json;
    const res = await call(svc, "GET", `/v1/tenants/other/templates/${t.id}`, { key: "other-key" });
    expect(res.status).toBe(404);
  });
});
