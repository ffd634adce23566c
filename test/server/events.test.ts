import {
  EventFanout,
  EventRing,
  formatComment,
  formatFrame,
  formatRetry,
  planResume,
  type SseSink,
} from "../../server/events";
import { waitFor } from "./helpers";
import { parseFrames } from "./sse";

class MemorySink implements SseSink {
  text = "";
  ended = false;
  destroyed = false;
  bufferedBytes = 0;
  writes = 0;
  write(chunk: string | Buffer): void {
    this.text += chunk.toString();
    this.writes++;
  }
  end(): void {
    this.ended = true;
  }
  destroy(): void {
    this.destroyed = true;
  }
  events(): Array<{ id?: string; event?: string; data?: string }> {
    return parseFrames(this.text).frames.filter((f) => f.event !== undefined);
  }
}

const hubOptions = { ringSize: 3, heartbeatMs: 60_000, streamMaxMs: 60_000, retryMs: 1500, firstId: 10 };
const tick = (): Promise<void> => new Promise((r) => setImmediate(r));

describe("formatFrame", () => {
  it("should write id, event and data lines followed by a blank line", () => {
    expect(formatFrame({ id: "7", event: "spec-changed", data: "{}" })).toBe(
      "id: 7\nevent: spec-changed\ndata: {}\n\n",
    );
  });

  it("should split data on CRLF, CR and LF into one data line each", () => {
    expect(formatFrame({ data: "a\r\nb\rc\nd" })).toBe("data: a\ndata: b\ndata: c\ndata: d\n\n");
  });

  it("should reject CR or LF in the event name and the id", () => {
    expect(() => formatFrame({ event: "a\nevent: forged", data: "{}" })).toThrow(/event/);
    expect(() => formatFrame({ id: "1\r2", data: "{}" })).toThrow(/id/);
  });

  it("should format comments and the retry field", () => {
    expect(formatComment("heartbeat")).toBe(":heartbeat\n\n");
    expect(formatRetry(2000)).toBe("retry: 2000\n\n");
    expect(() => formatComment("x\ny")).toThrow();
  });
});

describe("EventRing", () => {
  it("should keep the newest frames and drop the oldest", () => {
    const ring = new EventRing(3);
    for (let id = 1; id <= 5; id++) ring.push(id, `f${id}`);
    expect(ring.oldestId).toBe(3);
    expect(ring.after(2)).toEqual(["f3", "f4", "f5"]);
    expect(ring.after(4)).toEqual(["f5"]);
    expect(ring.after(5)).toEqual([]);
  });

  it("should refuse ids that are not consecutive", () => {
    const ring = new EventRing(3);
    ring.push(1, "a");
    expect(() => ring.push(3, "c")).toThrow(RangeError);
  });
});

describe("planResume", () => {
  const ring = new EventRing(3);
  for (let id = 10; id <= 14; id++) ring.push(id, `f${id}`); // holds 12..14

  it.each([
    ["no id", undefined, { kind: "live" }],
    ["the newest id", "14", { kind: "live" }],
    ["one before the oldest", "11", { kind: "replay", frames: ["f12", "f13", "f14"] }],
    ["an id inside the ring", "12", { kind: "replay", frames: ["f13", "f14"] }],
    ["an id older than the ring", "10", { kind: "resync" }],
    ["an id newer than the newest", "15", { kind: "resync" }],
    ["not a number", "abc", { kind: "resync" }],
    ["a negative number", "-1", { kind: "resync" }],
    ["a huge number", "99999999999999999999", { kind: "resync" }],
  ])("should answer %s", (_name, requested, plan) => {
    expect(planResume(ring, 14, requested)).toEqual(plan);
  });

  it("should resync any older id while the ring is empty", () => {
    expect(planResume(new EventRing(3), 9, "5")).toEqual({ kind: "resync" });
    expect(planResume(new EventRing(3), 9, "9")).toEqual({ kind: "live" });
  });
});

describe("EventFanout", () => {
  it("should send retry first, then live events with consecutive ids", async () => {
    const hub = new EventFanout(hubOptions);
    const sink = new MemorySink();
    hub.subscribe(sink);
    hub.emit("spec-changed", {});
    hub.emit("secret-changed", { path: "workloads/a/credentials" });
    await tick();
    expect(sink.text.startsWith("retry: 1500\n\n")).toBe(true);
    expect(sink.events().map((e) => [e.id, e.event])).toEqual([
      ["10", "spec-changed"],
      ["11", "secret-changed"],
    ]);
    hub.close();
  });

  it("should write a burst of one synchronous job with one write per subscriber", async () => {
    const hub = new EventFanout(hubOptions);
    const sink = new MemorySink();
    hub.subscribe(sink);
    const before = sink.writes;
    for (let i = 0; i < 5; i++) hub.emit("spec-changed", {});
    await tick();
    expect(sink.writes - before).toBe(1);
    expect(sink.events()).toHaveLength(5);
    hub.close();
  });

  it("should group events of separate jobs into one write per window with coalesceMs", async () => {
    const hub = new EventFanout({ ...hubOptions, ringSize: 100, coalesceMs: 20 });
    const sink = new MemorySink();
    hub.subscribe(sink);
    const before = sink.writes;
    for (let i = 0; i < 10; i++) {
      hub.emit("spec-changed", {});
      await tick();
    }
    await waitFor(() => sink.events().length === 10);
    // The first write goes out at once, the other nine wait for the window and share a write.
    expect(sink.writes - before).toBeLessThanOrEqual(3);
    expect(sink.events().map((e) => Number(e.id))).toEqual(Array.from({ length: 10 }, (_, i) => 10 + i));
    hub.close();
  });

  it("should replay missed events then continue live, none twice and none skipped, even mid-burst", async () => {
    const hub = new EventFanout(hubOptions);
    const early = new MemorySink();
    hub.subscribe(early);
    hub.emit("spec-changed", {}); // 10
    hub.emit("spec-changed", {}); // 11, still pending for `early` when `late` joins
    const late = new MemorySink();
    hub.subscribe(late, "10");
    hub.emit("spec-changed", {}); // 12
    await tick();
    expect(late.events().map((e) => e.id)).toEqual(["11", "12"]);
    expect(early.events().map((e) => e.id)).toEqual(["10", "11", "12"]);
    hub.close();
  });

  it("should send one resync frame carrying the newest id when the gap is too old", async () => {
    const hub = new EventFanout(hubOptions);
    for (let i = 0; i < 5; i++) hub.emit("spec-changed", {}); // 10..14, ring holds 12..14
    const sink = new MemorySink();
    hub.subscribe(sink, "10");
    expect(sink.events()).toEqual([{ id: "14", event: "resync", data: "{}" }]);
    hub.close();
  });

  it("should send heartbeats and end the stream at its lifetime cap", async () => {
    const hub = new EventFanout({ ...hubOptions, heartbeatMs: 10, streamMaxMs: 60 });
    const sink = new MemorySink();
    hub.subscribe(sink);
    await waitFor(() => sink.ended);
    expect(sink.text).toContain(":heartbeat\n\n");
    expect(sink.ended).toBe(true);
    expect(hub.subscriberCount).toBe(0);
  });

  it("should disconnect a subscriber that lags too far behind", async () => {
    const hub = new EventFanout({ ...hubOptions, maxBufferedBytes: 100 });
    const slow = new MemorySink();
    hub.subscribe(slow);
    slow.bufferedBytes = 101;
    hub.emit("spec-changed", {});
    await tick();
    expect(slow.destroyed).toBe(true);
    expect(hub.subscriberCount).toBe(0);
  });
});
