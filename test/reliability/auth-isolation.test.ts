import type { RunningService } from "../../server";
import { KEYS, call, expectErrorAnswer, openStream, start, waitFor, type Answer, type CallOptions } from "./helpers";

const A = "/v1/tenants/alpha";
const PASSWORD = "iso-Secret-Pw-77";

let svc: RunningService;
let templateId: string;

beforeAll(async () => {
  svc = await start();
  const seed: Array<[string, unknown]> = [
    [`${A}/workloads/pod`, { id: "iso-pod", image: "nginx", ports: [{ name: "http", port: 80 }] }],
    [`${A}/workloads/pod`, { id: "iso-doomed", image: "nginx" }],
    [
      `${A}/workloads/storage`,
      { id: "iso-db", engine: "postgres", credentials: { password: PASSWORD }, adminConsole: true },
    ],
    [`${A}/workloads/vm-ubuntu`, { id: "iso-vm", credentials: { password: PASSWORD }, aiDaemon: { enabled: true } }],
  ];
  for (const [path, body] of seed) expect((await call(svc.url, "POST", path, { body })).status).toBe(202);
  const t = await call(svc.url, "POST", `${A}/templates`, {
    body: { name: "iso", kind: "pod", config: { pod: { image: "x" } } },
  });
  templateId = t.json.id;
  await waitFor(
    async () => {
      const pulse = (await call(svc.url, "GET", `${A}/pulse`)).json as { workloads: Array<{ phase: string }> };
      const admin = (await call(svc.url, "GET", `${A}/workloads/iso-db/status`)).json;
      return pulse.workloads.every((w) => w.phase === "Running") && admin.adminReady === true;
    },
    10_000,
    "alpha's workloads ready",
  );
});
afterAll(() => svc.close());

/** Every endpoint of the contract that names a workspace, aimed at workspace alpha. `{tpl}`: alpha's template. */
const ENDPOINTS: Array<[method: string, path: string, body?: unknown]> = [
  ["POST", `${A}/workloads/pod`, { id: "iso-pod", image: "evil:latest" }],
  ["POST", `${A}/workloads/storage`, { id: "iso-db", engine: "postgres", credentials: { password: "attacker-pw" } }],
  ["POST", `${A}/workloads/vm-ubuntu`, { id: "iso-vm", credentials: { password: "attacker-pw" } }],
  ["GET", `${A}/workloads/iso-pod/status`],
  ["POST", `${A}/workloads/iso-pod/restart`],
  ["DELETE", `${A}/workloads/iso-doomed`],
  ["GET", `${A}/spec`],
  ["POST", `${A}/templates`, { name: "evil", kind: "pod", config: { pod: {} } }],
  ["GET", `${A}/templates`],
  ["GET", `${A}/templates/{tpl}`],
  ["DELETE", `${A}/templates/{tpl}`],
  // A template that does not exist: refused before it is looked up.
  ["DELETE", `${A}/templates/tpl_0000`],
  ["GET", `${A}/pulse`],
  ["GET", `${A}/activity`],
  ["GET", `${A}/asks`],
  ["GET", `${A}/secrets`],
  ["GET", `${A}/events/stream`],
];

const UNKNOWN = "nobody-Key-000000";
/** Ways of presenting a key, with the status the contract gives each for workspace alpha's endpoints. */
const PRESENTATIONS: Array<[name: string, options: CallOptions, status: 401 | 403]> = [
  ["no key", { key: null }, 401],
  ["an unknown x-api-key", { key: UNKNOWN }, 401],
  ["an unknown bearer token", { bearer: UNKNOWN }, 401],
  ["alpha's key minus its last character", { key: KEYS.alpha.slice(0, -1) }, 401],
  ["alpha's key in upper case", { key: KEYS.alpha.toUpperCase() }, 401],
  ["alpha's key with a suffix", { key: `${KEYS.alpha}x` }, 401],
  [
    "alpha's key under the Basic scheme",
    { key: null, headers: { authorization: `Basic ${Buffer.from(`alpha:${KEYS.alpha}`).toString("base64")}` } },
    401,
  ],
  ["alpha's key under a Token scheme", { key: null, headers: { authorization: `Token ${KEYS.alpha}` } }, 401],
  ["an empty bearer token", { key: null, headers: { authorization: "Bearer " } }, 401],
  ["beta's x-api-key", { key: KEYS.beta }, 403],
  ["beta's bearer token", { bearer: KEYS.beta }, 403],
  [
    "beta's x-api-key beside alpha's bearer token",
    { key: KEYS.beta, headers: { authorization: `Bearer ${KEYS.alpha}` } },
    403,
  ],
];

