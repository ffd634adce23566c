import type { ErrorDetail } from "../sdk/schemas";
import { formatMemoryMi, parseMemoryMi } from "../sdk/schemas";

interface FleetHostConfig {
  name: string;
  capacity: { cpus: number; memory: string };
}
export interface FleetConfig {
  regions: ReadonlyArray<{ name: string; hosts: ReadonlyArray<FleetHostConfig> }>;
}

/** What a placed VM takes from its host when its body leaves cpus/memory out. */
const DEFAULT_VM_CPUS = 1;
const DEFAULT_VM_MEMORY_MI = 1024;

export const DEFAULT_FLEET: FleetConfig = Object.freeze({
  regions: Object.freeze([
    {
      name: "eu-central",
      hosts: [
        { name: "eu-central-1", capacity: { cpus: 64, memory: "256Gi" } },
        { name: "eu-central-2", capacity: { cpus: 64, memory: "256Gi" } },
        { name: "eu-central-3", capacity: { cpus: 32, memory: "128Gi" } },
      ],
    },
    {
      name: "us-east",
      hosts: [
        { name: "us-east-1", capacity: { cpus: 64, memory: "256Gi" } },
        { name: "us-east-2", capacity: { cpus: 32, memory: "128Gi" } },
      ],
    },
  ]),
});

/** A message naming what is wrong with `fleet`, or undefined when it is valid. */
export function fleetProblem(fleet: FleetConfig): string | undefined {
  if (!fleet || !Array.isArray(fleet.regions) || fleet.regions.length === 0) return "must have at least one region";
  const names = new Set<string>();
  for (const region of fleet.regions) {
    if (typeof region.name !== "string" || region.name === "" || names.has(region.name)) {
      return `region names must be unique and non-empty (${String(region.name)})`;
    }
    names.add(region.name);
    if (!Array.isArray(region.hosts)) return `region ${region.name} needs a hosts array`;
    for (const host of region.hosts) {
      if (typeof host.name !== "string" || host.name === "" || names.has(host.name)) {
        return `host names must be unique among regions and hosts (${String(host.name)})`;
      }
      names.add(host.name);
      if (!Number.isInteger(host.capacity?.cpus) || parseMemoryMi(String(host.capacity?.memory)) === undefined) {
        return `host ${host.name} needs capacity {cpus: integer, memory: "<N>Gi"}`;
      }
    }
  }
  return undefined;
}

export interface Placed {
  host: string;
  cpus?: number;
  memory?: string;
}

/**
 * The fleet with live capacity: `free` is capacity minus what the placed VMs take (never below 0).
 *
 * Placement (`place`), the rule `docs/placement.md` states: a pinned VM goes to its host. Otherwise,
 * among the hosts of its scope (its region, or the whole fleet) that have both its CPUs and its
 * memory free, a VM that is resized or moved stays on its host when that host is one of them;
 * else it goes to the one it fills best: the fewest CPUs left after it, then the least memory,
 * then the first in the fleet's order: filling hosts tightly keeps whole hosts free for big VMs
 * that come later. When no host has room, `refuseWithoutRoom` refuses the VM (409, `noRoom`); without it, the
 * VM goes to the host with the most CPUs free (then memory), overcommitting it.
 */
export class Fleet {
  constructor(private readonly config: FleetConfig) {}

  /** Details naming `placement.region` / `placement.host` when they are not in the fleet. */
  checkPlacement(placement: { region?: string; host?: string } | undefined): ErrorDetail[] {
    if (placement?.region !== undefined && !this.config.regions.some((r) => r.name === placement.region)) {
      return [
        {
          path: "placement.region",
          message: `unknown region; known: ${this.config.regions.map((r) => r.name).join(", ")}`,
        },
      ];
    }
    if (placement?.host !== undefined && !this.allHosts().some((h) => h.name === placement.host)) {
      return [{ path: "placement.host", message: "unknown host; see GET /v1/fleet/hosts" }];
    }
    return [];
  }

