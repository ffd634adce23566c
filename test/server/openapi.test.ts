import { execFileSync } from "node:child_process";
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { ERROR_CODES, WORKLOAD_TYPES } from "../../sdk/schemas";
import type { ServiceContext } from "../../server/context";
import { buildOpenApi } from "../../server/openapi";
import { resolveOptions } from "../../server/options";
import { buildRouter } from "../../server/routes";
import { openApiText } from "../../server/write-openapi";
import type { RunningService } from "../../server";
import {
  matchesSchema,
  operationOf,
  parameterSchemaOf,
  requestSchemaOf,
  responseProblem,
} from "../support/openapi-responses";
import { VM, call, start, uid, waitReady } from "./helpers";

type Doc = {
  paths: Record<string, Record<string, { responses: Record<string, unknown> }>>;
  components: Record<string, Record<string, unknown>>;
};
const doc = buildOpenApi() as unknown as Doc;

describe("openapi", () => {
  it("should be committed as openapi/openapi.json exactly as generated (node dist/server/write-openapi.js)", () => {
    const committed = readFileSync(join(__dirname, "../../openapi/openapi.json"), "utf8");
    expect(committed).toBe(openApiText());
  });

  it("should describe every route the service serves, and no other", () => {
    const ctx = { options: resolveOptions({}) } as ServiceContext;
    const served = buildRouter(ctx)
      .list()
      .flatMap((r) => {
        const route = `${r.method} ${r.pattern.replace(/:([a-z]+)/g, "{$1}")}`;
        // One concrete path per workload type: a templated {type} beside {id} is ambiguous.
        return route.includes("{type}") ? WORKLOAD_TYPES.map((type) => route.replace("{type}", type)) : [route];
      })
      .sort();
    const documented = Object.entries(doc.paths)
      .flatMap(([path, ops]) => Object.keys(ops).map((m) => `${m.toUpperCase()} ${path}`))
      .sort();
    expect(documented).toEqual(served);
  });

  it("should document every error code of the catalogue as a response with the error body", () => {
    for (const status of Object.values(ERROR_CODES)) {
      expect(doc.components.responses[`Error${status}`]).toMatchObject({
        content: { "application/json": { schema: { $ref: "#/components/schemas/ErrorBody" } } },
      });
    }
  });

  it("should resolve every $ref", () => {
    const text = JSON.stringify(doc);
    const refs = new Set(
      [...text.matchAll(/"\$ref":"#\/components\/([A-Za-z]+)\/([A-Za-z0-9]+)"/g)].map((m) => [m[1], m[2]].join("/")),
    );
    expect(refs.size).toBeGreaterThan(10);
    for (const ref of refs) {
      const [section, name] = ref.split("/");
      expect(doc.components[section]?.[name]).toBeDefined();
    }
  });

  it("should derive the request schemas from the zod schemas (unknown fields refused, patterns kept)", () => {
    const vm = doc.components.schemas.CreateVm as {
      additionalProperties: boolean;
      properties: { id: { pattern: string } };
    };
    expect(vm.additionalProperties).toBe(false);
    expect(vm.properties.id.pattern).toBe("^[a-z0-9]([a-z0-9-]{0,61}[a-z0-9])?$");
  });
});

describe("openapi, linted", () => {
  it("should pass Redocly's recommended-strict rules with no error", () => {
    const dir = mkdtempSync(join(tmpdir(), "wws-openapi-"));
    try {
      writeFileSync(join(dir, "openapi.json"), openApiText());
      const out = execFileSync(
        process.execPath,
        [join(__dirname, "../support/lint-openapi.mjs"), join(dir, "openapi.json")],
        {
          encoding: "utf8",
        },
      );
      const problems = JSON.parse(out) as Array<{ severity: string; rule: string; message: string; at: string }>;
      expect(problems.filter((p) => p.severity === "error")).toEqual([]);
      expect(problems.map((p) => `${p.rule} ${p.at}`)).toEqual([
        "operation-4xx-response #/paths/~1healthz/get/responses",
      ]);
    } finally {
      rmSync(dir, { recursive: true, force: true });
    }
  });

  it("should name every operation once, and carry a license", () => {
    const ids = Object.values(doc.paths).flatMap((ops) =>
      Object.values(ops).map((o) => (o as unknown as { operationId: string }).operationId),
    );
    expect(ids.every((id) => /^[a-z][A-Za-z]+$/.test(id))).toBe(true);
    expect(new Set(ids).size).toBe(ids.length);
    expect((buildOpenApi().info as { license: unknown }).license).toEqual({
      name: "Apache-2.0",
      identifier: "Apache-2.0",
    });
  });

  it("should judge answers: a body off its schema and an undocumented status are problems", () => {
    const url = "http://127.0.0.1:1/v1/tenants/demo/workloads/web/status";
    expect(responseProblem("GET", url, 200, JSON.stringify({ id: "web", phase: 3 }))).toMatch(/does not match/);
    expect(responseProblem("GET", url, 418, "")).toMatch(/status not documented/);
    expect(
      responseProblem("GET", url, 404, JSON.stringify({ error: { code: "not_found", message: "x" } })),
    ).toBeUndefined();
  });
});

