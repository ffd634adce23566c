/**
 * The local service's placement and preview's agree: for each case, the service places the VMs
 * one at a time in plan order, refusing a VM no host has room for (`refuseWithoutRoom`), and
 * preview's rule (provider/dynamic/service/placement.ts) packs the same plan from the fleet as
 * `GET /v1/fleet/hosts` shows it. Both leave out the same VMs.
 */
import type { FleetHosts } from "../../sdk";
import { Fleet, type FleetConfig, type Placed } from "../../server/fleet";
import { planVmOf, roomsOf } from "../../provider/dynamic/service/capacity";
import { placePlan } from "../../provider/dynamic/service/placement";
import { parseMemoryMi } from "../../sdk/schemas";

interface Vm {
  key: string;
  placement?: { region?: string; host?: string };
  cpus: number;
  memory: string;
}
/** A VM of the plan; `replaces`: the key of a running VM it replaces, deleted first. */
type PlanEntry = Vm & { replaces?: string };

const US_EAST: FleetConfig = {
  regions: [
    {
      name: "us-east",
      hosts: [
        { name: "us-east-1", capacity: { cpus: 64, memory: "256Gi" } },
        { name: "us-east-2", capacity: { cpus: 32, memory: "128Gi" } },
      ],
    },
  ],
};
const LAB: FleetConfig = {
  regions: [
    {
      name: "lab",
      hosts: [
        { name: "lab-small", capacity: { cpus: 4, memory: "64Gi" } },
        { name: "lab-1", capacity: { cpus: 8, memory: "32Gi" } },
        { name: "lab-2", capacity: { cpus: 8, memory: "32Gi" } },
      ],
    },
  ],
};
const lab = { region: "lab" };
const usEast = { region: "us-east" };

/** The service: the running VMs placed, then the plan's one at a time; the keys it refuses. */
function servicePlaces(config: FleetConfig, running: Vm[], plan: PlanEntry[]): { refused: string[]; hosts: string[] } {
  const fleet = new Fleet(config);
  const placed = new Map<string, Placed>();
  for (const vm of running) placed.set(vm.key, { host: fleet.place(vm.placement, vm, placed.values())!, ...vm });
  const refused: string[] = [];
  const hosts: string[] = [];
  for (const vm of plan) {
    if (vm.replaces) placed.delete(vm.replaces);
    if (fleet.noRoom(vm.placement, vm, placed.values())) {
      refused.push(vm.key);
      continue;
    }
    const host = fleet.place(vm.placement, vm, placed.values())!;
    hosts.push(host);
    placed.set(vm.key, { host, ...vm });
  }
  return { refused, hosts };
}

/** Preview: the fleet as the service shows it with the running VMs, and the plan packed. */
function previewLeavesOut(config: FleetConfig, running: Vm[], plan: PlanEntry[]): string[] {
  const fleet = new Fleet(config);
  const placed: Placed[] = [];
  for (const vm of running) placed.push({ host: fleet.place(vm.placement, vm, placed)!, ...vm });
  const shown = fleet.describe(placed) as FleetHosts;
  const figures = (vm: Vm) => ({ cpus: vm.cpus, memoryMi: parseMemoryMi(vm.memory)! });
  const planned = plan.map((vm) => {
    const old = running.find((r) => r.key === vm.replaces);
    return planVmOf(shown, vm.key, {
      name: vm.key,
      workloadId: vm.key,
      placement: vm.placement,
      demand: figures(vm),
      old: old && { placement: old.placement, figures: figures(old) },
    });
  });
  return [...placePlan(roomsOf(shown), planned).unplaced.keys()];
}

describe("placement: the local service and preview", () => {
  it.each<[string, FleetConfig, Vm[], PlanEntry[], string[]]>([
    [
      "two 48-CPU VMs in a region of a 64- and a 32-CPU host",
      US_EAST,
      [],
      [
        { key: "a", placement: usEast, cpus: 48, memory: "8Gi" },
        { key: "b", placement: usEast, cpus: 48, memory: "8Gi" },
      ],
      ["b"],
    ],
    [
      "three 5-CPU VMs where two hosts have 8 CPUs",
      LAB,
      [],
      ["a", "b", "c"].map((key) => ({ key, placement: lab, cpus: 5, memory: "4Gi" })),
      ["c"],
    ],
    [
      "one 6-CPU VM where two hosts have 3 CPUs free each",
      LAB,
      [
        { key: "x", placement: { host: "lab-1" }, cpus: 5, memory: "4Gi" },
        { key: "y", placement: { host: "lab-2" }, cpus: 5, memory: "4Gi" },
      ],
      [{ key: "a", placement: lab, cpus: 6, memory: "4Gi" }],
      ["a"],
    ],
    [
      "a VM pinned to a host and one in its region that meet there",
      US_EAST,
      [{ key: "x", placement: { host: "us-east-2" }, cpus: 32, memory: "8Gi" }],
      [
        { key: "pinned", placement: { host: "us-east-1" }, cpus: 40, memory: "8Gi" },
        { key: "regional", placement: usEast, cpus: 40, memory: "8Gi" },
      ],
      ["regional"],
    ],
    [
      "a region VM, then a VM pinned to the host it could have taken",
      US_EAST,
      [],
      [
        { key: "regional", placement: usEast, cpus: 30, memory: "8Gi" },
        { key: "pinned", placement: { host: "us-east-1" }, cpus: 40, memory: "8Gi" },
      ],
      [],
    ],
    [
      "a 5-CPU VM with a 4-CPU host of more memory in its region",
      LAB,
      [],
      [{ key: "a", placement: lab, cpus: 5, memory: "4Gi" }],
      [],
    ],
    [
      "a same-size replacement in a full region",
      LAB,
      ["x", "y", "z"]
        .map((key) => ({ key, placement: lab, cpus: 4, memory: "8Gi" }))
        .concat([
          { key: "w", placement: lab, cpus: 4, memory: "8Gi" },
          { key: "v", placement: lab, cpus: 4, memory: "8Gi" },
        ]),
      [{ key: "x2", placement: lab, cpus: 4, memory: "8Gi", replaces: "x" }],
      [],
    ],
    [
      "a replacement that grows in a full region",
      LAB,
      ["x", "y", "z", "w", "v"].map((key) => ({ key, placement: lab, cpus: 4, memory: "8Gi" })),
      [{ key: "x2", placement: lab, cpus: 6, memory: "8Gi", replaces: "x" }],
      ["x2"],
    ],
    [
      "a plan that fits",
      US_EAST,
      [],
      [
        { key: "a", placement: usEast, cpus: 48, memory: "8Gi" },
        { key: "b", placement: usEast, cpus: 16, memory: "8Gi" },
        { key: "c", placement: usEast, cpus: 32, memory: "8Gi" },
      ],
      [],
    ],
  ])("%s", (_, config, running, plan, leftOut) => {
    expect(servicePlaces(config, running, plan).refused).toEqual(leftOut);
    expect(previewLeavesOut(config, running, plan)).toEqual(leftOut);
  });

  it("should put a 5-CPU VM on a host with 5 CPUs free, not on the 4-CPU host with the most memory", () => {
    const { hosts } = servicePlaces(LAB, [], [{ key: "a", placement: lab, cpus: 5, memory: "4Gi" }]);
    expect(hosts).toEqual(["lab-1"]);
  });
});
