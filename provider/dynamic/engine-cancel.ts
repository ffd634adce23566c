import * as net from "node:net";

/** The engine's cancellation, as the provider protocol sends it. */
const CANCEL_PATH = "/pulumirpc.ResourceProvider/Cancel";

type StreamListener = (stream: unknown, headers: Record<string, unknown>) => void;

/**
 * Calls `onCancel` once when the engine sends this process the `Cancel` RPC.
 *
 * Why this way: on the first Ctrl-C the engine stops starting steps, sends every provider `Cancel`
 * and waits for the steps in flight (pkg/resource/deploy/deployment_executor.go, `Execute`: the
 * host's `SignalCancellation`). That RPC is the only signal a provider gets: plugins run in a
 * process group of their own (the terminal's SIGINT never reaches them) and each call's context
 * ends only with the deployment. The dynamic provider host of `@pulumi/pulumi` answers `Cancel`
 * with nothing and has no way to pass it on, so our waits went on until they ended by themselves.
 * The host's gRPC server is an HTTP/2 server of this process: a listener of its own on that
 * server's `stream` event sees each RPC's path, the Cancel one included, beside gRPC's handler.
 *
 * Returns false when no such server is found (not in the host): nothing is watched then.
 */
export function watchCancelRpc(onCancel: () => void): boolean {
  const handles = (process as unknown as { _getActiveHandles?: () => unknown[] })._getActiveHandles?.() ?? [];
  const servers = handles.filter(
    (h): h is net.Server & { on(event: "stream", l: StreamListener): void } =>
      h instanceof net.Server && h.listenerCount("stream") > 0,
  );
  let fired = false;
  for (const server of servers) {
    server.on("stream", (_stream, headers) => {
      if (fired || headers[":path"] !== CANCEL_PATH) return;
      fired = true;
      onCancel();
    });
  }
  return servers.length > 0;
}
