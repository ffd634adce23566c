import {
  ConnectionError,
  StreamAuthError,
  StreamCutError,
  type StreamState,
  type WorkspaceEvent,
  type WwsError,
} from "../../../sdk";
import { EventStream, reconnectDelay, resolveStreamOptions } from "../../../sdk/events/stream";
import { errorFromResponse } from "../../../sdk/http/error-from-response";
import { systemClock } from "../../../sdk/clock";
import type { FakeServer } from "../fake-server";
import { frame, openStream, sseServer, type SseConnection } from "./sse-server";

const KEY = "sk-stream-key";

interface Seen {
  events: WorkspaceEvent[];
  states: StreamState[];
  errors: WwsError[];
}

function until<T>(check: () => T | undefined | false, timeoutMs = 3000): Promise<T> {
  const deadline = Date.now() + timeoutMs;
  return new Promise((resolve, reject) => {
    const tick = (): void => {
      const v = check();
      if (v !== undefined && v !== false) resolve(v);
      else if (Date.now() > deadline) reject(new Error("condition not met in time"));
      else setTimeout(tick, 5);
    };
    tick();
  });
}

describe("EventStream", () => {
  let server: FakeServer | undefined;
  let stream: EventStream | undefined;
  const seen: Seen = { events: [], states: [], errors: [] };

  async function connect(onConnect: (c: SseConnection) => void, options = {}): Promise<FakeServer> {
    server = await sseServer(onConnect);
    stream = new EventStream({
      baseUrl: server.url,
      workspace: "demo",
      apiKey: KEY,
      userAgent: "test",
      options: resolveStreamOptions({ reconnectInitialDelayMs: 10, reconnectMaxDelayMs: 20, ...options }),
      clock: systemClock,
      random: Math.random,
      sink: {
        onEvent: (e) => seen.events.push(e),
        onState: (s) => seen.states.push(s),
        onError: (e) => seen.errors.push(e),
      },
    });
    stream.start();
    return server;
  }

  afterEach(async () => {
    stream?.close();
    await server?.close();
    seen.events = [];
    seen.states = [];
    seen.errors = [];
  });

  it("should parse frames split anywhere, multi-line data, CRLF and comments", async () => {
    await connect(({ res }) => {
      openStream(res);
      const text =
        ":heartbeat\n\n" +
        frame(1, "spec-changed", {}) +
        'id: 2\r\nevent: activity\r\ndata: {"id":"2",\r\ndata: "action":"x"}\r\n\r\n' +
        ": a comment\n\n" +
        frame(3, "secret-changed", { path: "workloads/db/credentials" });
      let i = 0;
      const drip = (): void => {
        if (i >= text.length) return;
        res.write(text.slice(i, i + 7));
        i += 7;
        setImmediate(drip);
      };
      drip();
    });
    await until(() => seen.events.length === 3);
    expect(seen.events).toEqual([
      { id: "1", type: "spec-changed", data: {} },
      { id: "2", type: "activity", data: { id: "2", action: "x" } },
      { id: "3", type: "secret-changed", data: { path: "workloads/db/credentials" } },
    ]);
    expect(stream?.lastEventId).toBe("3");
    expect(seen.states).toEqual(["open"]);
  });

  it("should send the key, and Last-Event-ID on every reconnect", async () => {
    const s = await connect(({ index, res }) => {
      if (index === 1) return void res.destroy();
      openStream(res);
      if (index === 0) res.end(frame(41, "spec-changed", {}) + frame(42, "spec-changed", {}));
      else res.write(frame(43, "spec-changed", {}));
    });
    await until(() => seen.events.length === 3);
    expect(s.requests.map((r) => r.headers["last-event-id"])).toEqual([undefined, "42", "42"]);
    expect(s.requests.every((r) => r.headers["x-api-key"] === KEY && r.headers.accept === "text/event-stream")).toBe(
      true,
    );
    expect(seen.states).toEqual(["open", "down", "open"]);
  });

  it("should surface resync as its own event and adopt its id", async () => {
    await connect(({ res }) => {
      openStream(res);
      res.write("id: 99\nevent: resync\ndata: {}\n\n");
    });
    await until(() => seen.events.length === 1);
    expect(seen.events[0]).toEqual({ id: "99", type: "resync", data: {} });
    expect(stream?.lastEventId).toBe("99");
  });

  it("should stop for good on 401 and 403 with StreamAuthError", async () => {
    for (const status of [401, 403]) {
      const s = await connect(({ res }) => {
        res.writeHead(status, { "content-type": "application/json", "x-request-id": "req_s" });
        res.end(JSON.stringify({ error: { code: status === 401 ? "unauthorized" : "forbidden", message: "no" } }));
      });
      await until(() => seen.states.includes("closed"));
      expect(seen.errors).toHaveLength(1);
      expect(seen.errors[0]).toBeInstanceOf(StreamAuthError);
      expect(seen.errors[0]).toMatchObject({ status, requestId: "req_s" });
      await new Promise((r) => setTimeout(r, 60));
      expect(s.requests).toHaveLength(1);
      stream?.close();
      await s.close();
      seen.errors = [];
      seen.states = [];
    }
    server = undefined;
  });

  it("should stop for good on 501, which no reconnect would change", async () => {
    const s = await connect(({ res }) => {
      res.writeHead(501, { "content-type": "application/json" });
      res.end(JSON.stringify({ error: { code: "not_implemented", message: "no event stream here" } }));
    });
    await until(() => seen.states.includes("closed"));
    expect(seen.errors.map((e) => e.name)).toEqual(["ServerError"]);
    expect(seen.errors[0].message).toContain("no event stream here");
    expect(seen.errors[0].message).toContain("does not implement this operation (GET /v1/tenants/demo/events/stream)");
    expect(seen.errors[0].message).not.toMatch(/try again/i);
    await new Promise((r) => setTimeout(r, 60)); // several reconnect backoffs (10-20 ms)
    expect(s.requests).toHaveLength(1);
  });

  it("should reconnect after network errors with backoff, and after a server-side close", async () => {
    const s = await connect(({ index, res }) => {
      if (index === 0) return void res.socket?.destroy();
      openStream(res);
      if (index === 1) res.end();
    });
    await until(() => s.requests.length >= 3 && stream?.currentState === "open");
    expect(seen.errors[0].name).toBe("ConnectionError");
  });

  it("should drop a silent stream after 2.5 heartbeats and keep one that gets comments", async () => {
    const s = await connect(
      ({ index, res }) => {
        openStream(res);
        if (index === 0) return; // silent from here on
        const beat = setInterval(() => res.write(":heartbeat\n\n"), 20);
        res.on("close", () => clearInterval(beat));
      },
      { heartbeatMs: 40 },
    );
    await until(() => s.requests.length === 2 && stream?.currentState === "open");
    const dropped = seen.errors.find((e) => /no event or heartbeat for 100 ms/.test(e.message));
    expect(dropped).toBeDefined();
    await new Promise((r) => setTimeout(r, 300));
    expect(s.requests).toHaveLength(2);
  });

  it("should wait at least the server's retry: before reconnecting after a drop, with jitter on top", async () => {
    let droppedAt = 0;
    const s = await connect(
      ({ index, res }) => {
        openStream(res, "retry: 300\n\n");
        if (index === 0)
          setTimeout(() => {
            droppedAt = Date.now();
            res.destroy();
          }, 50);
      },
      { reconnectInitialDelayMs: 100, reconnectMaxDelayMs: 2000 },
    );
    await until(() => s.requests.length === 2 && stream?.currentState === "open");
    const gap = s.requests[1].at - droppedAt;
    expect(gap).toBeGreaterThanOrEqual(295); // 300 ms, give or take the clocks' rounding
    expect(gap).toBeLessThan(300 + 100 + 150); // the first backoff step is at most 100 ms
  });

  it("should cap the server's retry: at the stream's reconnectMaxDelayMs", async () => {
    let droppedAt = 0;
    const s = await connect(
      ({ index, res }) => {
        openStream(res, "retry: 60000\n\n");
        if (index === 0)
          setTimeout(() => {
            droppedAt = Date.now();
            res.destroy();
          }, 50);
      },
      { reconnectInitialDelayMs: 10, reconnectMaxDelayMs: 200 },
    );
    await until(() => s.requests.length === 2 && stream?.currentState === "open");
    const gap = s.requests[1].at - droppedAt;
    expect(gap).toBeGreaterThanOrEqual(185); // lowered to 190 ms, plus up to 10 ms of jitter
    expect(gap).toBeLessThan(200 + 150);
  });

  it("should treat a non-stream 200 as a transient failure", async () => {
    const s = await connect(({ index, res }) => {
      if (index === 0) {
        res.writeHead(200, { "content-type": "text/html" });
        return void res.end("<html>");
      }
      openStream(res);
    });
    await until(() => stream?.currentState === "open");
    expect(s.requests).toHaveLength(2);
    expect(seen.errors[0].name).toBe("ResponseValidationError");
  });

  it("should report a stream cut after it was open as cut, with how long it had been open, not as unreachable", async () => {
    await connect(({ index, res }) => {
      openStream(res);
      res.write(frame(7, "spec-changed", {}));
      // A proxy's read timeout: the connection closes mid-stream, without the body's end.
      if (index === 0) setTimeout(() => res.socket?.destroy(), 300);
    });
    await until(() => seen.errors.length >= 1 && stream?.currentState === "open");
    const cut = seen.errors[0];
    expect(cut).toBeInstanceOf(StreamCutError);
    expect(cut).toBeInstanceOf(ConnectionError);
    expect(cut.code).toBe("stream_cut");
    expect((cut as StreamCutError).openMs).toBeGreaterThanOrEqual(250);
    expect(cut.message).toMatch(/^event stream of workspace demo was cut after 0\.[2-9] s open \(.+\); it reconnects/);
    expect(cut.message).toContain("shorter than the service's heartbeat interval (20 s)");
    expect(cut.message).not.toContain("before an answer");
  });

  it("should space the reconnects of a stream the service ends as soon as it opens", async () => {
    const s = await connect(
      ({ res }) => {
        openStream(res, "");
        res.end();
      },
      { reconnectInitialDelayMs: 50, reconnectMaxDelayMs: 400 },
    );
    await new Promise((r) => setTimeout(r, 1000));
    // Backoff from 50 ms doubling to 400 ms (full jitter): a handful; reconnected at once, hundreds.
    expect(s.requests.length).toBeGreaterThanOrEqual(2);
    expect(s.requests.length).toBeLessThanOrEqual(25);
  });

  it("should stop reconnecting once closed", async () => {
    const s = await connect(({ res }) => {
      res.writeHead(503, { "content-type": "application/json" });
      res.end("{}");
    });
    await until(() => s.requests.length >= 2);
    stream?.close();
    const atClose = s.requests.length;
    // A reconnect already sent when close() ran may still reach the server; none may follow it.
    await new Promise((r) => setTimeout(r, 100));
    const afterClose = s.requests.length;
    expect(afterClose).toBeLessThanOrEqual(atClose + 1);
    await new Promise((r) => setTimeout(r, 200));
    expect(s.requests.length).toBe(afterClose);
    expect(stream?.currentState).toBe("closed");
  });
});

