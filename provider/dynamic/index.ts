/**
 * The implementation behind every resource of `pulumi-wws`, loaded by name in the dynamic
 * provider process: the provider serialized into each resource's state is a stub that does
 * `require("pulumi-wws/provider/dynamic").workload.<method>(…)` (see `provider/hosted-resource.ts`). Keep the
 * names `workload` and `template` and their methods stable: every stack's state refers to them.
 */
// First: the modules below load through the compile cache (engine/compile-cache.ts).
import "./engine/compile-cache";
import { createRequire } from "node:module";
import { createContext } from "./context";
import { DeleteUrns } from "./engine/deletes";
import { connectHost, missingHooksWarning } from "./engine/host";
import { echoOnce } from "./engine/thrown-once";
import { sayBeforeClosing } from "./engine/closing";
import { isDynamicProviderHost, watchEngine } from "./engine/watchdog";
import { createTemplateProvider } from "./templates/provider";
import { waitTimingFromEnv } from "./service/wait-env";
import { createWorkloadProvider } from "./workloads/provider";

// Only in the host the engine started: a program or a test that imports this module is left alone.
const inHost = isDynamicProviderHost();
const engineAddress = process.argv[2];

const deleteUrns = new DeleteUrns();
/** What the host does not hand a provider, found through its internals (engine/host.ts). */
const host = inHost
  ? connectHost({
      engineAddress,
      // The first Ctrl-C: every wait and call ends now, each accepted workload kept with init errors.
      onCancel: () => context.cancel(),
      deleteUrns,
      // Fault injection for the host contract test: hooks taken as missing, to see the warning.
      disabled: process.env.WWS_TEST_DISABLE_HOST_HOOKS?.split(","),
    })
  : undefined;

/** One context per provider process: stack config from `configure`, clients, progress on the engine's log. */
const context = createContext({
  waitTiming: waitTimingFromEnv(process.env),
  progress: { engine: host?.log },
  deleteUrns,
  replaceTargets: host?.replaceTargets,
  recordedConfigCommand: host?.recordedConfigCommand,
});

/** Past this, the exit closes whatever the clients did not close themselves. */
const SHUTDOWN_GRACE_MS = 500;

if (host) {
  // What is said once every resource was checked (missing records), said before the engine closes the process.
  sayBeforeClosing(() => context.missingRecords.flush());
  const warning = missingHooksWarning(host.hooks, { pulumi: pulumiVersion(), node: process.versions.node });
  if (warning) context.progress.note(`warning: ${warning}`);
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

/** The version of the `@pulumi/pulumi` the host runs (the program's), for messages. */
function pulumiVersion(): string {
  try {
    return (createRequire(__filename)("@pulumi/pulumi/package.json") as { version: string }).version;
  } catch {
    return "of unknown version";
  }
}

export const workload = echoOnce(createWorkloadProvider(context));
export const template = echoOnce(createTemplateProvider(context));
