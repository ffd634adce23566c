import { formatMemoryMi, parseMemoryMi, type FleetHosts } from "../../../sdk";
import { failureAt, type Failure } from "../inputs/failures";
import { fitTogether, placePlan, type Figures, type Fit, type HostRoom, type PlanVm } from "./placement";

type Host = FleetHosts["regions"][number]["hosts"][number];

/** `4Gi` → 4096 (MiB); undefined for anything else. */
const mi = (quantity: unknown): number | undefined =>
  typeof quantity === "string" ? parseMemoryMi(quantity) : undefined;

/**
 * What a VM declares: only its own figures count (`cpus`, `memory`); a default is the service's,
 * not ours to guess.
 */
export const declaredFigures = (vm: { cpus?: unknown; memory?: unknown }): Figures => ({
  cpus: typeof vm.cpus === "number" ? vm.cpus : 0,
  memoryMi: mi(vm.memory) ?? 0,
});

export const shown = (f: Figures): string => `${f.cpus} CPUs and ${formatMemoryMi(f.memoryMi)}`;

/** The hosts a VM of `placement` may go to, and how messages name them. A pinned host is in its region and the fleet too. */
export function scopeOf(fleet: FleetHosts, placement: unknown): { where: string; hosts: Host[] } {
  const { region, host } = (typeof placement === "object" && placement !== null ? placement : {}) as {
    region?: unknown;
    host?: unknown;
  };
  const all = fleet.regions.flatMap((r) => r.hosts);
  if (typeof host === "string") return { where: `host ${host}`, hosts: all.filter((h) => h.name === host) };
  if (typeof region === "string")
    return { where: `region ${region}`, hosts: fleet.regions.find((r) => r.name === region)?.hosts ?? [] };
  return { where: "the fleet (automatic placement)", hosts: all };
}

/** The fleet's hosts as the placement rule takes them. */
export const roomsOf = (fleet: FleetHosts): HostRoom[] =>
  fleet.regions.flatMap((r) =>
    r.hosts.map((h) => ({ name: h.name, capacity: declaredFigures(h.capacity), free: declaredFigures(h.free) })),
  );

/** `us-east-1 16 CPUs and 64Gi, us-east-2 0 CPUs and 0Mi`: what each host of a scope has free. */
export const freeFigures = (hosts: readonly Host[]): string =>
  hosts.map((h) => `${h.name} ${shown(declaredFigures(h.free))}`).join(", ");

/** A VM as the plan keeps it: its placement, its figures, and its old self's when it gives room back first. */
export interface PlannedVm {
  /** `vm-ubuntu big`. */
  name: string;
  /** Its workload id. */
  workloadId: string;
  placement: unknown;
  demand: Figures;
  /** Its old self, when its room is given back before it is placed (a delete first, a resize). */
  old?: { placement: unknown; figures: Figures };
}

/** The VM as the rule takes it, its scopes read in `fleet`. */
export function planVmOf(fleet: FleetHosts, key: string, vm: PlannedVm): PlanVm {
  return {
    key,
    demand: vm.demand,
    hosts: scopeOf(fleet, vm.placement).hosts.map((h) => h.name),
    frees: vm.old && { figures: vm.old.figures, hosts: scopeOf(fleet, vm.old.placement).hosts.map((h) => h.name) },
  };
}

/** The plan of one service's fleet: its one read, and the VMs in the order `check` saw them. */
class FleetPlan {
  readonly vms = new Map<string, PlannedVm>();
  private verdict: { accepted: PlanVm[]; unplaced: Map<string, Fit> } | undefined;

  constructor(readonly fleet: FleetHosts) {}

  /** Adds or replaces the VM of `key` (checked twice, it counts once); its verdict, undefined when it is placed. */
  put(key: string, vm: PlannedVm): Fit | undefined {
    const known = this.vms.has(key);
    const same = known && JSON.stringify(this.vms.get(key)) === JSON.stringify(vm);
    this.vms.set(key, vm);
    if (same && this.verdict) return this.verdict.unplaced.get(key);
    if (known || !this.verdict) return this.replan().get(key);
    // A VM more at the end of the plan: one search, with the VMs placed before it.
    const planned = planVmOf(this.fleet, key, vm);
    const fit = fitTogether(roomsOf(this.fleet), [...this.verdict.accepted, planned]);
    if (fit.fits) this.verdict.accepted.push(planned);
    else this.verdict.unplaced.set(key, fit);
    return fit.fits ? undefined : fit;
  }

