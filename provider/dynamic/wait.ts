import { waitForWorkload, type Since, type WorkloadStatus, type WorkspaceClient } from "../../sdk";
import type { ProviderContext } from "./context";
import { describeWorkload, optionsOf, workloadIdOf, type Props } from "./props";

/**
 * Waits for the workload of `props` to be ready (or gone), telling the user what is awaited and
 * each phase change. The timeout is the resource's `readyTimeoutSeconds`: the dynamic provider
 * host does not pass `customTimeouts` on.
 */
export async function awaitWorkload(
  ctx: ProviderContext,
  client: WorkspaceClient,
  props: Props,
  until: "ready" | "gone",
  since?: Since,
): Promise<WorkloadStatus | undefined> {
  const options = optionsOf(props);
  const adminReady = until === "ready" && options.waitForAdminConsole;
  const goal = until === "gone" ? "to be deleted" : adminReady ? "to be ready with its admin console" : "to be ready";
  const handle = ctx.progress.begin(`${describeWorkload(props)} in workspace ${client.workspace}`, goal, options.readyTimeoutMs);
  try {
    return await waitForWorkload(client, workloadIdOf(props), {
      ...ctx.waitTiming,
      until,
      adminReady,
      timeoutMs: options.readyTimeoutMs,
      since,
      onProgress: (p) => handle.report(p),
    });
  } finally {
    handle.end();
  }
}
