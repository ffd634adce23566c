/**
 * Whether the VMs a deployment adds or grows can be placed on the fleet's hosts as they are now:
 * the rule, as a pure function of the hosts' free figures and the plan.
 *
 * Why it exists: a scheduler puts each VM on one host, which must have both its CPUs and its
 * memory free. Summing a scope's free figures says yes to two 48-CPU VMs on hosts of 64 and 32
 * CPUs; only an assignment of VMs to hosts (bin packing, in two dimensions) tells the truth.
 *
 * Words:
 * - **scope**: the hosts a VM may go to: its pinned host, its region's hosts, or the whole fleet.
 *   Scopes overlap (a pinned host is also in its region and in the fleet), so the plan is packed
 *   as one, split only into groups of VMs that share no host.
 * - **frees**: the room a VM's old self gives back before the VM is placed: a replacement whose
 *   delete comes first, or a resize the service applies in one step. The service does not say
 *   which host holds a VM, so the room goes back to one of the hosts that could hold it (its old
 *   scope's hosts using at least that much); a plan fits only if it fits whichever one it is.
 * - **plan order**: VMs are taken in the order `check` saw them. A VM is *unplaced* when it does
 *   not fit with the VMs before it that fit: the earlier ones claim the room first, as they would
 *   in a deployment that sends them first.
 *
 * The answer is exact (a bounded search over assignments) for groups of up to `maxExact` VMs
 * sharing hosts; beyond that, or past `maxNodes` steps of the search, first-fit decreasing: its
 * "fits" is a proof (it found an assignment), its "does not fit" is a heuristic, and says so.
 */

export interface Figures {
  cpus: number;
  memoryMi: number;
}

export interface HostRoom {
  name: string;
  free: Figures;
  capacity: Figures;
}

export interface PlanVm {
  /** How the answer names it. */
  key: string;
  demand: Figures;
  /** The names of the hosts of its scope. */
  hosts: readonly string[];
  /** Room its old self gives back first, on one of `hosts` (the old scope's). */
  frees?: { figures: Figures; hosts: readonly string[] };
}

export interface Fit {
  fits: boolean;
  /** A "does not fit" of first-fit decreasing, not of the exact search: an assignment may exist. */
  heuristic: boolean;
  /** Whether the answer depends on which host holds a VM whose room is given back: it fits for some, not all. */
  dependsOnOldHost: boolean;
}

export interface PlacementLimits {
  /** Groups of VMs sharing hosts up to this size are decided exactly. */
  maxExact: number;
  /** Steps of one exact search before it gives way to first-fit decreasing. */
  maxNodes: number;
  /** Combinations of old hosts tried for the rooms given back; beyond, none is counted. */
  maxOldHostChoices: number;
}

const DEFAULT_PLACEMENT_LIMITS: Readonly<PlacementLimits> = Object.freeze({
  maxExact: 32,
  maxNodes: 200_000,
  maxOldHostChoices: 64,
});

const fitsIn = (demand: Figures, free: Figures): boolean =>
  demand.cpus <= free.cpus && demand.memoryMi <= free.memoryMi;

/** `plan`'s VMs in plan order: the keys of those that do not fit with the ones before them. */
export function placePlan(
  hosts: readonly HostRoom[],
  plan: readonly PlanVm[],
  limits: PlacementLimits = DEFAULT_PLACEMENT_LIMITS,
): { unplaced: Map<string, Fit> } {
  const accepted: PlanVm[] = [];
  const unplaced = new Map<string, Fit>();
  for (const vm of plan) {
    const fit = fitTogether(hosts, [...accepted, vm], limits);
    if (fit.fits) accepted.push(vm);
    else unplaced.set(vm.key, fit);
  }
  return { unplaced };
}

/** Whether every VM of `vms` can be placed at once, whichever host gives back each old VM's room. */
export function fitTogether(
  hosts: readonly HostRoom[],
  vms: readonly PlanVm[],
  limits: PlacementLimits = DEFAULT_PLACEMENT_LIMITS,
): Fit {
  const index = new Map(hosts.map((h, i) => [h.name, i]));
  const choices = oldHostChoices(hosts, vms, index, limits.maxOldHostChoices);
  let fitsSome = false;
  let fitsAll = true;
  let heuristic = false;
  for (const credit of choices) {
    const free = hosts.map((h, i) => ({
      cpus: h.free.cpus + (credit[i]?.cpus ?? 0),
      memoryMi: h.free.memoryMi + (credit[i]?.memoryMi ?? 0),
    }));
    const r = packs(free, vms, index, limits);
    heuristic ||= r.heuristic;
    if (r.fits) fitsSome = true;
    else fitsAll = false;
  }
  return { fits: fitsAll, heuristic, dependsOnOldHost: fitsSome && !fitsAll };
}

/**
 * Every way the rooms given back can be spread over their possible hosts, as credits per host
 * index. A host cannot give back more than it uses; more than `max` ways: none is counted (the
 * answer can then only be more cautious).
 */