  /** Why the plan cannot place the VM of `key`; undefined when it can. */
  verdictOf(key: string): Fit | undefined {
    return (this.verdict ? this.verdict.unplaced : this.replan()).get(key);
  }

  remove(key: string): void {
    if (this.vms.delete(key)) this.verdict = undefined;
  }

  /** The VMs before `key` in the plan that are placed and share a host with it. */
  placedBefore(key: string): string[] {
    const mine = new Set(scopeOf(this.fleet, this.vms.get(key)?.placement).hosts.map((h) => h.name));
    const accepted = new Map((this.verdict?.accepted ?? []).map((p) => [p.key, p]));
    const out: string[] = [];
    for (const [k, vm] of this.vms) {
      if (k === key) break;
      if (accepted.get(k)?.hosts.some((h) => mine.has(h))) out.push(vm.name);
    }
    return out;
  }

  private replan(): Map<string, Fit> {
    const plan = [...this.vms].map(([key, vm]) => planVmOf(this.fleet, key, vm));
    const { unplaced } = placePlan(roomsOf(this.fleet), plan);
    this.verdict = { accepted: plan.filter((p) => !unplaced.has(p.key)), unplaced };
    return unplaced;
  }
}

/** How `check` saw the VM: new, checked with its state (an update, or the first check of a replacement), or replacing its old self. */
export type CheckedAs = "new" | "with-state" | "replacing";

/**
 * The deployment's new and grown VMs, placed on the fleet as `check` sees each one: one plan per
 * service (by base URL), from the one fleet read of the deployment (the provider process serves
 * one deployment). See placement.ts for the rule.
 */
export class CapacityPlan {
  private readonly plans = new Map<string, FleetPlan>();
  /** By resource: the VM as its state holds it, for the check without state of its replacement. */
  private readonly olds = new Map<string, { placement: unknown; figures: Figures }>();
  /** By resource: the plan that holds it, for the delete of its replacement. */
  private readonly planOf = new Map<string, { plan: FleetPlan; serviceKey: string }>();
  /** By service and the workload (`workspace/id`) a resource's state holds: the resource, for a delete that has no URN. */
  private readonly holders = new Map<string, string>();
  /** Resources whose replacement creates the new VM first (`deleteBeforeReplace: false`). */
  private readonly creatingFirst = new Set<string>();
  /** By resource: the last warning said on its row (a VM checked twice says it once). */
  private readonly said = new Map<string, string>();

  /**
   * A failure when no host of the VM's scope could ever hold it; a warning when it cannot be
   * placed with the plan's VMs before it. `key` names the resource (its URN); `before` is the VM
   * it was: its state's inputs ("with-state"), or the live VM that a replacement checked only
   * without its state replaces. `serviceKey` is the service's base URL.
   */
  check(
    serviceKey: string,
    fleet: FleetHosts,
    key: string,
    name: string,
    as: CheckedAs,
    after: { workloadId?: unknown; cpus?: unknown; memory?: unknown; placement?: unknown },
    before?: { cpus?: unknown; memory?: unknown; placement?: unknown },
  ): { failure?: Failure; warning?: string } {
    const plan = this.plans.get(serviceKey) ?? new FleetPlan(fleet);
    this.plans.set(serviceKey, plan);
    const demand = declaredFigures(after);
    if (before && (as === "with-state" || !this.olds.has(key)))
      this.olds.set(key, { placement: before.placement, figures: declaredFigures(before) });
    // A replacement deletes first (every workload class sets deleteBeforeReplace unless the user
    // says otherwise); a resize is one step.
    const old = as === "new" || (as === "replacing" && this.creatingFirst.has(key)) ? undefined : this.olds.get(key);
    if (as === "with-state" && old && !growsOrMoves(old, demand, after.placement)) {
      plan.remove(key);
      return {};
    }
    const scope = scopeOf(plan.fleet, after.placement);
    if (scope.hosts.length === 0) return {}; // an unknown region or host: the placement check says so
    const never = neverFits(name, demand, scope);
    if (never) return { failure: never };
    const vm: PlannedVm = { name, workloadId: String(after.workloadId), placement: after.placement, demand, old };
    this.planOf.set(key, { plan, serviceKey });
    const fit = plan.put(key, vm);
    if (!fit) return {};
    const warning = unplacedWarning(vm, fit, scope, plan.placedBefore(key));
    if (this.said.get(key) === warning) return {};
    this.said.set(key, warning);
    return { warning };
  }

