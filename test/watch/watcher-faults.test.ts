/**
 * The watch never dies of a failed await: each of its dependencies (the stack's state and config,
 * its stamp, its lock, the provider's read, the activity rows, the seam's close) is made to fail at
 * its 1st, 2nd, … call in turn, through a start, a drift, an update of the stack and its end. No
 * unhandled rejection, and a drift made after the failures is still reported.
 */
import type { Finding } from "../../watch/finding";
import type { WatchedConnection, WatchSeam } from "../../provider/dynamic/watch-seam";
import type { StackReader } from "../../watch/learn";
import type { StackView } from "../../watch/stack";
import type { Subscribe } from "../../watch/streams";
import { Watch } from "../../watch/watcher";
import { pollUntil } from "../support/poll";
import type { StreamState, WorkspaceEvent } from "../../sdk";

const recorded = { workloadId: "web", type: "pod", image: "nginx:1.27", memory: "512Mi", phase: "Running" };
const URN = "urn:pulumi:dev::p::pulumi-nodejs:dynamic/wws:Pod::web";

type Step = "load" | "stamp" | "locked" | "read" | "listActivity" | "close";
const STEPS: Step[] = ["load", "stamp", "locked", "read", "listActivity", "close"];

/** A world of fakes in which the `n`-th call of `step` rejects. */
function world(step: Step, n: number) {
  const calls = new Map<Step, number>();
  const failed: Step[] = [];
  const maybeFail = (s: Step): void => {
    const k = (calls.get(s) ?? 0) + 1;
    calls.set(s, k);
    if (s !== step || k !== n) return;
    failed.push(s);
    throw new Error(`${s} broken (call ${k})`);
  };
  const live = { ...recorded };
  const state = { stamp: "1", locked: false };
  let listener: Parameters<Subscribe>[1] | undefined;
  const view = (): StackView => ({
    name: "dev",
    workloads: [{ kind: "workload", stack: "dev", urn: URN, id: "team/web", recorded, secretKeys: new Set() }],
    config: { get: () => undefined },
    configDigest: "c",
    version: state.stamp,
  });
  const reader: StackReader = {
    name: "dev",
    load: async () => (maybeFail("load"), view()),
    stamp: async () => (maybeFail("stamp"), state.stamp),
    locked: async () => (maybeFail("locked"), state.locked),
  };
  const conn = {
    key: "k",
    place: "p",
    workspace: "team",
    keySource: "the stack config wws:apiKey",
    client: () => ({ listActivity: async () => (maybeFail("listActivity"), []) }),
  } as unknown as WatchedConnection;
  const seam = {
    provider: () => ({ read: async () => (maybeFail("read"), { id: "team/web", props: { ...live } }) }),
    read: async () => ({ id: "team/web", props: { ...live } }),
    connectionOf: () => conn,
    freshReads: () => undefined,
    close: async () => maybeFail("close"),
  } as unknown as WatchSeam;
  const subscribe: Subscribe = (_c, l) => {
    listener = l;
    l.onState("open" as StreamState);
    return () => undefined;
  };
  const event = (e: WorkspaceEvent): void => listener?.onEvent(e);
  return { reader, seam, subscribe, live, state, event, failed };
}

const tick = (ms: number) => new Promise((r) => setTimeout(r, ms));

describe("Watch under failing awaits", () => {
  const unhandled: unknown[] = [];
  const onUnhandled = (r: unknown): void => void unhandled.push(r);
  beforeAll(() => process.on("unhandledRejection", onUnhandled));
  afterAll(() => process.off("unhandledRejection", onUnhandled));

  it.each(STEPS.flatMap((s) => [1, 2, 3].map((n) => [s, n] as const)))(
    "should survive %s failing at call %i, say it, and still report a later drift",
    async (step, n) => {
      const w = world(step, n);
      const findings: Finding[] = [];
      const status: string[] = [];
      const watch = new Watch({
        stacks: ["dev"],
        onFinding: (f) => findings.push(f),
        onStatus: (l) => status.push(l),
        debounceMs: 5,
        relearnEveryMs: 20,
        statusEveryMs: 50,
        catchUpWindowMs: 5,
        deps: { source: () => w.reader, seam: () => w.seam, subscribe: w.subscribe },
      });
      // The first learning is the caller's: a failure of it is start()'s rejection, once.
      const started = await watch.start().then(
        () => true,
        () => false,
      );
      if (!started) {
        expect(step === "load" || step === "stamp").toBe(true);
        await watch.stop();
        return;
      }
      try {
        // An update of the stack: the lock, then a new stamp, then the lock released.
        w.state.locked = true;
        w.event({
          type: "activity",
          id: "7",
          data: { id: 7, actor: "ci", action: "workload.updated", target: { type: "pod", id: "web" } },
        } as WorkspaceEvent);
        await tick(60);
        w.state.stamp = "2";
        w.state.locked = false;
        w.event({ type: "resync", id: "8", data: {} } as WorkspaceEvent);
        await tick(150);
        // A change outside Pulumi, after every failure: reported.
        w.live.memory = "1Gi";
        w.event({
          type: "activity",
          id: "9",
          data: { id: 9, actor: "ops", action: "workload.updated", target: { type: "pod", id: "web" } },
        } as WorkspaceEvent);
        await pollUntil(() => findings.find((f) => f.kind === "drift"), {
          what: "the drift",
          timeoutMs: 10_000,
          intervalMs: 10,
        });
        // A lock that cannot be read is taken as held: the rows of that moment count as the update's.
        const drift = findings.find((f) => f.kind === "drift");
        expect(drift).toMatchObject({ fields: [{ path: "memory", live: "1Gi" }] });
        if (step !== "locked") expect(drift?.actor).toBe("ops");
        // What the watch acts on is said; the newest row's id at the start and a seam's close are not.
        if (w.failed.length > 0 && ["load", "stamp", "locked", "read"].includes(step))
          await pollUntil(() => status.some((l) => l.includes(`${step} broken`)), {
            what: "the failure said",
            timeoutMs: 5000,
            intervalMs: 10,
          });
      } finally {
        await watch.stop().catch(() => undefined);
      }
      await tick(20);
      expect(unhandled).toEqual([]);
    },
  );
});

