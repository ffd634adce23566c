import { mkdtempSync, readFileSync, readdirSync, rmSync, statSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { ControlClient } from "../../server";
import { CONTROL_TOKEN, DB, VM, call, start, statusOf, waitReady } from "./helpers";
import { openStream } from "./sse";

const PASSWORD = "persist-Pa55-word";
let dir: string;
beforeEach(() => {
  dir = mkdtempSync(join(tmpdir(), "wws-data-"));
});
afterEach(() => rmSync(dir, { recursive: true, force: true }));

const lastEventId = async (svc: { url: string; port: number }): Promise<number> =>
  Number((await call(svc as never, "GET", "/v1/tenants/demo/pulse")).json.lastEventId);

describe("persistence with dataDir", () => {
  it("should bring back workloads, templates and secrets after a restart, secrets in a 0600 file of their own", async () => {
    const first = await start({ dataDir: dir });
    await call(first, "POST", "/v1/tenants/demo/workloads/storage", {
      body: DB("db", { credentials: { password: PASSWORD } }),
    });
    await call(first, "POST", "/v1/tenants/demo/workloads/vm-ubuntu", { body: VM("vm") });
    const tpl = (
      await call(first, "POST", "/v1/tenants/demo/templates", { body: { name: "t", kind: "pod", config: { pod: {} } } })
    ).json;
    await waitReady(first, "db");
    await first.close();

    expect(statSync(join(dir, "secrets.json")).mode & 0o777).toBe(0o600);
    expect(readFileSync(join(dir, "secrets.json"), "utf8")).toContain(PASSWORD);
    expect(readFileSync(join(dir, "state.json"), "utf8")).not.toContain(PASSWORD);
    expect(readdirSync(dir).sort()).toEqual(["secrets.json", "state.json"]);

    const second = await start({ dataDir: dir });
    try {
      expect((await statusOf(second, "db")).json).toMatchObject({
        phase: "Running",
        generation: 1,
        observedGeneration: 1,
      });
      expect((await call(second, "GET", `/v1/tenants/demo/templates/${tpl.id}`)).json).toEqual(tpl);
      const secrets = (await call(second, "GET", "/v1/tenants/demo/secrets")).json.secrets.map(
        (s: { path: string }) => s.path,
      );
      expect(secrets.sort()).toEqual(["workloads/db/credentials", "workloads/vm/credentials"]);
      // The stored password is still the one set first: a different one is refused.
      const changed = await call(second, "POST", "/v1/tenants/demo/workloads/storage", {
        body: DB("db", { credentials: { password: "other" } }),
      });
      expect(changed.status).toBe(409);
      expect(
        (
          await call(second, "POST", "/v1/tenants/demo/workloads/storage", {
            body: DB("db", { credentials: { password: PASSWORD } }),
          })
        ).status,
      ).toBe(202);
    } finally {
      await second.close();
    }
  });

  it("should resume reconciling workloads that were in progress", async () => {
    const first = await start({ dataDir: dir });
    await new ControlClient(first.url, CONTROL_TOKEN).pauseReconciler();
    await call(first, "POST", "/v1/tenants/demo/workloads/pod", { body: { id: "p", image: "x" } });
    expect((await statusOf(first, "p")).json.phase).toBe("Pending");
    await first.close();
    const second = await start({ dataDir: dir });
    try {
      expect((await waitReady(second, "p")).generation).toBe(1);
    } finally {
      await second.close();
    }
  });

  it("should never hand out an event id twice: ids go on above the old ones, and an old id gets a resync", async () => {
    const first = await start({ dataDir: dir });
    await call(first, "POST", "/v1/tenants/demo/workloads/controller", { body: { id: "c" } });
    await waitReady(first, "c");
    const before = await lastEventId(first);
    await first.close();
    const persisted = JSON.parse(readFileSync(join(dir, "state.json"), "utf8")).workspaces.demo.lastEventId;
    expect(Number(persisted)).toBe(before);

    const second = await start({ dataDir: dir });
    try {
      const s = await openStream(second, { lastEventId: String(before - 1) });
      await s.until((f) => f.some((x) => x.event === "resync"));
      await call(second, "POST", `/v1/tenants/demo/workloads/c/restart`);
      await s.until((f) => f.some((x) => x.event === "activity"));
      const next = Number(s.events.find((f) => f.event === "activity")!.id);
      expect(next).toBeGreaterThan(before);
      s.close();
    } finally {
      await second.close();
    }
  });

  it("should refuse to start on a state file it cannot read, naming the file", async () => {
    writeFileSync(join(dir, "state.json"), "{not json");
    await expect(start({ dataDir: dir })).rejects.toThrow(/state\.json/);
  });
});

describe("event ids without dataDir", () => {
  it("should start above the ids of an earlier run (time-derived), so old ids get a resync", async () => {
    const first = await start();
    await call(first, "POST", "/v1/tenants/demo/workloads/controller", { body: { id: "c" } });
    const before = await lastEventId(first);
    await first.close();
    const second = await start();
    try {
      expect(await lastEventId(second)).toBeGreaterThanOrEqual(before);
      const s = await openStream(second, { lastEventId: String(before) });
      await s.until((f) => f.some((x) => x.event !== undefined));
      expect(s.events[0].event).toBe("resync");
      s.close();
    } finally {
      await second.close();
    }
  });
});
