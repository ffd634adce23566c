import type * as pulumi from "@pulumi/pulumi";
import type { WorkloadStatus, WorkloadType, WorkspaceClient } from "../../sdk";
import type { ConnectionArgs } from "../resources/inputs";
import { formerlyOutput, readOutput, readPromise, type DeclaredFields, type PlainConnectionArgs } from "./call";
import { shownSpec } from "./shown";

/** A workload as the service holds it: its desired spec (`GET /spec`) and its `/status`, read now. */
export interface WorkloadInfo {
  workloadId: string;
  type: WorkloadType;
  /** The spec fields the service holds (never a password: the service keeps none it would show). */
  spec: Record<string, unknown>;
  status: DeclaredFields<WorkloadStatus>;
}

export interface GetWorkloadArgs extends PlainConnectionArgs {
  /** The workload id in its workspace. */
  workloadId: string;
}

export interface GetWorkloadOutputArgs extends ConnectionArgs {
  /** The workload id in its workspace. */
  workloadId: pulumi.Input<string>;
}

export interface ListWorkloadsArgs extends PlainConnectionArgs {
  /** Only workloads of this type (`pod`, `storage`, `browser`, `vm-ubuntu`, …). @default every type */
  kind?: WorkloadType;
}

export interface ListWorkloadsOutputArgs extends ConnectionArgs {
  /** Only workloads of this type (`pod`, `storage`, `browser`, `vm-ubuntu`, …). @default every type */
  kind?: pulumi.Input<WorkloadType>;
}

/** `getWorkloadStatus`'s arguments: as `getWorkload`'s. */
export type GetWorkloadStatusArgs = GetWorkloadArgs;
/** `getWorkloadStatusOutput`'s arguments: as `getWorkloadOutput`'s. */
export type GetWorkloadStatusOutputArgs = GetWorkloadOutputArgs;

/**
 * `/status` reads a lookup keeps in flight at once. The service offers no read of many statuses
 * (the spec names `/status` per workload only): a workspace of 3,000 workloads sent 3,001 requests
 * at once, more than the client's pool has connections (32) and a burst a rate limit answers with 429s.
 */
export const STATUS_READS_AT_ONCE = 16;

/** `f` of each item, at most `limit` at once, results in the items' order; the first failure rejects. */
export async function mapBounded<T, R>(items: readonly T[], limit: number, f: (item: T) => Promise<R>): Promise<R[]> {
  const results = new Array<R>(items.length);
  let next = 0;
  const worker = async (): Promise<void> => {
    while (next < items.length) {
      const i = next++;
      results[i] = await f(items[i]);
    }
  };
  await Promise.all(Array.from({ length: Math.min(limit, items.length) }, worker));
  return results;
}

async function workloadsOf(client: WorkspaceClient, only?: (w: { id: string; type: string }) => boolean) {
  const spec = await client.getSpec();
  const chosen = spec.workloads.filter((w) => !only || only(w));
  return mapBounded(chosen, STATUS_READS_AT_ONCE, async (w): Promise<WorkloadInfo> => ({
    workloadId: w.id,
    type: w.type as WorkloadType,
    spec: shownSpec(w.spec),
    status: await client.getStatus(w.id),
  }));
}

async function oneWorkload(client: WorkspaceClient, id: string): Promise<WorkloadInfo> {
  const [found] = await workloadsOf(client, (w) => w.id === id);
  if (!found) throw new Error(`getWorkload: workspace ${client.workspace} has no workload ${id}`);
  return found;
}

const ofKind = (client: WorkspaceClient, kind: WorkloadType | undefined): Promise<WorkloadInfo[]> =>
  workloadsOf(client, (w) => kind === undefined || w.type === kind);

const workloadStatus = (client: WorkspaceClient, id: string): Promise<WorkloadStatus> => client.getStatus(id);

/** The spec and status of the workload `workloadId`; fails naming the workspace and the id when there is none. */
export function getWorkload(args: GetWorkloadArgs): Promise<WorkloadInfo> {
  return readPromise("getWorkload", args, args.workloadId, oneWorkload, "workloadId");
}

/** `getWorkload` as an `Output`: its arguments may be outputs of other resources. */
export function getWorkloadOutput(args: GetWorkloadOutputArgs): pulumi.Output<WorkloadInfo> {
  return readOutput("getWorkload", args, args.workloadId, oneWorkload);
}

/** Every workload of the workspace (of one type with `kind`), with spec and status, in the service's order. */
export function listWorkloads(args: ListWorkloadsArgs = {}): Promise<WorkloadInfo[]> {
  return readPromise("listWorkloads", args, args.kind, ofKind, "kind");
}

/** `listWorkloads` as an `Output`: its arguments may be outputs of other resources. */
export function listWorkloadsOutput(args: ListWorkloadsOutputArgs = {}): pulumi.Output<WorkloadInfo[]> {
  return readOutput("listWorkloads", args, args.kind, ofKind);
}

/**
 * The `/status` record of a workload (phase, message, endpoint, …), read now; fails if there is no
 * such workload.
 */
export function getWorkloadStatus(args: GetWorkloadStatusArgs): Promise<WorkloadStatus> {
  return formerlyOutput(
    "getWorkloadStatus",
    readPromise("getWorkloadStatus", args, args.workloadId, workloadStatus, "workloadId"),
  );
}

/** `getWorkloadStatus` as an `Output`: its arguments may be outputs of other resources. */
export function getWorkloadStatusOutput(
  args: GetWorkloadStatusOutputArgs,
): pulumi.Output<DeclaredFields<WorkloadStatus>> {
  return readOutput<pulumi.Input<string>, DeclaredFields<WorkloadStatus>>(
    "getWorkloadStatus",
    args,
    args.workloadId,
    workloadStatus,
  );
}