describe("openapi and the service agree on what third-party validators found", () => {
  let svc: RunningService;
  beforeAll(async () => {
    svc = await start();
  });
  afterAll(() => svc.close());
  const T = "/v1/tenants/{name}";

  it("should give each workload type its own create path and body: no oneOf to pick from", async () => {
    const browser = requestSchemaOf("POST", `${T}/workloads/browser`);
    expect(browser).toEqual({ $ref: "#/components/schemas/CreateBrowser" });
    // Valid, but matched four of the five schemas of the old oneOf.
    const plain = { id: uid("br") };
    expect(matchesSchema(browser, plain)).toBe(true);
    expect((await call(svc, "POST", "/v1/tenants/demo/workloads/browser", { body: plain })).status).toBe(202);
    // A pod's field on a browser: the old oneOf accepted it; the document and the service refuse it.
    const wrong = { id: uid("xb"), image: "nginx" };
    expect(matchesSchema(browser, wrong)).toBe(false);
    expect((await call(svc, "POST", "/v1/tenants/demo/workloads/browser", { body: wrong })).status).toBe(400);
  });

  it("should accept a VM update that keeps an enabled aiDaemon without credentials, and refuse one that first enables it", async () => {
    const path = "/v1/tenants/demo/workloads/vm-ubuntu";
    const id = uid("vm");
    expect((await call(svc, "POST", path, { body: VM(id, { aiDaemon: { enabled: true } }) })).status).toBe(202);
    await waitReady(svc, id);
    expect((await call(svc, "POST", path, { body: { id, cpus: 4, aiDaemon: { enabled: true } } })).status).toBe(202);
    const plain = uid("vm");
    expect((await call(svc, "POST", path, { body: VM(plain) })).status).toBe(202);
    const first = await call(svc, "POST", path, { body: { id: plain, aiDaemon: { enabled: true } } });
    expect(first.status).toBe(400);
    expect(first.json.error.details).toEqual([
      { path: "credentials", message: expect.stringMatching(/first enables aiDaemon/) },
    ]);
  });

  it("should refuse a template config with a top-level __proto__ key, which the schema would drop", async () => {
    const res = await call(svc, "POST", "/v1/tenants/demo/templates", {
      rawBody: '{"name":"t","kind":"pod","config":{"pod":{"image":"nginx"},"__proto__":{"x":1}}}',
      headers: { "content-type": "application/json" },
    });
    expect(res.status).toBe(400);
    expect(res.json.error.details[0].path).toBe("config.__proto__");
  });

  it("should document the 32-level depth limit of a template config, and hold to it", async () => {
    expect(operationOf("POST", `${T}/templates`).description).toMatch(/nest at most 32 levels deep/);
    const nested = (levels: number): unknown => (levels === 1 ? {} : { a: nested(levels - 1) });
    // config is level 1 and config.pod level 2: the innermost object is level 32, then 33.
    const body = (levels: number) => ({
      name: uid("t"),
      kind: "pod",
      config: { pod: { image: "nginx", x: nested(levels - 2) } },
    });
    expect((await call(svc, "POST", "/v1/tenants/demo/templates", { body: body(32) })).status).toBe(201);
    expect((await call(svc, "POST", "/v1/tenants/demo/templates", { body: body(33) })).status).toBe(400);
  });

  it("should declare the path and query patterns the service enforces", async () => {
    const cases: Array<{ schema: Record<string, unknown>; bad: unknown; request: string }> = [
      { schema: parameterSchemaOf("GET", `${T}/spec`, "name"), bad: "Demo_1", request: "/v1/tenants/Demo_1/spec" },
      {
        schema: parameterSchemaOf("GET", `${T}/workloads/{id}/status`, "id"),
        bad: "Web_1",
        request: "/v1/tenants/demo/workloads/Web_1/status",
      },
      {
        schema: parameterSchemaOf("GET", `${T}/templates/{id}`, "id"),
        bad: "tpl_XYZ",
        request: "/v1/tenants/demo/templates/tpl_XYZ",
      },
      {
        schema: parameterSchemaOf("GET", `${T}/activity`, "after"),
        bad: Number.MAX_SAFE_INTEGER + 1,
        request: `/v1/tenants/demo/activity?after=${Number.MAX_SAFE_INTEGER + 1}`,
      },
    ];
    for (const c of cases) {
      expect([c.request, matchesSchema(c.schema, c.bad)]).toEqual([c.request, false]);
      const status = (await call(svc, "GET", c.request)).status;
      expect([c.request, status >= 400 && status < 500]).toEqual([c.request, true]);
    }
    // What the document allows, the service takes as well-formed (the answer is not a 400).
    expect(matchesSchema(parameterSchemaOf("GET", `${T}/activity`, "after"), Number.MAX_SAFE_INTEGER)).toBe(true);
    expect((await call(svc, "GET", `/v1/tenants/demo/activity?after=${Number.MAX_SAFE_INTEGER}`)).status).toBe(200);
    expect((await call(svc, "GET", "/v1/tenants/demo/templates/tpl_0abc")).status).toBe(404);
    expect((await call(svc, "GET", "/v1/tenants/demo/workloads/web-1/status")).status).toBe(404);
  });
});
