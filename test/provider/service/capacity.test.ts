/**
 * The deployment's plan as `check` builds it, call by call: a VM checked twice counts once, a
 * replacement's second check (without its state) gives its old room back, an unchanged VM is not
 * in the plan, and a warning is said once per VM.
 */
import type { FleetHosts } from "../../../sdk";
import { CapacityPlan, type CheckedAs } from "../../../provider/dynamic/service/capacity";

/** Two 8-CPU hosts of region lab, each holding two VMs of 4 CPUs and 8Gi. */
const FULL: FleetHosts = {
  regions: [
    {
      name: "lab",
      hosts: ["lab-1", "lab-2"].map((name) => ({
        name,
        capacity: { cpus: 8, memory: "32Gi" },
        free: { cpus: 0, memory: "16Gi" },
      })),
    },
  ],
};
const EMPTY: FleetHosts = {
  regions: [
    {
      name: "lab",
      hosts: ["lab-1", "lab-2"].map((name) => ({
        name,
        capacity: { cpus: 8, memory: "32Gi" },
        free: { cpus: 8, memory: "32Gi" },
      })),
    },
  ],
};
const lab = { region: "lab" };
const vm = (workloadId: string, cpus: number) => ({ workloadId, cpus, memory: "8Gi", placement: lab });

/** Each call: the resource, how check saw it, its inputs and its state's; the answers in order. */
type Call = [key: string, as: CheckedAs, after: ReturnType<typeof vm>, before?: ReturnType<typeof vm>];

function answers(fleet: FleetHosts, calls: Call[]): string[] {
  const plan = new CapacityPlan();
  return calls.map(([key, as, after, before]) => {
    const { failure, warning } = plan.check(
      "http://svc",
      fleet,
      key,
      `vm-ubuntu ${after.workloadId}`,
      as,
      after,
      before,
    );
    return failure ? `fails: ${failure.reason}` : warning ? `warns: ${warning.split(" cannot be placed")[0]}` : "ok";
  });
}

describe("CapacityPlan", () => {
  it.each<[string, FleetHosts, Call[], string[]]>([
    [
      "a same-size replacement in a full region: checked with its state, then as its replacement",
      FULL,
      [
        ["c", "with-state", vm("c", 4), vm("c", 4)],
        ["c", "replacing", vm("c", 4)],
      ],
      ["ok", "ok"],
    ],
    [
      "a same-size `pulumi up --replace` in a full region: checked only without its state, the live VM given",
      FULL,
      [["c", "replacing", vm("c", 4), vm("c", 4)]],
      ["ok"],
    ],
    [
      "a replacement that grows in a full region: warned once, though checked twice",
      FULL,
      [
        ["c", "with-state", vm("c", 6), vm("c", 4)],
        ["c", "replacing", vm("c", 6)],
      ],
      ["warns: warning: vm-ubuntu c (6 CPUs and 8Gi)", "ok"],
    ],
    [
      "a VM checked twice counts once",
      EMPTY,
      [
        ["a", "new", vm("a", 6)],
        ["a", "new", vm("a", 6)],
        ["b", "new", vm("b", 6)],
        ["c", "new", vm("c", 6)],
      ],
      ["ok", "ok", "ok", "warns: warning: vm-ubuntu c (6 CPUs and 8Gi)"],
    ],
    [
      "an unchanged VM is not in the plan, a VM bigger than every host fails",
      FULL,
      [
        ["a", "with-state", vm("a", 4), vm("a", 4)],
        ["b", "new", vm("b", 9)],
      ],
      ["ok", "fails: vm-ubuntu b needs 9 CPUs and 8Gi, more than any host of region lab holds"],
    ],
  ])("%s", (_, fleet, calls, expected) => {
    // Each answer begins as expected (a warning goes on with the figures).
    const got = answers(fleet, calls);
    expect(got.map((g, i) => (expected[i] !== undefined && g.startsWith(expected[i]) ? expected[i] : g))).toEqual(
      expected,
    );
  });

  it("should give back no room for a replacement that creates first (deleteBeforeReplace: false)", () => {
    const plan = new CapacityPlan();
    plan.createsFirst("c");
    plan.check("http://svc", FULL, "c", "vm-ubuntu c2", "with-state", vm("c", 4), vm("c", 4));
    const { warning } = plan.check("http://svc", FULL, "c", "vm-ubuntu c2", "replacing", vm("c2", 4));
    expect(warning).toMatch(
      /^warning: vm-ubuntu c2 \(4 CPUs and 8Gi\) cannot be placed: no host of region lab has room for it\./,
    );
  });

  it("should keep what a replacement is planned to be, for the guard before its delete", () => {
    const plan = new CapacityPlan();
    plan.check("http://svc", FULL, "urn:c", "vm-ubuntu c", "with-state", vm("c", 6), vm("c", 4));
    expect(plan.plannedFor("urn:c")).toEqual({
      serviceKey: "http://svc",
      vm: {
        name: "vm-ubuntu c",
        workloadId: "c",
        placement: lab,
        demand: { cpus: 6, memoryMi: 8192 },
        old: { placement: lab, figures: { cpus: 4, memoryMi: 8192 } },
      },
      // The plan cannot place it: the guard refuses its delete.
      unplaced: { fit: { fits: false, heuristic: false, dependsOnOldHost: false }, placedBefore: [] },
    });
  });
});
