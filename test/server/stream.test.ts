import { ControlClient, type RunningService } from "../../server";
import { CONTROL_TOKEN, DB, KEYS, VM, call, start, uid, waitReady } from "./helpers";
import { openStream, type Frame, type StreamReader } from "./sse";

let svc: RunningService;
let control: ControlClient;
const open: StreamReader[] = [];
beforeAll(async () => {
  svc = await start({ ringSize: 50 });
  control = new ControlClient(svc.url, CONTROL_TOKEN);
});
afterEach(() => open.splice(0).forEach((s) => s.close()));
afterAll(() => svc.close());

async function stream(o: Parameters<typeof openStream>[1] = {}): Promise<StreamReader> {
  const s = await openStream(svc, o);
  open.push(s);
  return s;
}

const lastEventId = async (): Promise<string> => (await call(svc, "GET", "/v1/tenants/demo/pulse")).json.lastEventId;
const ids = (frames: Frame[]): number[] => frames.filter((f) => f.event !== undefined).map((f) => Number(f.id));
// eslint-disable-next-line @typescript-eslint/no-explicit-any
type EventData = any;
const has =
  (event: string, match: (data: EventData) => boolean = () => true) =>
  (frames: Frame[]): boolean =>
    frames.some((f) => f.event === event && match(JSON.parse(f.data ?? "null")));

