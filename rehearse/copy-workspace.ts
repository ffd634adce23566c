import {
  WorkspaceClient,
  formatMemoryMi,
  parseMemoryMi,
  readWorkspace,
  type FleetHosts,
  type WorkloadType,
} from "../sdk";
import type { FleetConfig } from "../server/fleet";
import type { SeedSnapshot } from "../server/seed";

/** The real workspace's connection, as the stack's config gives it. */
export interface RealConnection {
  baseUrl: string;
  workspace: string;
  apiKey: string;
}

/** What the copy could not hold, each with why: listed in the report, never dropped silently. */
export interface NotCopied {
  what: string;
  why: string;
}

/** The copy of a live workspace: a seed for the local service, its fleet, and what it leaves out. */
export interface WorkspaceCopy {
  seed: SeedSnapshot;
  fleet: FleetConfig;
  workloads: number;
  templates: number;
  notCopied: NotCopied[];
}

/** `free` figures above zero; the copy's "held" record per host is capacity minus free. */
function heldOn(host: FleetHosts["regions"][number]["hosts"][number]): { cpus: number; memory: string } | undefined {
  const capMi = parseMemoryMi(host.capacity.memory);
  const freeMi = parseMemoryMi(host.free.memory);
  if (capMi === undefined || freeMi === undefined) return undefined;
  const cpus = Math.max(0, host.capacity.cpus - host.free.cpus);
  const memory = Math.max(0, capMi - freeMi);
  return cpus === 0 && memory === 0 ? undefined : { cpus, memory: formatMemoryMi(memory) };
}

/**
 * Reads the real workspace with read-only calls and the stack's key (the tenant spec, each
 * workload's status, the templates, the fleet, the secrets list), and turns it into a seed.
 * The copy's VMs take no room of their own: which host each runs on is not readable, so what is
 * free now comes from the fleet's `free` figures, held on each host as "others'".
 */
export async function copyWorkspace(real: RealConnection): Promise<WorkspaceCopy> {
  const live = await readWorkspace(real);
  const client = new WorkspaceClient(real);
  let fleet: FleetHosts;
  let secrets: Array<{ path: string }> = [];
  const notCopied: NotCopied[] = [];
  try {
    fleet = await client.getFleetHosts();
    secrets = await client.listSecrets().catch(() => {
      notCopied.push({ what: "the secrets list", why: "the service does not answer GET /secrets" });
      return [];
    });
  } finally {
    await client.close();
  }
  for (const s of live.skipped) notCopied.push({ what: `workload ${s.id}`, why: `${s.why} on the real service` });
  if (secrets.length > 0)
    notCopied.push({
      what: `${secrets.length} stored credentials (${secrets.map((s) => s.path).join(", ")})`,
      why: "write-only: their values cannot be read. The copy holds none; it accepts whatever password the program sends, so a password the real service would refuse is not caught",
    });
  notCopied.push({
    what: "the host each VM runs on",
    why: "not readable: the copy's free room per host is the real fleet's free figures now, and a VM the change deletes or shrinks frees no room in the copy",
  });
  const held = fleet.regions.flatMap((r) =>
    r.hosts.flatMap((h) => (heldOn(h) ? [{ host: h.name, ...heldOn(h)! }] : [])),
  );
  const seed: SeedSnapshot = {
    version: 1,
    workspaces: {
      [real.workspace]: {
        workloads: live.workloads.map((w) => ({
          id: w.id,
          type: w.type as WorkloadType,
          spec: w.spec,
          phase: w.status?.phase,
        })),
        templates: live.templates.map((t) => ({
          id: t.id,
          name: t.name,
          description: t.description,
          kind: t.kind as WorkloadType,
          config: t.config,
          createdAt: t.createdAt,
        })),
      },
    },
    held,
  };
  const fleetConfig: FleetConfig = {
    regions: fleet.regions.map((r) => ({
      name: r.name,
      hosts: r.hosts.map((h) => ({ name: h.name, capacity: { cpus: h.capacity.cpus, memory: h.capacity.memory } })),
    })),
  };
  return { seed, fleet: fleetConfig, workloads: live.workloads.length, templates: live.templates.length, notCopied };
}
