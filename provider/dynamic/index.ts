/**
 * The implementation behind every resource of `pulumi-wws`, loaded by name in the dynamic
 * provider process: the provider serialized into each resource's state is a stub that does
 * `require("pulumi-wws/provider/dynamic").workload.<method>(…)` (see `provider/hosted-resource.ts`). Keep the
 * names `workload` and `template` and their methods stable: every stack's state refers to them.
 */
import { createContext } from "./context";
import { watchCancelRpc } from "./engine/cancel";
import { connectEngineLog } from "./engine/log";
import { isDynamicProviderHost, watchEngine } from "./engine/watchdog";
import { createTemplateProvider } from "./templates/provider";
import { waitTimingFromEnv } from "./service/wait-env";
import { createWorkloadProvider } from "./workloads/provider";

// Only in the host the engine started: a program or a test that imports this module is left alone.
const inHost = isDynamicProviderHost();
const engineAddress = process.argv[2];

/** One context per provider process: stack config from `configure`, clients, progress on the engine's log. */
const context = createContext({
  waitTiming: waitTimingFromEnv(process.env),
  progress: { engine: inHost && engineAddress ? connectEngineLog(engineAddress) : undefined },
});

/** Past this, the exit closes whatever the clients did not close themselves. */
const SHUTDOWN_GRACE_MS = 500;

if (inHost) {
  // The first Ctrl-C: every wait and call ends now, each accepted workload kept with init errors.
  watchCancelRpc(() => context.cancel());
  context.deleteUrns.watch();
  watchEngine({
    engineAddress,
    onGone: (why) => {
      // Nobody reads this output any more; written for a process list's or a core dump's reader.
      process.stderr.once("error", () => undefined);
      try {
        process.stderr.write(`wws: ${why}; stopping waits and event streams and exiting\n`);
      } catch {
        // the pipe is closed
      }
      const exit = (): never => process.exit(1);
      setTimeout(exit, SHUTDOWN_GRACE_MS);
      void context.close().then(exit, exit);
    },
  });
}

export const workload = createWorkloadProvider(context);
export const template = createTemplateProvider(context);
