import { describeWaitGoal, waitForWorkload, type Since, type WorkloadStatus, type WorkspaceClient } from "../../../sdk";
import type { DeleteUrns } from "../engine/deletes";
import type { ProgressReporter } from "../engine/progress";
import type { WaitSettings } from "../service/wait-env";
import { formatId } from "../inputs/ids";
import type { Operation } from "../operation";
import { describeWorkload, type WorkloadModel } from "./model";

/** What a workload's wait takes of the provider's context: the rows, the deletes' URNs, the waiter's settings. */
export interface WaitAccess {
  readonly progress: ProgressReporter;
  readonly deleteUrns: DeleteUrns;
  readonly waitTiming?: WaitSettings;
}

/**
 * Waits for the workload of `m` to be ready (or gone), telling the user what is awaited and
 * each phase change, until the deadline of the operation `op` it is part of: the time its calls
 * took is the wait's less (`readyTimeoutSeconds`, the `customTimeouts` the resource class carried
 * into the inputs: the dynamic provider host does not pass them on).
 */
export async function awaitWorkload(
  ctx: WaitAccess,
  client: WorkspaceClient,
  m: WorkloadModel,
  until: "ready" | "gone",
  op: Operation,
  since?: Since,
): Promise<WorkloadStatus | undefined> {
  const adminReady = until === "ready" && m.options.waitForAdminConsole;
  const handle = ctx.progress.begin(
    `${describeWorkload(m.identity)} in workspace ${client.workspace}`,
    describeWaitGoal(until, adminReady),
    // The row shows the operation's whole budget; the wait has what its calls left of it.
    op.timeoutMs,
    op.urn ?? ctx.deleteUrns.urnOf(formatId(client.workspace, m.identity.workloadId)),
  );
  let reached = false;
  try {
    const status = await waitForWorkload(client, m.identity.workloadId, {
      ...ctx.waitTiming,
      until,
      adminReady,
      // Until the operation's deadline; its error names the operation's whole budget.
      timeoutMs: op.timeoutMs,
      deadline: op.deadline,
      since,
      signal: op.call.signal,
      onProgress: (p) => handle.report(p),
    });
    reached = true;
    return status;
  } finally {
    await handle.end(reached);
  }
}
