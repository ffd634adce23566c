import { classifyFailure, losesData, type FailureKind } from "../../rehearse/classify";
import { repointState } from "../../rehearse/repoint-state";
import { verdictOf, type ResourceRow } from "../../rehearse/report";
import { EventRows } from "../../rehearse/event-rows";

describe("classifyFailure", () => {
  it.each<[string, FailureKind]>([
    [
      "HTTP 409 conflict: no host of us-east has room for 40 CPUs and 1Gi now (free: us-east-1 24 CPUs/255Gi)",
      "capacity",
    ],
    [
      "workload shared already exists in workspace team (pod, phase Running), and this stack does not hold it",
      "conflict",
    ],
    ["HTTP 409 conflict: workload db exists with type pod", "conflict"],
    ["workload x is being deleted; create it again once its status is 404", "conflict"],
    ['TypeError: error serializing property "env": Invalid URL', "failed"],
    ["timed out after 300 s waiting for Running (last phase Provisioning)", "failed"],
  ])("should class %j as %s", (message, kind) => {
    expect(classifyFailure(message)).toBe(kind);
  });
});

describe("losesData", () => {
  it.each<[string, string, unknown, boolean]>([
    ["replace", "pulumi-nodejs:dynamic/wws:Database", "storage", true],
    ["delete", "pulumi-nodejs:dynamic/wws:Database", undefined, true],
    ["replace", "pulumi-nodejs:dynamic/wws:Workload", "storage", true],
    ["update", "pulumi-nodejs:dynamic/wws:Database", "storage", false],
    ["replace", "pulumi-nodejs:dynamic/wws:Pod", "pod", false],
    ["create", "pulumi-nodejs:dynamic/wws:Database", "storage", false],
  ])("should say a %s of %s (%s) loses data: %s", (op, type, workloadType, expected) => {
    expect(losesData(op, type, workloadType)).toBe(expected);
  });
});

describe("repointState", () => {
  it("should put the copy's connection wherever the state records the real one, at any depth, and nothing else", () => {
    const deployment = {
      manifest: { time: "t" },
      resources: [
        {
          urn: "u",
          inputs: { baseUrl: "https://real", image: "https://real", nested: [{ k: "real-key" }], n: 1 },
          outputs: { baseUrl: "https://real", other: "https://real/x" },
        },
        { urn: "stack" },
      ],
    };
    const out = repointState(
      deployment,
      new Map([
        ["https://real", "http://127.0.0.1:1"],
        ["real-key", "copy-key"],
      ]),
    );
    expect(out).toEqual({
      manifest: { time: "t" },
      resources: [
        {
          urn: "u",
          inputs: { baseUrl: "http://127.0.0.1:1", image: "http://127.0.0.1:1", nested: [{ k: "copy-key" }], n: 1 },
          outputs: { baseUrl: "http://127.0.0.1:1", other: "https://real/x" },
        },
        { urn: "stack", inputs: undefined, outputs: undefined },
      ],
    });
    expect(deployment.resources[0].inputs!.baseUrl).toBe("https://real");
  });
});

describe("verdictOf", () => {
  const base = {
    stack: "dev",
    workspace: "team",
    steps: [{ step: "up" as const, ok: true, ms: 1 }],
    copied: { workloads: 1, templates: 0 },
    notCopied: [],
    othersWorkloads: [],
    ms: 1,
  };
  const row = (name: string, over: Partial<ResourceRow> = {}): ResourceRow => ({
    urn: `urn::${name}`,
    name,
    type: "pulumi-nodejs:dynamic/wws:Pod",
    op: "create",
    result: "done",
    losesData: false,
    step: "up",
    ...over,
  });
  it.each<[string, Parameters<typeof verdictOf>[0], number, string]>([
    [
      "a clean change",
      { ...base, resources: [row("a"), row("b", { op: "same" })] },
      0,
      "would work: 1 change, second preview clean",
    ],
    [
      "a replacement that loses data",
      { ...base, resources: [row("db", { op: "replace", losesData: true })] },
      0,
      "would work: 1 change, 1 replacement or delete losing data (db), second preview clean",
    ],
    [
      "the first failed row",
      {
        ...base,
        steps: [{ step: "up", ok: false, ms: 1 }],
        resources: [
          row("a"),
          row("vm", { result: "failed", failure: "capacity", error: "no host of us-east has room\nmore" }),
        ],
      },
      1,
      "would fail: vm (create, capacity): no host of us-east has room (2 changes)",
    ],
    [
      "a second preview that is not clean",
      { ...base, steps: [{ step: "second preview", ok: false, ms: 1, detail: "1 to update" }], resources: [row("a")] },
      1,
      "would fail: second preview: 1 to update (1 change)",
    ],
    ["a reason", { ...base, reason: "no wws:baseUrl", resources: [] }, 2, "could not rehearse: no wws:baseUrl"],
  ])("should judge %s", (_what, input, exitCode, summary) => {
    const v = verdictOf(input);
    expect([v.exitCode, v.summary]).toEqual([exitCode, summary]);
  });
});

describe("EventRows", () => {
  it("should merge a replacement's steps into one row with its time, its error and data loss", () => {
    let now = 1000;
    const rows = new EventRows("up", () => now);
    const meta = (op: string, type = "pulumi-nodejs:dynamic/wws:Database") =>
      ({ op, urn: "urn:pulumi:s::p::t::db", type }) as never;
    rows.onEvent({ sequence: 1, timestamp: 0, resourcePreEvent: { metadata: meta("delete-replaced") } });
    now = 1500;
    rows.onEvent({ sequence: 2, timestamp: 0, resourcePreEvent: { metadata: meta("create-replacement") } });
    now = 4000;
    rows.onEvent({
      sequence: 3,
      timestamp: 0,
      diagnosticEvent: {
        urn: "urn:pulumi:s::p::t::db",
        message: "HTTP 409 conflict: x\n",
        color: "",
        severity: "error",
      },
    });
    rows.onEvent({
      sequence: 4,
      timestamp: 0,
      resOpFailedEvent: { metadata: meta("create-replacement"), status: 0, steps: 1 },
    });
    rows.onEvent({
      sequence: 5,
      timestamp: 0,
      diagnosticEvent: { message: "update failed", color: "", severity: "error" },
    });
    expect(rows.rows()).toEqual([
      {
        urn: "urn:pulumi:s::p::t::db",
        name: "db",
        type: "pulumi-nodejs:dynamic/wws:Database",
        op: "replace",
        result: "failed",
        error: "HTTP 409 conflict: x",
        failure: "conflict",
        ms: 3000,
        losesData: true,
        step: "up",
      },
    ]);
    expect(rows.programErrors).toEqual(["update failed"]);
  });
});
