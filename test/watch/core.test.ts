import { causeOf, decide, statusLine, type Observation, type Verdict } from "../../watch/core";
import type { Difference } from "../../watch/compare";

const ops = { actor: "ops-laptop", activityId: "41", at: "2026-01-01T10:00:00Z" };
const reconciler = { actor: "reconciler", activityId: "42" };
const memory: Difference = {
  kind: "changed",
  replaces: false,
  fields: [{ path: "memory", recorded: "512Mi", live: "1Gi", secret: false }],
};
const deleted: Difference = { kind: "deleted" };

const base: Observation = {
  diffs: [],
  rows: {},
  asked: {},
  reported: false,
  reportedDeleted: false,
  recordOutOfDate: false,
};
const kinds = (v: Verdict[]): string[] => v.map((x) => x.kind);

describe("decide", () => {
  it.each<[string, Partial<Observation>, string[]]>([
    ["nothing differs and no row named it", {}, ["as-declared"]],
    ["a field differs", { diffs: [memory], rows: { change: ops } }, ["drift"]],
    ["the read failed", { diffs: undefined, rows: { change: ops } }, ["retry"]],
    [
      "an update of the stack runs or ended since the record was read",
      { diffs: [memory], recordOutOfDate: true },
      ["wait-for-update"],
    ],
    [
      "a person's row named it and nothing differs: changed and changed back",
      { rows: { change: ops } },
      ["changed-back"],
    ],
    ["only the service's rows named it", { rows: {}, asked: reconciler }, ["as-declared"]],
    [
      "a drift already reported is as declared again (no second word)",
      { rows: { change: ops }, reported: true },
      ["as-declared"],
    ],
    ["deleted, and the row says so", { diffs: [deleted], rows: { change: ops, deleted: ops } }, ["drift"]],
    [
      "present after a row said deleted: replaced outside Pulumi",
      { rows: { change: ops, deleted: ops } },
      ["replaced-outside"],
    ],
    ["present after 'deleted' was reported: replaced outside Pulumi", { reportedDeleted: true }, ["replaced-outside"]],
    [
      "replaced with another spec",
      { diffs: [memory], rows: { deleted: ops, change: ops } },
      ["replaced-outside", "drift"],
    ],
    ["credentials set through the API", { rows: { change: ops, secretChanged: true } }, ["secret-changed"]],
    [
      "credentials set with a field changed",
      { diffs: [memory], rows: { change: ops, secretChanged: true } },
      ["secret-changed", "drift"],
    ],
    ["credentials of a workload now gone", { diffs: [deleted], rows: { secretChanged: true } }, ["drift"]],
  ])("should say %s", (_what, o, expected) => {
    expect(kinds(decide({ ...base, ...o }))).toEqual(expected);
  });

  it("should name the person from the gap's rows when the comparison was asked without a cause (a reconnect)", () => {
    const [v] = decide({ ...base, diffs: [memory], rows: { change: ops }, asked: {} });
    expect(v).toEqual({ kind: "drift", cause: ops });
  });

  it("should prefer a person's row over the service's own step", () => {
    expect(causeOf(reconciler, ops)).toBe(ops);
    expect(causeOf(undefined, reconciler)).toBe(reconciler);
    expect(causeOf(undefined, {})).toEqual({});
  });
});

describe("statusLine", () => {
  const s = { watched: "3 workloads", stacks: ["dev"], workspaces: ["team"], blind: [], differing: 0 };

  it.each([
    ["all seen, nothing differs", s, "watching 3 workloads of stack dev in workspace team: all as declared"],
    [
      "all seen, two differ",
      { ...s, differing: 2 },
      "watching 3 workloads of stack dev in workspace team: 2 differ from the stack's record (reported above), the others as declared",
    ],
    [
      "the only workspace blind",
      { ...s, blind: [{ workspace: "team", why: "the key was refused" }] },
      "watching 3 workloads of stack dev in workspace team: workspace team is NOT watched (the key was refused); nothing is known of its drift",
    ],
    [
      "one of two blind",
      { ...s, workspaces: ["team", "ops"], blind: [{ workspace: "ops", why: "not open for 10 s" }] },
      "watching 3 workloads of stack dev in workspace team, ops: workspace ops is NOT watched (not open for 10 s); in workspace team: all as declared",
    ],
  ])("should say, %s", (_what, input, line) => {
    expect(statusLine(input)).toBe(line);
  });

  it("should never say all as declared while a workspace is blind", () => {
    const line = statusLine({ ...s, blind: [{ workspace: "team", why: "x" }] });
    expect(line).not.toContain("all as declared");
  });
});
