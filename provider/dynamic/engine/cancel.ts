import { watchEngineRpcs } from "./rpc";

/** The engine's cancellation, as the provider protocol sends it. */
const CANCEL_PATH = "/pulumirpc.ResourceProvider/Cancel";

/**
 * Calls `onCancel` once when the engine sends this process the `Cancel` RPC.
 *
 * Why this way: on the first Ctrl-C the engine stops starting steps, sends every provider `Cancel`
 * and waits for the steps in flight (pkg/resource/deploy/deployment_executor.go, `Execute`: the
 * host's `SignalCancellation`). That RPC is the only signal a provider gets: plugins run in a
 * process group of their own (the terminal's SIGINT never reaches them) and each call's context
 * ends only with the deployment. The dynamic provider host of `@pulumi/pulumi` answers `Cancel`
 * with nothing and has no way to pass it on, so our waits went on until they ended by themselves.
 * The RPC's path is seen beside gRPC's handler (`engine/rpc.ts`).
 *
 * Returns false when no such server is found (not in the host): nothing is watched then.
 */
export function watchCancelRpc(onCancel: () => void): boolean {
  let fired = false;
  return watchEngineRpcs((path) => {
    if (fired || path !== CANCEL_PATH) return;
    fired = true;
    onCancel();
  });
}
