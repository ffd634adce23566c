import type { WorkloadRecord } from "../state/types";

const STORAGE_PORTS: Record<string, number> = { postgres: 5432, redis: 6380 };

/**
 * The endpoint of a workload, derived from its spec: exposed storage at
 * `<id>.<workspace>.<domain>:5432|6380`; a pod with ports at the same host name and its first port.
 */
function endpointOf(w: WorkloadRecord, workspace: string, domain: string): string | undefined {
  const host = `${w.id}.${workspace}.${domain}`;
  if (w.type === "storage") {
    const network = w.spec.network as { exposed?: boolean } | undefined;
    return network?.exposed ? `${host}:${STORAGE_PORTS[w.spec.engine as string]}` : undefined;
  }
  if (w.type === "pod") {
    const ports = w.spec.ports as Array<{ port: number }> | undefined;
    return ports && ports.length > 0 ? `${host}:${ports[0].port}` : undefined;
  }
  return undefined;
}

function adminUrlOf(w: WorkloadRecord, workspace: string, domain: string): string | undefined {
  return w.type === "storage" && w.spec.adminConsole === true
    ? `https://${w.id}-admin-${workspace}.${domain}`
    : undefined;
}

/** The `/status` record. */
export function statusRecord(w: WorkloadRecord, workspace: string, domain: string): Record<string, unknown> {
  const endpoint = endpointOf(w, workspace, domain);
  const adminUrl = adminUrlOf(w, workspace, domain);
  return {
    id: w.id,
    type: w.type,
    phase: w.phase,
    ...(w.message !== undefined ? { message: w.message } : {}),
    updatedAt: w.updatedAt,
    generation: w.generation,
    observedGeneration: w.observedGeneration,
    restartCount: w.restartCount,
    ...(endpoint !== undefined ? { endpoint } : {}),
    ...(adminUrl !== undefined ? { adminUrl, adminReady: w.adminReady === true } : {}),
  };
}
