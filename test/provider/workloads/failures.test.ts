import { ResourceInitError } from "../../../provider/dynamic/engine/init-error";
import { createContext } from "../../../provider/dynamic/context";
import { createWorkloadProvider } from "../../../provider/dynamic/workloads/provider";
import { fieldOf } from "../../support/failures";
import type { WorkspaceClient } from "../../../sdk";
import {
  KEY,
  OTHER_KEY,
  PASSWORD,
  STUB,
  apiRequests,
  change,
  startHarness,
  uid,
  up,
  withoutCredentials,
  type Harness,
} from "../harness";

const SECRETS = [PASSWORD, KEY, OTHER_KEY, "second-Pass-Word-8c1"];
const expectNoSecret = (value: unknown): void => {
  const text =
    value instanceof Error ? `${value.message}\n${value.stack}\n${JSON.stringify(value)}` : JSON.stringify(value);
  for (const s of SECRETS) expect(text).not.toContain(s);
};

describe("workload provider failures", () => {
  let h: Harness;
  let client: WorkspaceClient;
  beforeAll(async () => {
    h = await startHarness();
    client = h.client;
  });
  afterAll(async () => {
    await h.ctl.resumeReconciler();
    await h.close();
  });
  beforeEach(() => h.ctl.resetCounters());

  it("should report every failure at preview and send no request at all", async () => {
    const { failures } = await h.workload.check(
      {},
      {
        workloadId: "Bad_Id",
        type: "storage",
        engine: "mysql",
        cpu: "fast",
        credentials: { password: "" },
        backup: { enabled: "yes" },
      },
    );
    expect(failures.map(fieldOf).sort()).toEqual([
      "backup.enabled",
      "cpu",
      "credentials.password",
      "engine",
      "workloadId",
    ]);
    expect(await apiRequests(h)).toEqual({});
  });

  it("should keep a workload that was accepted but not ready in time in the stack, with init errors, and wait again on the next up", async () => {
    await h.ctl.pauseReconciler();
    const id = uid("slow");
    const news = { workloadId: id, type: "vm-ubuntu", credentials: { password: PASSWORD }, readyTimeoutSeconds: 0.3 };
    const err = (await up(h.workload, news).catch((e: unknown) => e)) as ResourceInitError;
    expect(err).toBeInstanceOf(ResourceInitError);
    // The shape the dynamic provider host turns into a resource with init errors:
    expect(err.id).toBe(`demo/${id}`);
    expect(err.properties).toMatchObject({ workloadId: id, workspace: "demo", phase: "Pending", __provider: STUB });
    expect(err.reasons).toEqual([err.message]);
    expect(err.message).toMatch(
      new RegExp(
        `vm-ubuntu ${id} was created but did not become ready: timed out after \\d+ ms .* last phase Pending.*the next \`pulumi up\` waits for it again`,
      ),
    );
    expect(err.stack).toBe(`ResourceInitError: ${err.message}`);
    // What the user reads; `properties` become outputs, where the engine keeps `credentials` secret.
    expectNoSecret({
      message: err.message,
      stack: err.stack,
      reasons: err.reasons,
      properties: withoutCredentials(err.properties),
    });
    expect((await client.getStatus(id)).phase).toBe("Pending");

    // Next `pulumi up`, same inputs: the diff asks for the update that waits again, which sends nothing.
    await h.ctl.resumeReconciler();
    await h.ctl.resetCounters();
    const next = await change(h.workload, err.id, err.properties, news);
    expect(next.diff).toMatchObject({ changes: true, replaces: [] });
    expect(next.outs).toMatchObject({ phase: "Running", generation: 1, observedGeneration: 1 });
    expect(await apiRequests(h)).not.toHaveProperty(["POST /v1/tenants/:name/workloads/:type"]);
  });

  it("should keep a workload that failed in the stack, with the service's message", async () => {
    await h.ctl.pauseReconciler();
    const id = uid("fail");
    const pending = up(h.workload, { workloadId: id, type: "pod", image: "nginx" }).catch((e: unknown) => e);
    for (let i = 0; i < 100 && !(await client.getStatus(id).catch(() => undefined)); i++)
      await new Promise((r) => setTimeout(r, 10));
    await h.ctl.failWorkload("demo", id, "image pull failed: manifest unknown");
    const err = (await pending) as ResourceInitError;
    await h.ctl.resumeReconciler();
    expect(err).toBeInstanceOf(ResourceInitError);
    expect(err.message).toContain("pod " + id + " failed: image pull failed: manifest unknown");
    expect(err.message).not.toContain("..");
    expect(err.message).toMatch(
      /It stays in the stack; fix the cause, then change its spec or `restartTrigger` and run `pulumi up`\.$/,
    );
    expect(err.properties).toMatchObject({ phase: "Failed", message: "image pull failed: manifest unknown" });
  });

  it("should keep passwords and keys out of the errors of refused requests", async () => {
    const id = uid("db");
    await up(h.workload, { workloadId: id, type: "storage", engine: "postgres", credentials: { password: PASSWORD } });
    // Another stack adopting it with another password and a changed spec (so the upsert is sent): the service refuses (set once).
    const err = await up(h.workload, {
      workloadId: id,
      type: "storage",
      engine: "postgres",
      version: "16",
      credentials: { password: "second-Pass-Word-8c1" },
      adopt: true,
    }).catch((e: unknown) => e);
    expect((err as Error).message).toMatch(/HTTP 409 conflict: storage credentials are set once/);
    expectNoSecret(err);
    const wrongKey = await up(h.workload, { workloadId: uid("k"), type: "browser", apiKey: OTHER_KEY }).catch(
      (e: unknown) => e,
    );
    expect((wrongKey as Error).message).toMatch(
      /apiKey: the API key \(from the `apiKey` argument of the resource or of its Workspace\) belongs to another workspace than demo.*answered 403/,
    );
    expectNoSecret(wrongKey);
  });

  it("should say how to recover when a workload was deleted outside Pulumi", async () => {
    const id = uid("gone");
    const { id: rid, outs } = await up(h.workload, { workloadId: id, type: "browser" });
    await client.deleteWorkload(id);
    await expect(change(h.workload, rid, outs, { workloadId: id, type: "browser", cpu: "1" })).rejects.toThrow(
      /(no longer exists|is being deleted) in workspace demo \(deleted outside Pulumi\): run `pulumi refresh`/,
    );
  });

  it("should name every way to set a missing connection setting when it reaches create", async () => {
    const bare = createWorkloadProvider(createContext({ env: {} }));
    await expect(bare.create({ workloadId: "x", type: "browser" })).rejects.toThrow(
      /no base URL is set: .*wws:baseUrl.*WWS_BASE_URL/,
    );
  });

  it("should report a database's endpoint, admin console and connection URI, without the password", async () => {
    const id = uid("pg");
    const { outs } = await up(h.workload, {
      workloadId: id,
      type: "storage",
      engine: "postgres",
      adminConsole: true,
      network: { exposed: true },
      credentials: { password: PASSWORD },
      waitForAdminConsole: true,
    });
    expect(outs).toMatchObject({
      phase: "Running",
      adminReady: true,
      adminUrl: `https://${id}-admin-demo.workloads.localhost`,
      endpoint: `${id}.demo.workloads.localhost:5432`,
      connectionUri: `postgresql://app@${id}.demo.workloads.localhost:5432/postgres?sslmode=require`,
    });
    expectNoSecret(withoutCredentials(outs));
    const redis = await up(h.workload, {
      workloadId: uid("rd"),
      type: "storage",
      engine: "redis",
      network: { exposed: true },
      credentials: { username: "cache", password: PASSWORD },
    });
    expect(redis.outs.connectionUri).toMatch(/^rediss:\/\/cache@rd-[\w-]+\.demo\.workloads\.localhost:6380$/);
  });
});
