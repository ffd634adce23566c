/**
 * What the reliability matrix (test/reliability/auth-isolation.test.ts) does not cover: every
 * endpoint accepts its workspace's key on writes too, the path's workspace name is checked
 * before the key, and a request without a key maps to no workspace. Refusals of every endpoint
 * to every wrong key, the fleet and the stream are all there.
 */
import { KeyRing } from "../../server/auth";
import type { RunningService } from "../../server";
import { CONTROL_TOKEN, KEYS, call, start } from "./helpers";

let svc: RunningService;
let templateId: string;
beforeAll(async () => {
  svc = await start();
  await call(svc, "POST", "/v1/tenants/demo/workloads/pod", { body: { id: "auth-w", image: "x" } });
  await call(svc, "POST", "/v1/tenants/demo/workloads/pod", { body: { id: "auth-d", image: "x" } });
  templateId = (
    await call(svc, "POST", "/v1/tenants/demo/templates", { body: { name: "t", kind: "pod", config: { pod: {} } } })
  ).json.id;
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

describe("auth", () => {
  it("should accept the workspace's key in x-api-key and as a bearer token on every endpoint, writes included", async () => {
    for (const [method, path, body] of ENDPOINTS) {
      for (const o of [{ key: KEYS.demo }, { bearer: KEYS.demo }]) {
        const res = await call(svc, method, path.replace("{tpl}", templateId), { ...o, body });
        expect([method, path, [401, 403].includes(res.status)]).toEqual([method, path, false]);
      }
    }
  });

  it("should check the workspace name in the path before authorising (400 naming name)", async () => {
    const res = await call(svc, "GET", "/v1/tenants/Not_A_Label/spec");
    expect(res.status).toBe(400);
    expect(res.json.error.details[0].path).toBe("name");
  });
});

describe("KeyRing", () => {
  it("should map no key to no workspace", () => {
    expect(new KeyRing({ a: "ka" }).workspaceOf(undefined)).toBeUndefined();
  });
});

describe("several labelled keys of one workspace", () => {
  it("should accept each key, name its label as the actor of the activity rows of its changes, and revoke all at a rotation", async () => {
    const multi = await start({
      keys: { demo: [{ key: "demo-key" }, { key: "ops-key", label: "ops-laptop" }], other: "other-key" },
    });
    try {
      await call(multi, "POST", `${T}/workloads/pod`, { body: { id: "by-ops", image: "x" }, key: "ops-key" });
      await call(multi, "POST", `${T}/workloads/pod`, { body: { id: "by-ci", image: "x" } });
      const rows = (await call(multi, "GET", `${T}/activity`)).json.rows as Array<{
        actor: string;
        action: string;
        target: { id: string };
      }>;
      const created = rows.filter((r) => r.action === "workload.created").map((r) => [r.target.id, r.actor]);
      expect(created).toEqual(
        expect.arrayContaining([
          ["by-ops", "ops-laptop"],
          ["by-ci", "api"],
        ]),
      );
      await call(multi, "PUT", "/_control/workspaces/demo/key", {
        body: { key: "new-key" },
        headers: { "x-control-token": CONTROL_TOKEN },
        key: null,
      });
      for (const old of ["demo-key", "ops-key"])
        expect((await call(multi, "GET", `${T}/spec`, { key: old })).status).toBe(401);
      expect((await call(multi, "GET", `${T}/spec`, { key: "new-key" })).status).toBe(200);
    } finally {
      await multi.close();
    }
  });
});