describe("reconnectDelay", () => {
  const options = resolveStreamOptions({ reconnectInitialDelayMs: 250, reconnectMaxDelayMs: 10_000 });
  const dropped = new ConnectionError("event stream", false, new Error("socket hang up"));

  it("should be the full-jitter backoff while the server sent no retry:", () => {
    expect(reconnectDelay(1, dropped, undefined, options, () => 0)).toBe(0);
    expect(reconnectDelay(3, dropped, undefined, options, () => 0.5)).toBe(500);
  });

  it("should add the backoff to the server's retry:, below reconnectMaxDelayMs", () => {
    expect(reconnectDelay(1, dropped, 2000, options, () => 0)).toBe(2000);
    expect(reconnectDelay(1, dropped, 2000, options, () => 0.5)).toBe(2125);
    expect(reconnectDelay(4, dropped, 2000, options, () => 0.999999)).toBe(3999);
    expect(reconnectDelay(9, dropped, 2000, options, () => 0.999999)).toBe(9999);
  });

  it("should lower a retry: near or above the cap, keeping the initial delay's jitter under it", () => {
    expect(reconnectDelay(1, dropped, 60_000, options, () => 0)).toBe(9750);
    expect(reconnectDelay(1, dropped, 60_000, options, () => 0.999999)).toBe(9999);
    expect(reconnectDelay(5, dropped, 9900, options, () => 0.5)).toBe(9875);
  });

  it("should take a refusal's Retry-After as it is, retry: or not", () => {
    const refused = errorFromResponse(
      { status: 503, headers: { "retry-after": "30" }, body: {} },
      { operation: "op", now: 0 },
    );
    expect(reconnectDelay(1, refused, 2000, options, () => 0.5)).toBe(30_000);
  });
});
