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
 * Placement picks the host with the most free memory in scope; it never refuses for lack of room
 * (the local service simulates, it does not schedule).
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

  place(placement: { region?: string; host?: string } | undefined, placed: Iterable<Placed>): string | undefined {
    if (placement?.host !== undefined) return placement.host;
    const scope =
      placement?.region !== undefined
        ? (this.config.regions.find((r) => r.name === placement.region)?.hosts ?? [])
        : this.allHosts();
    const free = this.freeByHost(placed);
    let best: string | undefined;
    for (const h of scope) {
      if (best === undefined || free.get(h.name)!.memory > free.get(best)!.memory) best = h.name;
    }
    return best;
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
    const scope =
      placement?.host !== undefined
        ? this.allHosts().filter((h) => h.name === placement.host)
        : placement?.region !== undefined
          ? (this.config.regions.find((r) => r.name === placement.region)?.hosts ?? [])
          : this.allHosts();
    const cpus = demand.cpus ?? DEFAULT_VM_CPUS;
    const memory = (demand.memory !== undefined ? parseMemoryMi(demand.memory) : undefined) ?? DEFAULT_VM_MEMORY_MI;
    const free = this.freeByHost(placed);
    if (scope.some((h) => free.get(h.name)!.cpus >= cpus && free.get(h.name)!.memory >= memory)) return undefined;
    const where = placement?.host ?? placement?.region ?? "the fleet";
    const frees = scope.map((h) => {
      const f = free.get(h.name)!;
      return `${h.name} ${Math.max(0, f.cpus)} CPUs/${formatMemoryMi(Math.max(0, f.memory))}`;
    });
    return `no host of ${where} has room for ${cpus} CPUs and ${formatMemoryMi(memory)} now (free: ${frees.join(", ")})`;
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
      f.cpus -= p.cpus ?? DEFAULT_VM_CPUS;
      f.memory -= (p.memory !== undefined ? parseMemoryMi(p.memory) : undefined) ?? DEFAULT_VM_MEMORY_MI;
    }
    return free;
  }
}