  /** Records that the replacement of the resource `key` creates the new VM before deleting the old. */
  createsFirst(key: string): void {
    this.creatingFirst.add(key);
  }

  /** Records that the state of the resource `key` holds `workload` (`workspace/id`) of the service `serviceKey`. */
  holds(key: string, serviceKey: string, workload: string): void {
    this.holders.set(`${serviceKey}\n${workload}`, key);
  }

  /** The resource whose state holds `workload` (`workspace/id`) of the service `serviceKey`, if this run checked it. */
  holderOf(serviceKey: string, workload: string): string | undefined {
    return this.holders.get(`${serviceKey}\n${workload}`);
  }

  /** Whether a check with its state told the VM the resource `key` replaces. */
  knowsOld(key: string): boolean {
    return this.olds.has(key);
  }

  /** The VM the resource `key` is planned to be (by its last check), and the service (base URL) it goes to. */
  plannedFor(
    key: string,
  ): { vm: PlannedVm; serviceKey: string; unplaced?: { fit: Fit; placedBefore: string[] } } | undefined {
    const plan = this.planOf.get(key);
    const vm = plan?.plan.vms.get(key);
    if (!plan || !vm) return undefined;
    const fit = plan.plan.verdictOf(key);
    const unplaced = fit && { fit, placedBefore: plan.plan.placedBefore(key) };
    return { vm, serviceKey: plan.serviceKey, unplaced };
  }
}

function growsOrMoves(old: { placement: unknown; figures: Figures }, demand: Figures, placement: unknown): boolean {
  return (
    demand.cpus > old.figures.cpus ||
    demand.memoryMi > old.figures.memoryMi ||
    JSON.stringify(placement ?? null) !== JSON.stringify(old.placement ?? null)
  );
}

/** The failure of a VM more than any host of its scope holds in all. */
function neverFits(name: string, demand: Figures, scope: { where: string; hosts: Host[] }): Failure | undefined {
  const whole = (h: Host): Figures => declaredFigures(h.capacity);
  if (scope.hosts.some((h) => demand.cpus <= whole(h).cpus && demand.memoryMi <= whole(h).memoryMi)) return undefined;
  const largest = [...scope.hosts].sort(
    (a, b) => whole(b).cpus - whole(a).cpus || whole(b).memoryMi - whole(a).memoryMi,
  )[0];
  const field = whole(largest).cpus < demand.cpus ? "cpus" : "memory";
  return failureAt(
    [field],
    `${name} needs ${shown(demand)}, more than any host of ${scope.where} holds: the largest, ${largest.name}, has ${shown(whole(largest))} in all (GET /v1/fleet/hosts). Make it smaller, or place it where a larger host is`,
  );
}

/** The warning on the row of a VM the plan cannot place. */
function unplacedWarning(vm: PlannedVm, fit: Fit, scope: { where: string; hosts: Host[] }, before: string[]): string {
  const others =
    before.length === 0
      ? ""
      : ` once the plan's ${before.length > 5 ? `${before.slice(0, 5).join(", ")} and ${before.length - 5} more VMs` : before.join(", ")} ${before.length === 1 ? "is" : "are"} placed`;
  const given = vm.old ? `, its old self's ${shown(vm.old.figures)} given back first` : "";
  const why = fit.dependsOnOldHost
    ? `it fits only if the service holds its old self on the right host, and the service does not say which host that is`
    : fit.heuristic
      ? `${noRoomIn(scope.where)}${others} (decided by first-fit decreasing, a heuristic: the plan has more VMs sharing these hosts than the exact search takes, so an assignment may exist)`
      : `${noRoomIn(scope.where)}${others}`;
  return (
    `warning: ${vm.name} (${shown(vm.demand)}) cannot be placed: ${why}. Free now: ${freeFigures(scope.hosts)}${given} ` +
    `(GET /v1/fleet/hosts, each host must have both the CPUs and the memory). The service may refuse this VM or leave it ` +
    `pending, unless capacity is freed before \`pulumi up\``
  );
}

/** `no host of region lab has room for it`, or `host lab-1 has no room for it` (`would have` for what is to come). */
export function noRoomIn(where: string, would = false): string {
  const has = would ? "would have" : "has";
  return where.startsWith("host ") ? `${where} ${has} no room for it` : `no host of ${where} ${has} room for it`;
}
