import { waitForWorkload, type Since, type WorkloadStatus, type WorkspaceClient } from "../../sdk";
import { describeWaitGoal } from "../../sdk/wait/goal";
import type { ProviderContext } from "./context";
import { describeWorkload, optionsOf, workloadIdOf, type Props } from "./props";
import type { TimeoutOperation } from "./timeouts";

/**
 * Waits for the workload of `props` to be ready (or gone), telling the user what is awaited and
 * each phase change. The timeout is that of `op` (`readyTimeoutSeconds`, the `customTimeouts` the
 * resource class carried into the inputs: the dynamic provider host does not pass them on).
 */
export async function awaitWorkload(
  ctx: ProviderContext,
  client: WorkspaceClient,
  props: Props,
  until: "ready" | "gone",
  op: TimeoutOperation,
  since?: Since,
): Promise<WorkloadStatus | undefined> {
  const options = optionsOf(props);
  const timeoutMs = options.timeoutMs[op];
  const adminReady = until === "ready" && options.waitForAdminConsole;
  const handle = ctx.progress.begin(`${describeWorkload(props)} in workspace ${client.workspace}`, describeWaitGoal(until, adminReady), timeoutMs);
  try {
    return await waitForWorkload(client, workloadIdOf(props), {
      ...ctx.waitTiming,
      until,
      adminReady,
      timeoutMs,
      since,
      onProgress: (p) => handle.report(p),
    });
  } finally {
    handle.end();
  }
}
