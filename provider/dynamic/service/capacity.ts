import { formatMemoryMi, parseMemoryMi, type FleetHosts } from "../../../sdk";
import { failureAt, type Failure } from "../inputs/failures";

type Host = FleetHosts["regions"][number]["hosts"][number];
interface Figures {
  cpus: number;
  memoryMi: number;
}

/** `4Gi` → 4096 (MiB); undefined for anything else. */
const mi = (quantity: unknown): number | undefined =>
  typeof quantity === "string" ? parseMemoryMi(quantity) : undefined;

const shown = (f: Figures): string => `${f.cpus} CPUs and ${formatMemoryMi(f.memoryMi)}`;

/** The hosts a VM of `placement` may go to, and how messages name them. */
function scopeOf(fleet: FleetHosts, placement: unknown): { key: string; where: string; hosts: Host[] } {
  const { region, host } = (typeof placement === "object" && placement !== null ? placement : {}) as {
    region?: unknown;
    host?: unknown;
  };
  const all = fleet.regions.flatMap((r) => r.hosts);
  if (typeof host === "string")
    return { key: `host ${host}`, where: `host ${host}`, hosts: all.filter((h) => h.name === host) };
  if (typeof region === "string")
    return {
      key: `region ${region}`,
      where: `region ${region}`,
      hosts: fleet.regions.find((r) => r.name === region)?.hosts ?? [],
    };
  return { key: "fleet", where: "the fleet (automatic placement)", hosts: all };
}

const figuresOf = (r: { cpus: number; memory: string }): Figures => ({ cpus: r.cpus, memoryMi: mi(r.memory) ?? 0 });

/**
 * The plan's demand on the fleet, added up as `check` sees each VM of the deployment: one per
 * provider process, which serves one deployment. Only the figures a VM declares count (`cpus`,
 * `memory`): a default is the service's, not ours to guess.
 */
export class CapacityPlan {
  private readonly planned = new Map<string, Figures>();

  /**
   * For a new VM (`before` undefined) or one that grows: a failure when no host of its scope could
   * ever hold it (more than a host's whole capacity), a warning when the plan's VMs of that scope
   * need more than it has free now. `vm` names it (`vm-ubuntu big`).
   */
  check(
    fleet: FleetHosts,
    vm: string,
    placement: unknown,
    after: { cpus?: unknown; memory?: unknown },
    before?: { cpus?: unknown; memory?: unknown },
  ): { failure?: Failure; warning?: string } {
    const wanted = { cpus: typeof after.cpus === "number" ? after.cpus : 0, memoryMi: mi(after.memory) ?? 0 };
    const had = { cpus: typeof before?.cpus === "number" ? before.cpus : 0, memoryMi: mi(before?.memory) ?? 0 };
    const growth = { cpus: Math.max(0, wanted.cpus - had.cpus), memoryMi: Math.max(0, wanted.memoryMi - had.memoryMi) };
    if (growth.cpus === 0 && growth.memoryMi === 0) return {};
    const scope = scopeOf(fleet, placement);
    if (scope.hosts.length === 0) return {}; // an unknown region or host: the placement check says so
    const fits = (h: Host): boolean =>
      h.capacity.cpus >= wanted.cpus && (mi(h.capacity.memory) ?? 0) >= wanted.memoryMi;
    if (!scope.hosts.some(fits)) {
      const largest = [...scope.hosts].sort(
        (a, b) => b.capacity.cpus - a.capacity.cpus || (mi(b.capacity.memory) ?? 0) - (mi(a.capacity.memory) ?? 0),
      )[0];
      const field = largest.capacity.cpus < wanted.cpus ? "cpus" : "memory";
      return {
        failure: failureAt(
          [field],
          `${vm} needs ${shown(wanted)}, more than any host of ${scope.where} holds: the largest, ${largest.name}, has ${shown(figuresOf(largest.capacity))} in all (GET /v1/fleet/hosts). Make it smaller, or place it where a larger host is`,
        ),
      };
    }
    const sum = this.planned.get(scope.key) ?? { cpus: 0, memoryMi: 0 };
    const total = { cpus: sum.cpus + growth.cpus, memoryMi: sum.memoryMi + growth.memoryMi };
    this.planned.set(scope.key, total);
    const free = scope.hosts
      .map((h) => figuresOf(h.free))
      .reduce((a, b) => ({ cpus: a.cpus + b.cpus, memoryMi: a.memoryMi + b.memoryMi }), { cpus: 0, memoryMi: 0 });
    if (total.cpus <= free.cpus && total.memoryMi <= free.memoryMi) return {};
    return {
      warning:
        `warning: ${vm}: the plan's new and grown VMs in ${scope.where} need ${shown(total)} so far, ` +
        `more than its hosts have free now (${shown(free)}, GET /v1/fleet/hosts): the service may refuse ` +
        `this VM or leave it pending, unless capacity is freed before \`pulumi up\``,
    };
  }
}
