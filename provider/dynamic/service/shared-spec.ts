import type { CallOptions, TenantSpec, WorkspaceClient } from "../../../sdk";

const inFlight = new WeakMap<WorkspaceClient, Promise<TenantSpec>>();

/**
 * The workspace's spec (`GET …/spec`: every workload of the workspace) for a read that needs one
 * entry of it: reads that start while one is in flight share its answer. `pulumi refresh` reads
 * every resource at once, and a workspace of a 2,000-pod fleet made each of a stack's 250 reads
 * fetch and parse all 2,000 entries.
 */
export function sharedSpec(client: WorkspaceClient, call: CallOptions): Promise<TenantSpec> {
  const pending = inFlight.get(client);
  if (pending) return pending;
  const fetched = client.getSpec(call).finally(() => {
    if (inFlight.get(client) === fetched) inFlight.delete(client);
  });
  inFlight.set(client, fetched);
  return fetched;
}
