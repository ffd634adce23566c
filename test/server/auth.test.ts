import { KeyRing, presentedKey } from "../../server/auth";
import type { RunningService } from "../../server";
import { KEYS, call, start, statusOf, type CallOptions } from "./helpers";
import { openStream } from "./sse";

let svc: RunningService;
let templateId: string;
beforeAll(async () => {
  svc = await start();
  await call(svc, "POST", "/v1/tenants/demo/workloads/pod", { body: { id: "auth-w", image: "x" } });
  await call(svc, "POST", "/v1/tenants/demo/workloads/pod", { body: { id: "auth-d", image: "x" } });
  templateId = (await call(svc, "POST", "/v1/tenants/demo/templates", { body: { name: "t", kind: "pod", config: { pod: {} } } })).json.id;
});
afterAll(() => svc.close());

const T = "/v1/tenants/demo";
/** `{tpl}` stands for a template created in beforeAll. */
const ENDPOINTS: Array<[string, string, unknown?]> = [
  ["POST", `${T}/workloads/pod`, { id: "auth-new", image: "x" }],
  ["GET", `${T}/workloads/auth-w/status`],
  ["POST", `${T}/workloads/auth-w/restart`],
  ["DELETE", `${T}/workloads/auth-d`],
  ["GET", `${T}/spec`],
  ["POST", `${T}/templates`, { name: "n", kind: "pod", config: { pod: {} } }],
  ["GET", `${T}/templates`],
  ["GET", `${T}/templates/{tpl}`],
  ["DELETE", `${T}/templates/tpl_0000`],
  ["GET", `${T}/pulse`],
  ["GET", `${T}/activity`],
  ["GET", `${T}/asks`],
  ["GET", `${T}/secrets`],
];
const CASES: Array<[string, CallOptions, number]> = [
  ["no key", { key: null }, 401],
  ["an unknown x-api-key", { key: "wrong" }, 401],
  ["an unknown bearer token", { bearer: "wrong" }, 401],
  ["another workspace's x-api-key", { key: KEYS.other }, 403],
  ["another workspace's bearer token", { bearer: KEYS.other }, 403],
];

describe("auth", () => {
  describe.each(ENDPOINTS)("%s %s", (method, path, body) => {
    it.each(CASES)("should refuse %s with the error body and a request id", async (_name, options, status) => {
      const res = await call(svc, method, path.replace("{tpl}", templateId), { ...options, body });
      expect(res.status).toBe(status);
      expect(res.json.error.code).toBe(status === 401 ? "unauthorized" : "forbidden");
      expect(res.headers.get("x-request-id")).toMatch(/^req_/);
    });

    it("should accept the workspace's key in x-api-key and as a bearer token", async () => {
      for (const o of [{ key: KEYS.demo }, { bearer: KEYS.demo }]) {
        const res = await call(svc, method, path.replace("{tpl}", templateId), { ...o, body });
        expect([401, 403]).not.toContain(res.status);
      }
    });
  });

  it("should apply the matrix to the event stream", async () => {
    for (const [, o, status] of CASES) {
      const headers: Record<string, string> = {};
      if (o.key) headers["x-api-key"] = o.key;
      if (o.bearer) headers.authorization = `Bearer ${o.bearer}`;
      const res = await fetch(`${svc.url}${T}/events/stream`, { headers });
      expect(res.status).toBe(status);
      expect(((await res.json()) as { error: { code: string } }).error.code).toBeDefined();
    }
    const ok = await openStream(svc);
    expect(ok.response.status).toBe(200);
    ok.close();
  });

  it("should let any valid key read the fleet, and nobody without one", async () => {
    expect((await call(svc, "GET", "/v1/fleet/hosts", { key: KEYS.other })).status).toBe(200);
    expect((await call(svc, "GET", "/v1/fleet/hosts", { bearer: KEYS.demo })).status).toBe(200);
    expect((await call(svc, "GET", "/v1/fleet/hosts", { key: null })).status).toBe(401);
    expect((await call(svc, "GET", "/v1/fleet/hosts", { key: "nope" })).status).toBe(401);
  });

  it("should leave state unchanged after refused mutations", async () => {
    const res = await call(svc, "POST", `${T}/workloads/pod`, { key: KEYS.other, body: { id: "auth-never", image: "x" } });
    expect(res.status).toBe(403);
    expect((await statusOf(svc, "auth-never")).status).toBe(404);
  });

  it("should check the workspace name in the path before authorising (400 naming name)", async () => {
    const res = await call(svc, "GET", "/v1/tenants/Not_A_Label/spec");
    expect(res.status).toBe(400);
    expect(res.json.error.details[0].path).toBe("name");
  });
});

describe("KeyRing", () => {
  it("should map a key to its workspace and nothing else", () => {
    const ring = new KeyRing({ a: "ka", b: "kb" });
    expect(ring.workspaceOf("ka")).toBe("a");
    expect(ring.workspaceOf("kb")).toBe("b");
    expect(ring.workspaceOf("kc")).toBeUndefined();
    expect(ring.workspaceOf(undefined)).toBeUndefined();
    expect(JSON.stringify(ring)).not.toMatch(/ka|kb/);
  });

  it("should read x-api-key first, then a Bearer authorization", () => {
    expect(presentedKey({ "x-api-key": "k1", authorization: "Bearer k2" })).toBe("k1");
    expect(presentedKey({ authorization: "bearer k2" })).toBe("k2");
    expect(presentedKey({ authorization: "Basic abc" })).toBeUndefined();
  });
});
