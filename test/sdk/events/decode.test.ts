import { decodeEvent } from "../../../sdk/events/decode";

describe("decodeEvent", () => {
  it("should type each event of the spec by its payload schema, keeping unknown fields", () => {
    expect(
      decodeEvent({
        id: "5",
        event: "activity",
        data: '{"id":"5","action":"workload.phase","target":{"type":"workload","id":"web"},"extra":1}',
      }),
    ).toEqual({
      kind: "event",
      event: {
        id: "5",
        type: "activity",
        data: { id: "5", action: "workload.phase", target: { type: "workload", id: "web" }, extra: 1 },
      },
    });
    expect(decodeEvent({ id: "6", event: "spec-changed", data: "{}" })).toEqual({
      kind: "event",
      event: { id: "6", type: "spec-changed", data: {} },
    });
    expect(decodeEvent({ event: "agent-busy", data: '{"key":"daemon:vm","busy":true}' })).toMatchObject({
      kind: "event",
      event: { type: "agent-busy" },
    });
    expect(decodeEvent({ event: "secret-changed", data: '{"path":"workloads/db/credentials"}' })).toMatchObject({
      kind: "event",
    });
  });

  it("should read a resync without data, or with data it cannot parse, as a resync", () => {
    expect(decodeEvent({ id: "9", event: "resync", data: "" })).toEqual({
      kind: "event",
      event: { id: "9", type: "resync", data: {} },
    });
    expect(decodeEvent({ id: "9", event: "resync", data: "not json" })).toEqual({
      kind: "event",
      event: { id: "9", type: "resync", data: {} },
    });
  });

  it("should ignore event types it does not know, and unnamed messages", () => {
    expect(decodeEvent({ event: "future-thing", data: "{}" })).toEqual({ kind: "ignored" });
    expect(decodeEvent({ data: "{}" })).toEqual({ kind: "ignored" });
  });

  it("should report a payload that breaks its schema, naming the field", () => {
    expect(decodeEvent({ event: "task-update", data: '{"taskId":1}' })).toMatchObject({
      kind: "invalid",
      issues: [{ path: "task-update.taskId" }, { path: "task-update.status" }],
    });
    expect(decodeEvent({ event: "agent-busy", data: "{oops" })).toMatchObject({
      kind: "invalid",
      issues: [{ path: "data" }],
    });
  });
});