function oldHostChoices(
  hosts: readonly HostRoom[],
  vms: readonly PlanVm[],
  index: Map<string, number>,
  max: number,
): Array<Array<Figures | undefined>> {
  const used = hosts.map((h) => ({
    cpus: h.capacity.cpus - h.free.cpus,
    memoryMi: h.capacity.memoryMi - h.free.memoryMi,
  }));
  let ways: Array<Array<Figures | undefined>> = [[]];
  for (const vm of vms) {
    if (!vm.frees || (vm.frees.figures.cpus === 0 && vm.frees.figures.memoryMi === 0)) continue;
    const { figures } = vm.frees;
    const candidates = vm.frees.hosts.map((n) => index.get(n)).filter((i): i is number => i !== undefined);
    const next: Array<Array<Figures | undefined>> = [];
    for (const way of ways)
      for (const i of candidates) {
        const credited = {
          cpus: (way[i]?.cpus ?? 0) + figures.cpus,
          memoryMi: (way[i]?.memoryMi ?? 0) + figures.memoryMi,
        };
        if (!fitsIn(credited, used[i])) continue;
        const copy = [...way];
        copy[i] = credited;
        next.push(copy);
      }
    if (next.length === 0 || next.length > max) return [[]];
    ways = next;
  }
  return ways;
}

/** Whether `vms` can be placed on hosts with `free` room: exactly for small groups, else first-fit decreasing. */
function packs(
  free: Figures[],
  vms: readonly PlanVm[],
  index: Map<string, number>,
  limits: PlacementLimits,
): { fits: boolean; heuristic: boolean } {
  const items = vms.map((vm) => ({
    demand: vm.demand,
    allowed: vm.hosts.map((n) => index.get(n)).filter((i): i is number => i !== undefined),
  }));
  for (const group of groupsSharingHosts(items, free.length)) {
    // Largest first, and the most constrained first among equals: failures show early.
    group.sort(
      (a, b) =>
        b.demand.cpus - a.demand.cpus || b.demand.memoryMi - a.demand.memoryMi || a.allowed.length - b.allowed.length,
    );
    // An assignment first-fit decreasing finds is a proof; only its failures need the search.
    if (firstFitDecreasing(group, free)) continue;
    const exact = group.length <= limits.maxExact ? searchAssignment(group, free, limits.maxNodes) : undefined;
    if (exact === undefined) return { fits: false, heuristic: true };
    if (!exact) return { fits: false, heuristic: false };
  }
  return { fits: true, heuristic: false };
}

interface Item {
  demand: Figures;
  allowed: number[];
}

/** The VMs in groups that share no host (a union-find over hosts). */
function groupsSharingHosts(items: Item[], hostCount: number): Item[][] {
  const parent = Array.from({ length: hostCount }, (_, i) => i);
  const root = (i: number): number => (parent[i] === i ? i : (parent[i] = root(parent[i])));
  for (const it of items) for (const h of it.allowed.slice(1)) parent[root(h)] = root(it.allowed[0]);
  const groups = new Map<number, Item[]>();
  for (const it of items) {
    // A VM with no host in its scope cannot be placed: its own group, which fails.
    const key = it.allowed.length === 0 ? -1 - groups.size : root(it.allowed[0]);
    groups.set(key, [...(groups.get(key) ?? []), it]);
  }
  return [...groups.values()];
}

/** A depth-first search for an assignment: true or false, or undefined past `maxNodes` steps. */
function searchAssignment(items: Item[], start: Figures[], maxNodes: number): boolean | undefined {
  const free = start.map((f) => ({ ...f }));
  // Hosts that the same VMs may use and that have the same room left are interchangeable.
  const usedBy = free.map((_, h) => items.flatMap((it, i) => (it.allowed.includes(h) ? [i] : [])).join(","));
  let nodes = 0;
  const place = (i: number): boolean => {
    if (i === items.length) return true;
    if (++nodes > maxNodes) throw new SearchBudgetSpent();
    const tried = new Set<string>();
    for (const h of items[i].allowed) {
      if (!fitsIn(items[i].demand, free[h])) continue;
      const kind = `${usedBy[h]}|${free[h].cpus}|${free[h].memoryMi}`;
      if (tried.has(kind)) continue;
      tried.add(kind);
      free[h].cpus -= items[i].demand.cpus;
      free[h].memoryMi -= items[i].demand.memoryMi;
      const done = place(i + 1);
      free[h].cpus += items[i].demand.cpus;
      free[h].memoryMi += items[i].demand.memoryMi;
      if (done) return true;
    }
    return false;
  };
  try {
    return place(0);
  } catch (err) {
    if (err instanceof SearchBudgetSpent) return undefined;
    throw err;
  }
}

class SearchBudgetSpent extends Error {}

/** Each VM, largest first (`items` is sorted), on the first host of its scope with room. */
function firstFitDecreasing(items: Item[], start: Figures[]): boolean {
  const free = start.map((f) => ({ ...f }));
  for (const it of items) {
    const h = it.allowed.find((i) => fitsIn(it.demand, free[i]));
    if (h === undefined) return false;
    free[h].cpus -= it.demand.cpus;
    free[h].memoryMi -= it.demand.memoryMi;
  }
  return true;
}