function send(method: string, path: string, body: unknown, o: CallOptions): Promise<Answer> {
  return call(svc.url, method, path.replace("{tpl}", templateId), { ...o, body });
}

/** Everything of workspace alpha, read with alpha's key. */
async function alphaState(): Promise<Record<string, unknown>> {
  const out: Record<string, unknown> = {};
  const paths = ["spec", "templates", `templates/${templateId}`, "secrets", "pulse", "activity?limit=1000", "asks"];
  for (const id of ["iso-pod", "iso-doomed", "iso-db", "iso-vm"]) paths.push(`workloads/${id}/status`);
  for (const p of paths) out[p] = (await call(svc.url, "GET", `${A}/${p}`)).text;
  return out;
}

describe("auth", () => {
  // One case per endpoint: the refusals are one middleware's, what each case adds is its route.
  it.each(ENDPOINTS)(
    "should refuse every wrong presentation of a key to %s %s, with the error body and a request id",
    async (...[method, path, body]: (typeof ENDPOINTS)[number]) => {
      // A rest parameter: jest would take a third declared parameter for a `done` callback on rows without a body.
      for (const [name, options, status] of PRESENTATIONS) {
        const res = await send(method, path, body, options);
        expect([name, res.status]).toEqual([name, status]);
        expectErrorAnswer(res, status);
        expect([name, res.json.error.code]).toEqual([name, status === 401 ? "unauthorized" : "forbidden"]);
        if (status === 401) expect([name, res.headers["www-authenticate"]]).toEqual([name, "Bearer"]);
      }
    },
  );

  it("should accept alpha's key as x-api-key, as a bearer token and with a lower-case scheme on every read", async () => {
    for (const [method, path] of ENDPOINTS.filter(([m, p]) => m === "GET" && !p.endsWith("/stream"))) {
      for (const o of [
        { key: KEYS.alpha },
        { bearer: KEYS.alpha },
        { key: null, headers: { authorization: `bearer ${KEYS.alpha}` } },
      ]) {
        expect([path, (await send(method, path, undefined, o)).status]).toEqual([path, 200]);
      }
    }
    for (const o of [{ key: KEYS.alpha }, { bearer: KEYS.alpha }]) {
      const s = await openStream(svc.url, "alpha", o);
      expect(s.status).toBe(200);
      s.close();
    }
  });

  it("should let any valid key read the fleet, in either form, and refuse everyone else with 401", async () => {
    for (const o of [{ key: KEYS.alpha }, { key: KEYS.beta }, { bearer: KEYS.beta }])
      expect((await call(svc.url, "GET", "/v1/fleet/hosts", o)).status).toBe(200);
    for (const o of [{ key: null }, { key: UNKNOWN }, { bearer: UNKNOWN }])
      expectErrorAnswer(await call(svc.url, "GET", "/v1/fleet/hosts", o), 401);
  });

  it("should answer a workspace that has no key with 403 to a valid key, and 401 to anyone else", async () => {
    expectErrorAnswer(await call(svc.url, "GET", "/v1/tenants/gamma/spec", { key: KEYS.alpha }), 403);
    expectErrorAnswer(await call(svc.url, "GET", "/v1/tenants/gamma/spec", { key: UNKNOWN }), 401);
  });
});

