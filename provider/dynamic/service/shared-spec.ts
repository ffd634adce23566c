import type { CallOptions, TenantSpec, WorkspaceClient } from "../../../sdk";

interface Read {
  spec: Promise<TenantSpec>;
  /** When the read began (epoch ms): the answer is at least this fresh. */
  startedAt: number;
  settled: boolean;
}

const latest = new WeakMap<WorkspaceClient, Read>();
/** Reads begun before this are not served again (`forgetSpecs`). */
let forgottenAt = -Infinity;

/**
 * The workspace's spec (`GET …/spec`: every workload of the workspace) for a read that needs one
 * entry of it: reads that start while one is in flight share its answer. `pulumi refresh` reads
 * every resource at once, and a workspace of a 2,000-pod fleet made each of a stack's 250 reads
 * fetch and parse all 2,000 entries.
 *
 * With `maxAgeMs`, an answer that began at most that long ago serves too: the checks and creates
 * of one deployment share one read of which ids the workspace holds, instead of a round trip per
 * resource (the engine calls `check` one resource at a time, so far from the service those
 * round trips add up in series).
 */
export function sharedSpec(
  client: WorkspaceClient,
  call: CallOptions,
  options: { maxAgeMs?: number; now?: () => number } = {},
): Promise<TenantSpec> {
  const now = options.now ?? Date.now;
  const last = latest.get(client);
  const fresh = last !== undefined && last.startedAt > forgottenAt;
  if (fresh && (!last.settled || now() - last.startedAt <= (options.maxAgeMs ?? -1))) return last.spec;
  const read: Read = { spec: client.getSpec(call), startedAt: now(), settled: false };
  latest.set(client, read);
  read.spec.then(
    () => void (read.settled = true),
    // A failure is not kept: the next read asks again.
    () => void (latest.get(client) === read && latest.delete(client)),
  );
  return read.spec;
}

/** Keeps a spec read elsewhere (the connection check's), begun at `startedAt`, for `sharedSpec`'s later readers. */
export function keepSpec(client: WorkspaceClient, spec: TenantSpec, startedAt: number): void {
  const last = latest.get(client);
  if (last && last.startedAt >= startedAt) return;
  latest.set(client, { spec: Promise.resolve(spec), startedAt, settled: true });
}

/**
 * Serves no read begun until now again: what a new deployment's provider process starts with. The
 * watch calls it before each comparison (`WatchSeam.freshReads`), whose process outlives many
 * deployments; so do tests whose one process plays several deployments.
 */
export function forgetSpecs(now: () => number = Date.now): void {
  forgottenAt = now();
}
