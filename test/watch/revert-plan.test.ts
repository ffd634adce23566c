import { planRevert, type RevertFacts, type RevertPlan } from "../../watch/revert-plan";

const changes = (c: Partial<RevertFacts["changes"]>): RevertFacts["changes"] => ({
  replaces: [],
  updates: [],
  restart: false,
  ...c,
});

describe("planRevert", () => {
  const cases: Array<[string, RevertFacts, RevertPlan["act"], RegExp | undefined]> = [
    [
      "puts back exactly the drifted in-place fields",
      { kind: "workload", type: "pod", drifted: ["memory"], changes: changes({ updates: ["memory"] }) },
      "update",
      undefined,
    ],
    [
      "puts back what is left of a drift partly undone",
      { kind: "workload", type: "vm-ubuntu", drifted: ["cpus", "memory"], changes: changes({ updates: ["cpus"] }) },
      "update",
      undefined,
    ],
    [
      "does nothing when the live workload is as recorded again (an up recorded it, or someone put it back)",
      { kind: "workload", type: "vm-ubuntu", drifted: ["cpus"], changes: changes({}) },
      "nothing",
      undefined,
    ],
    [
      "never replaces a template",
      { kind: "template", drifted: ["description"], changes: changes({}) },
      "refuse",
      /template has no update/,
    ],
    [
      "never replaces a workload",
      { kind: "workload", type: "storage", drifted: ["engine"], changes: changes({ replaces: ["engine"] }) },
      "refuse",
      /replace the workload \(engine\)/,
    ],
    [
      "never changes a login",
      {
        kind: "workload",
        type: "vm-ubuntu",
        drifted: ["cpus"],
        changes: changes({ updates: ["cpus", "credentials"] }),
      },
      "refuse",
      /change a login/,
    ],
    [
      "never restarts",
      { kind: "workload", type: "pod", drifted: ["memory"], changes: changes({ updates: ["memory"], restart: true }) },
      "refuse",
      /restart/,
    ],
    [
      "never sends a field the drift did not name",
      { kind: "workload", type: "pod", drifted: ["memory"], changes: changes({ updates: ["image", "memory"] }) },
      "refuse",
      /more than the drift reported \(image\)/,
    ],
    [
      "never updates a database (its password is not in the state)",
      { kind: "workload", type: "storage", drifted: ["cpu"], changes: changes({ updates: ["cpu"] }) },
      "refuse",
      /password/,
    ],
  ];
  it.each(cases)("should decide: %s", (_name, facts, act, reason) => {
    const plan = planRevert(facts);
    expect(plan.act).toBe(act);
    if (plan.act === "refuse") expect(plan.reason).toMatch(reason!);
    if (plan.act === "update") expect(plan.fields).toEqual(facts.changes.updates);
  });
});