describe("workspace isolation", () => {
  it("should refuse every read and write of alpha with beta's key, in both forms, and leave alpha unchanged", async () => {
    const before = await alphaState();
    for (const [method, path, body] of ENDPOINTS) {
      for (const o of [{ key: KEYS.beta }, { bearer: KEYS.beta }]) {
        const res = await send(method, path, body, o);
        expect([method, path, res.status]).toEqual([method, path, 403]);
        // Nothing of alpha's comes back with the refusal.
        expect(res.text).not.toMatch(/iso-|tpl_|workloads\//);
      }
    }
    expect(await alphaState()).toEqual(before);
  });

  it("should show beta none of alpha's workloads, templates, secrets, agents or activity", async () => {
    const B = "/v1/tenants/beta";
    const k = { key: KEYS.beta };
    expect((await call(svc.url, "GET", `${B}/spec`, k)).json.workloads).toEqual([]);
    expect((await call(svc.url, "GET", `${B}/templates`, k)).json.templates).toEqual([]);
    expect((await call(svc.url, "GET", `${B}/secrets`, k)).json.secrets).toEqual([]);
    const pulse = (await call(svc.url, "GET", `${B}/pulse`, k)).json;
    expect([pulse.workloads, pulse.agents]).toEqual([[], {}]);
    expect((await call(svc.url, "GET", `${B}/activity?limit=1000`, k)).json.rows).toEqual([]);
    expectErrorAnswer(await call(svc.url, "GET", `${B}/workloads/iso-pod/status`, k), 404);
    expectErrorAnswer(await call(svc.url, "GET", `${B}/templates/${templateId}`, k), 404);
    expectErrorAnswer(await call(svc.url, "DELETE", `${B}/templates/${templateId}`, k), 404);
    expectErrorAnswer(await call(svc.url, "POST", `${B}/workloads/iso-pod/restart`, k), 404);
    expectErrorAnswer(await call(svc.url, "DELETE", `${B}/workloads/iso-doomed`, k), 404);
  });

  it("should let beta use alpha's workload ids in its own workspace without touching alpha's", async () => {
    const before = await alphaState();
    const B = "/v1/tenants/beta";
    const k = { key: KEYS.beta };
    // Same id, another type and another password: no conflict across workspaces.
    expect(
      (
        await call(svc.url, "POST", `${B}/workloads/storage`, {
          ...k,
          body: { id: "iso-pod", engine: "redis", credentials: { password: "beta-pw" } },
        })
      ).status,
    ).toBe(202);
    expect(
      (
        await call(svc.url, "POST", `${B}/workloads/storage`, {
          ...k,
          body: { id: "iso-db", engine: "postgres", credentials: { password: "beta-pw" } },
        })
      ).status,
    ).toBe(202);
    expect(
      (await call(svc.url, "GET", `${B}/secrets`, k)).json.secrets.map((s: { path: string }) => s.path).sort(),
    ).toEqual(["workloads/iso-db/credentials", "workloads/iso-pod/credentials"]);
    await waitFor(
      async () => (await call(svc.url, "GET", `${B}/workloads/iso-db/status`, k)).json?.phase === "Running",
      5000,
      "beta's iso-db Running",
    );
    expect(await alphaState()).toEqual(before);
  });

  it("should never put alpha's events on beta's stream", async () => {
    const beta = await openStream(svc.url, "beta", { key: KEYS.beta });
    const alpha = await openStream(svc.url, "alpha", { key: KEYS.alpha });
    expect((await call(svc.url, "POST", `${A}/workloads/iso-pod/restart`)).status).toBe(200);
    expect(
      (
        await call(svc.url, "POST", `${A}/templates`, {
          body: { name: "alpha-only", kind: "pod", config: { pod: {} } },
        })
      ).status,
    ).toBe(201);
    await alpha.until(() => alpha.events.some((f) => f.data?.includes('"template.created"')));
    // Then something in beta: once beta sees it, everything alpha caused before would have arrived too.
    expect(
      (
        await call(svc.url, "POST", "/v1/tenants/beta/workloads/controller", {
          key: KEYS.beta,
          body: { id: "beta-marker" },
        })
      ).status,
    ).toBe(202);
    await beta.until(() => beta.events.some((f) => f.data?.includes("beta-marker")));
    beta.close();
    alpha.close();
    expect(beta.raw).not.toMatch(/iso-|alpha-only/);
    expect(alpha.raw).not.toContain("beta-marker");
  });
});
