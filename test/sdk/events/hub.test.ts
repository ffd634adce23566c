import {
  EventHub,
  InvalidOptionError,
  workspaceConnection,
  type ConnectionSettings,
  type StreamConnectionSpec,
  type StreamListener,
  type StreamState,
} from "../../../sdk";
import type { HubStream, HubStreamSpec } from "../../../sdk/events/hub";

class FakeStream implements HubStream {
  currentState: StreamState = "down";
  started = 0;
  closed = 0;
  constructor(
    readonly spec: HubStreamSpec,
    readonly sink: Required<StreamListener>,
  ) {}
  start(): void {
    this.started++;
  }
  close(): void {
    this.closed++;
    this.currentState = "closed";
  }
  set(state: StreamState): void {
    this.currentState = state;
    this.sink.onState(state);
  }
}

describe("EventHub", () => {
  let made: FakeStream[];
  let hub: EventHub;
  const conn = (over: Partial<ConnectionSettings> = {}): StreamConnectionSpec => ({
    connection: { baseUrl: "http://127.0.0.1:1", workspace: "demo", apiKey: "k1", ...over },
  });

  beforeEach(() => {
    made = [];
    hub = new EventHub((spec, sink) => {
      const s = new FakeStream(spec, sink);
      made.push(s);
      return s;
    });
  });

  it("should open one connection per base URL, workspace and key, shared by every listener", () => {
    const events: string[] = [];
    const a = hub.subscribe(conn(), { onEvent: (e) => events.push(`a${e.id}`) });
    const b = hub.subscribe(conn({ baseUrl: "http://127.0.0.1:1/" }), { onEvent: (e) => events.push(`b${e.id}`) });
    expect(made).toHaveLength(1);
    expect(made[0].started).toBe(1);
    hub.subscribe(conn({ workspace: "other" }), {});
    hub.subscribe(conn({ apiKey: "k2" }), {});
    hub.subscribe(conn({ baseUrl: "http://127.0.0.1:2" }), {});
    expect(made).toHaveLength(4);
    made[0].sink.onEvent({ id: "1", type: "spec-changed", data: {} });
    expect(events).toEqual(["a1", "b1"]);
    a();
    b();
  });

  it("should close the connection when the last listener leaves, and not before", () => {
    const a = hub.subscribe(conn(), {});
    const b = hub.subscribe(conn(), {});
    a();
    a();
    expect(made[0].closed).toBe(0);
    b();
    expect(made[0].closed).toBe(1);
    expect(hub.connectionCount).toBe(0);
    hub.subscribe(conn(), {});
    expect(made).toHaveLength(2);
  });

  it("should tell a listener the current state at once, then every change", () => {
    const first: StreamState[] = [];
    hub.subscribe(conn(), { onState: (s) => first.push(s) });
    made[0].set("open");
    const second: StreamState[] = [];
    hub.subscribe(conn(), { onState: (s) => second.push(s) });
    made[0].set("down");
    expect(first).toEqual(["down", "open", "down"]);
    expect(second).toEqual(["open", "down"]);
  });

  it("should isolate a listener that throws", () => {
    const got: string[] = [];
    hub.subscribe(conn(), {
      onEvent: () => {
        throw new Error("listener bug");
      },
      onState: () => {
        throw new Error("listener bug");
      },
    });
    hub.subscribe(conn(), { onEvent: (e) => got.push(e.type) });
    made[0].sink.onEvent({ type: "resync", data: {} });
    expect(got).toEqual(["resync"]);
  });

  it("should forget a connection that stopped for good, so the next subscriber tries again", () => {
    const errors: string[] = [];
    const states: StreamState[] = [];
    const unsubscribe = hub.subscribe(conn(), { onError: (e) => errors.push(e.code), onState: (s) => states.push(s) });
    made[0].sink.onError(Object.assign(new Error("refused"), { code: "stream_unauthorized" }) as never);
    made[0].set("closed");
    expect(errors).toEqual(["stream_unauthorized"]);
    expect(states).toEqual(["down", "closed"]);
    expect(hub.connectionCount).toBe(0);
    hub.subscribe(conn(), {});
    expect(made).toHaveLength(2);
    unsubscribe();
    expect(made[1].closed).toBe(0);
  });

  it("should take a made connection as it is, and key on it", () => {
    const connection = workspaceConnection({ baseUrl: "http://127.0.0.1:1/", workspace: "demo", apiKey: "k1" });
    hub.subscribe({ connection }, {});
    hub.subscribe(conn(), {});
    expect(made).toHaveLength(1);
    expect(made[0].spec.connection).toBe(connection);
    expect([...(hub as unknown as { entries: Map<string, unknown> }).entries.keys()]).toEqual([connection.key]);
  });

  it("should check settings as the client does, naming the setting", () => {
    for (const [over, option] of [
      [{ baseUrl: "ftp://h" }, "baseUrl"],
      [{ workspace: "Demo_1" }, "workspace"],
      [{ apiKey: "" }, "apiKey"],
    ] as const) {
      expect(() => hub.subscribe(conn(over), {})).toThrow(InvalidOptionError);
      expect(() => hub.subscribe(conn(over), {})).toThrow(`invalid option ${option}:`);
    }
    expect(made).toHaveLength(0);
  });

  it("should never keep the API key in its connection keys", () => {
    hub.subscribe(conn({ apiKey: "super-secret-key" }), {});
    expect(JSON.stringify([...(hub as unknown as { entries: Map<string, unknown> }).entries.keys()])).not.toContain(
      "super-secret-key",
    );
  });
});