describe("GET /v1/tenants/{name}/events/stream", () => {
  it("should answer 200 with SSE headers, uncompressed, and send retry first", async () => {
    const s = await stream();
    expect(s.response.status).toBe(200);
    expect(s.response.headers.get("content-type")).toBe("text/event-stream");
    expect(s.response.headers.get("cache-control")).toBe("no-cache");
    expect(s.response.headers.get("x-accel-buffering")).toBe("no");
    expect(s.response.headers.get("content-encoding")).toBeNull();
    expect(s.response.headers.get("x-request-id")).toMatch(/^req_/);
    await s.until((f) => f.length > 0);
    expect(s.raw.startsWith("retry: ")).toBe(true);
  });

  it("should emit activity, spec-changed and secret-changed on an upsert, then the reconciler's phases", async () => {
    const s = await stream();
    const id = uid();
    await call(svc, "POST", "/v1/tenants/demo/workloads/storage", { body: DB(id) });
    await s.until(
      has("activity", (d) => d.action === "workload.phase" && d.detail.phase === "Running" && d.target.id === id),
    );
    const events = s.events.map((f) => [f.event, JSON.parse(f.data!)]);
    expect(events.slice(0, 4)).toEqual([
      [
        "activity",
        expect.objectContaining({ actor: "api", action: "workload.created", target: { type: "workload", id } }),
      ],
      ["activity", expect.objectContaining({ action: "workload.phase", detail: { phase: "Pending", generation: 1 } })],
      ["spec-changed", {}],
      ["secret-changed", { path: `workloads/${id}/credentials` }],
    ]);
    // The activity row's id is its event's id.
    expect(s.events.filter((f) => f.event === "activity").every((f) => JSON.parse(f.data!).id === f.id)).toBe(true);
    const got = ids(s.frames);
    expect(got.every((n, i) => i === 0 || n === got[i - 1] + 1)).toBe(true);
    expect(s.events.every((f) => /^[0-9]+$/.test(f.id!))).toBe(true);
  });

  it("should emit spec-changed on delete, then workload.deleted and secret-changed when gone", async () => {
    const id = uid();
    await call(svc, "POST", "/v1/tenants/demo/workloads/storage", { body: DB(id) });
    await waitReady(svc, id);
    const s = await stream();
    await call(svc, "DELETE", `/v1/tenants/demo/workloads/${id}`);
    await s.until(has("secret-changed"));
    expect(s.events.map((f) => f.event)).toEqual(["activity", "spec-changed", "activity", "secret-changed"]);
    expect(JSON.parse(s.events[2].data!)).toMatchObject({ action: "workload.deleted", target: { id } });
  });

  it("should emit agent-busy and agent-sleep-state for a VM with aiDaemon, keyed daemon:<id>", async () => {
    const s = await stream();
    const id = uid("vm");
    await call(svc, "POST", "/v1/tenants/demo/workloads/vm-ubuntu", { body: VM(id, { aiDaemon: { enabled: true } }) });
    const key = `daemon:${id}`;
    await s.until(has("agent-busy", (d) => d.key === key && d.busy === false));
    expect(s.events.some((f) => f.event === "agent-sleep-state" && JSON.parse(f.data!).key === key)).toBe(true);
  });

  it("should emit activity for restarts and templates", async () => {
    const id = uid();
    await call(svc, "POST", "/v1/tenants/demo/workloads/browser", { body: { id } });
    const s = await stream();
    await call(svc, "POST", `/v1/tenants/demo/workloads/${id}/restart`);
    const t = (
      await call(svc, "POST", "/v1/tenants/demo/templates", {
        body: { name: "t", kind: "browser", config: { browser: {} } },
      })
    ).json;
    await call(svc, "DELETE", `/v1/tenants/demo/templates/${t.id}`);
    await s.until(has("activity", (d) => d.action === "template.deleted"));
    const actions = s.events.filter((f) => f.event === "activity").map((f) => JSON.parse(f.data!).action);
    expect(actions).toEqual(expect.arrayContaining(["workload.restarted", "template.created", "template.deleted"]));
    // Settled, so that no later test sees this restart's events.
    await waitReady(svc, id);
  });

  it("should replay every missed event in order from Last-Event-ID, then continue live", async () => {
    const from = await lastEventId();
    await control.emitEvents("demo", 10);
    const s = await stream({ lastEventId: from });
    await s.until((f) => ids(f).length >= 10);
    await control.emitEvents("demo", 3);
    await s.until((f) => ids(f).length >= 13);
    const got = ids(s.frames);
    expect(got).toEqual(Array.from({ length: 13 }, (_, i) => Number(from) + 1 + i));
  });

  it("should take ?lastEventId= when the header is absent, and prefer the header", async () => {
    const from = await lastEventId();
    await control.emitEvents("demo", 2);
    const q = await stream({ query: `?lastEventId=${from}` });
    await q.until((f) => ids(f).length >= 2);
    expect(ids(q.frames)).toEqual([Number(from) + 1, Number(from) + 2]);
    const both = await stream({ query: "?lastEventId=garbage", lastEventId: String(Number(from) + 1) });
    await both.until((f) => ids(f).length >= 1);
    expect(both.events[0]).toMatchObject({ id: String(Number(from) + 2), event: "task-update" });
  });

  it("should let a client that opens the stream at the pulse's lastEventId miss nothing", async () => {
    const pulse = await lastEventId();
    const id = uid();
    await call(svc, "POST", "/v1/tenants/demo/workloads/controller", { body: { id } });
    const s = await stream({ lastEventId: pulse });
    await s.until(has("activity", (d) => d.target.id === id && d.detail.phase === "Running"));
    expect(ids(s.frames)[0]).toBe(Number(pulse) + 1);
  });

  it.each([
    [
      "older than the ring",
      async (): Promise<string> => {
        const old = await lastEventId();
        await control.emitEvents("demo", 60);
        return old;
      },
    ],
    ["not a number", async (): Promise<string> => "not-a-number"],
    ["newer than the newest", async (): Promise<string> => String(Number(await lastEventId()) + 5)],
  ])("should send one resync frame with the newest id, then live events, for an id %s", async (_name, idOf) => {
    const requested = await idOf();
    const newest = await lastEventId();
    const s = await stream({ lastEventId: requested });
    await s.until((f) => f.some((x) => x.event));
    expect(s.events).toEqual([{ id: newest, event: "resync", data: "{}" }]);
    await control.emitEvents("demo", 1);
    await s.until((f) => ids(f).length >= 2);
    expect(s.events[1]).toMatchObject({ id: String(Number(newest) + 1), event: "task-update" });
  });

  it("should keep workspaces apart", async () => {
    const other = await stream({ workspace: "other", key: KEYS.other });
    const mine = await stream();
    const a = uid();
    const b = uid();
    await call(svc, "POST", "/v1/tenants/demo/workloads/controller", { body: { id: a } });
    await call(svc, "POST", "/v1/tenants/other/workloads/controller", { body: { id: b }, key: KEYS.other });
    await mine.until(has("activity", (d) => d.target.id === a && d.detail.phase === "Running"));
    await other.until(has("activity", (d) => d.target.id === b && d.detail.phase === "Running"));
    const targets = (r: StreamReader): Set<string> =>
      new Set(r.events.filter((f) => f.event === "activity").map((f) => JSON.parse(f.data!).target.id));
    expect([...targets(mine)]).toEqual([a]);
    expect([...targets(other)]).toEqual([b]);
  });

  it("should be dropped by control, and counted while open", async () => {
    await control.resetCounters();
    const s = await stream();
    await s.until((f) => f.length > 0);
    expect((await control.counters()).streams).toMatchObject({ open: 1, opened: 1, byWorkspace: { demo: 1 } });
    expect(await control.dropStreams()).toBe(1);
    await s.untilEnded();
    expect((await control.counters()).streams.open).toBe(0);
  });
});

describe("event stream timing", () => {
  it("should send :heartbeat comments and close the connection at the lifetime cap", async () => {
    const quick = await start({ heartbeatMs: 20, streamMaxMs: 200 });
    try {
      const s = await openStream(quick);
      await s.until((f) => f.filter((x) => x.comment === "heartbeat").length >= 2);
      await s.untilEnded();
      expect(s.raw).toContain(":heartbeat\n\n");
    } finally {
      await quick.close();
    }
  });
});