  /**
   * The host for a VM of `demand` (see the class's doc), `placed` being every other placed VM;
   * `current`: its host now, when it is resized or moved.
   */
  place(
    placement: { region?: string; host?: string } | undefined,
    demand: Omit<Placed, "host">,
    placed: Iterable<Placed>,
    current?: string,
  ): string | undefined {
    if (placement?.host !== undefined) return placement.host;
    const want = figuresOf(demand);
    const free = this.freeByHost(placed);
    const left = (h: FleetHostConfig) => {
      const f = free.get(h.name)!;
      return { cpus: f.cpus - want.cpus, memory: f.memory - want.memory };
    };
    const scope = this.scopeOf(placement);
    const roomy = scope.filter((h) => left(h).cpus >= 0 && left(h).memory >= 0);
    if (current !== undefined && roomy.some((h) => h.name === current)) return current;
    const best = (a: FleetHostConfig, b: FleetHostConfig): FleetHostConfig =>
      left(b).cpus < left(a).cpus || (left(b).cpus === left(a).cpus && left(b).memory < left(a).memory) ? b : a;
    if (roomy.length > 0) return roomy.reduce(best).name;
    const most = (a: FleetHostConfig, b: FleetHostConfig): FleetHostConfig =>
      left(b).cpus > left(a).cpus || (left(b).cpus === left(a).cpus && left(b).memory > left(a).memory) ? b : a;
    return scope.length > 0 ? scope.reduce(most).name : undefined;
  }

  /**
   * Why a VM of `demand` cannot go in its scope now (no host there has that much free), or
   * undefined when one host has room. For `refuseWithoutRoom`.
   */
  noRoom(
    placement: { region?: string; host?: string } | undefined,
    demand: Omit<Placed, "host">,
    placed: Iterable<Placed>,
  ): string | undefined {
    const scope = this.scopeOf(placement);
    const { cpus, memory } = figuresOf(demand);
    const free = this.freeByHost(placed);
    if (scope.some((h) => free.get(h.name)!.cpus >= cpus && free.get(h.name)!.memory >= memory)) return undefined;
    const where = placement?.host ?? placement?.region ?? "the fleet";
    const frees = scope.map((h) => {
      const f = free.get(h.name)!;
      return `${h.name} ${Math.max(0, f.cpus)} CPUs/${formatMemoryMi(Math.max(0, f.memory))}`;
    });
    return `no host of ${where} has room for ${cpus} CPUs and ${formatMemoryMi(memory)} now (free: ${frees.join(", ")}): each host must have both the CPUs and the memory`;
  }

  describe(placed: Iterable<Placed>): { regions: Array<{ name: string; hosts: unknown[] }> } {
    const free = this.freeByHost(placed);
    return {
      regions: this.config.regions.map((r) => ({
        name: r.name,
        hosts: r.hosts.map((h) => {
          const f = free.get(h.name)!;
          return {
            name: h.name,
            capacity: { cpus: h.capacity.cpus, memory: h.capacity.memory },
            free: { cpus: Math.max(0, f.cpus), memory: formatMemoryMi(Math.max(0, f.memory)) },
          };
        }),
      })),
    };
  }

  /** The hosts a VM of `placement` may go to: its pinned host, its region's, or the whole fleet's. */
  private scopeOf(placement: { region?: string; host?: string } | undefined): FleetHostConfig[] {
    if (placement?.host !== undefined) return this.allHosts().filter((h) => h.name === placement.host);
    if (placement?.region !== undefined)
      return [...(this.config.regions.find((r) => r.name === placement.region)?.hosts ?? [])];
    return this.allHosts();
  }

  private allHosts(): FleetHostConfig[] {
    return this.config.regions.flatMap((r) => r.hosts);
  }

  private freeByHost(placed: Iterable<Placed>): Map<string, { cpus: number; memory: number }> {
    const free = new Map(
      this.allHosts().map((h) => [h.name, { cpus: h.capacity.cpus, memory: parseMemoryMi(h.capacity.memory)! }]),
    );
    for (const p of placed) {
      const f = free.get(p.host);
      if (!f) continue;
      const taken = figuresOf(p);
      f.cpus -= taken.cpus;
      f.memory -= taken.memory;
    }
    return free;
  }
}

/** What a VM takes from its host: its figures, or the defaults for those its body leaves out. */
function figuresOf(vm: Omit<Placed, "host">): { cpus: number; memory: number } {
  return {
    cpus: vm.cpus ?? DEFAULT_VM_CPUS,
    memory: (vm.memory !== undefined ? parseMemoryMi(vm.memory) : undefined) ?? DEFAULT_VM_MEMORY_MI,
  };
}
