import {
  HttpError,
  ResponseValidationError,
  type CallOptions,
  type WorkloadStatus,
  type WorkspaceClient,
} from "../../../sdk";
import { sharedSpec } from "./shared-spec";

/**
 * How long a read of the workspace's spec proves an id free for the checks of a deployment (the
 * engine calls `check` one resource at a time: one round trip serves them all). A create reads its
 * id's own status just before sending: a workload someone else created meanwhile is never updated.
 */
const FREE_ID_PROOF_MAX_AGE_MS = 5 * 1000; // 5 s

/** Ids this process sent a create for, by client: taken, whatever a spec read before says. */
const sent = new WeakMap<WorkspaceClient, Set<string>>();

/** Records that a create of `id` is being sent: later proofs read its status, not an older spec. */
export function noteCreateSent(client: WorkspaceClient, id: string): void {
  let ids = sent.get(client);
  if (!ids) sent.set(client, (ids = new Set()));
  ids.add(id);
}

/**
 * The status of workload `id` when the workspace holds it, undefined when the id is free. The
 * proof of a free id is the workspace's spec (`GET …/spec`, which lists every workload but those
 * being deleted), read at most `FREE_ID_PROOF_MAX_AGE_MS` ago and shared, with the creates this
 * process sent since; only an id taken costs a status read, for what the refusal says (or to see
 * that a workload deleted meanwhile is gone). From a service that does not serve the spec (404,
 * 501, another shape), the id's own status is read; other failures are the read's to throw.
 */
export async function statusIfTaken(
  client: WorkspaceClient,
  id: string,
  call: CallOptions,
  now: () => number,
): Promise<WorkloadStatus | undefined> {
  const spec = await sharedSpec(client, call, { maxAgeMs: FREE_ID_PROOF_MAX_AGE_MS, now }).catch((err: unknown) => {
    // A service that does not serve the spec as the contract has it: ask for the id itself.
    if (
      (err instanceof HttpError && (err.status === 404 || err.status === 501)) ||
      err instanceof ResponseValidationError
    )
      return undefined;
    throw err;
  });
  if (spec && !spec.workloads.some((w) => w.id === id) && !sent.get(client)?.has(id)) return undefined;
  return client.findStatus(id, call);
}