describe("Watch.start", () => {
  /** A watch of one pod whose stream stays down until the test opens it. */
  function slowStream(streamOpenBoundMs: number) {
    const w = world("close", 99);
    let listener: Parameters<Subscribe>[1] | undefined;
    const findings: Finding[] = [];
    const watch = new Watch({
      stacks: ["dev"],
      onFinding: (f) => findings.push(f),
      debounceMs: 5,
      streamOpenBoundMs,
      deps: {
        source: () => w.reader,
        seam: () => w.seam,
        subscribe: (_c, l) => {
          listener = l;
          l.onState("down");
          return () => undefined;
        },
      },
    });
    let started = false;
    const starting = watch.start().then(() => (started = true));
    return { watch, findings, starting, started: () => started, open: () => listener?.onState("open") };
  }

  it("should resolve only once its event stream is open (a change made before would lose who made it)", async () => {
    const s = slowStream(60_000);
    try {
      await tick(100);
      expect(s.started()).toBe(false);
      s.open();
      await s.starting;
    } finally {
      await s.watch.stop();
    }
  });

  it("should resolve when a stream that does not open is said blind, within its bound", async () => {
    const s = slowStream(100);
    try {
      await s.starting;
      expect(s.findings.map((f) => f.kind)).toEqual(["blind"]);
    } finally {
      await s.watch.stop();
    }
  });
});

describe("Watch streams", () => {
  it("should hold one stream per workspace for stacks that reach it by different keys", async () => {
    const stack = (name: string, key: string) => {
      const urn = `urn:pulumi:${name}::p::pulumi-nodejs:dynamic/wws:Pod::${name}-web`;
      const view = (): StackView => ({
        name,
        workloads: [{ kind: "workload", stack: name, urn, id: `team/${name}-web`, recorded, secretKeys: new Set() }],
        config: { get: (k) => (k === "stack" ? name : undefined) },
        configDigest: name,
        version: "1",
      });
      const reader: StackReader = { name, load: async () => view(), stamp: async () => "1", locked: async () => false };
      const conn = {
        key,
        place: "http://svc\nteam\n",
        workspace: "team",
        keySource: "the stack config wws:apiKey",
        client: () => ({ listActivity: async () => [] }),
      } as unknown as WatchedConnection;
      const seam = {
        provider: () => ({ read: async () => ({ id: `team/${name}-web`, props: { ...recorded } }) }),
        connectionOf: () => conn,
        freshReads: () => undefined,
        close: async () => undefined,
      } as unknown as WatchSeam;
      return { reader, seam };
    };
    const stacks = { a: stack("a", "key-of-a"), b: stack("b", "key-of-b") };
    const opened: string[] = [];
    const watch = new Watch({
      stacks: ["a", "b"],
      onFinding: () => undefined,
      debounceMs: 5,
      deps: {
        source: (name) => stacks[name as "a" | "b"].reader,
        seam: (o) => stacks[o.config.get("stack") as "a" | "b"].seam,
        subscribe: (c, l) => {
          opened.push(c.key);
          l.onState("open");
          return () => undefined;
        },
      },
    });
    try {
      await watch.start();
      expect(opened).toHaveLength(1);
      expect(watch.watched).toBe("2 workloads");
    } finally {
      await watch.stop();
    }
  });
});
