import { watchCancelRpc } from "./cancel";
import type { DeleteUrns } from "./deletes";
import { connectEngineLog, type EngineLog } from "./log";
import { engineArgv, replaceTargetsOf } from "./replace-targets";
import { dropHostEchoes } from "./thrown-once";
import type { RecordedConfigCommand } from "../service/recorded-settings";

/**
 * The hooks through which the provider learns from the dynamic provider host what its interface
 * (check, diff, create, read, update, delete, configure) does not hand a provider, each through the
 * host's internals. Each hook says whether it is in place: a release of `@pulumi/pulumi` or Node that
 * changes one takes away what it gives, and the user is told so once (`missingHooksWarning`), on
 * the Stack row, never failing the deployment for it. `test/package/host-contract.test.ts` checks
 * each by its effect at both ends of the peer range, on Node 22 and the newest Node. Not a hook,
 * and so not here: the watchdog (engine/watchdog.ts, started by dynamic/index.ts beside these),
 * which reads only the process tree and the engine's address, whatever the host's internals.
 */
export type HostHook = "statusRows" | "cancel" | "deleteUrns" | "replaceFlags";

/** What a user loses without each hook, and how the hook finds its way in. */
export const HOST_HOOKS: Readonly<Record<HostHook, { loses: string; how: string }>> = Object.freeze({
  statusRows: {
    loses: "waits show no status on their resources' rows (they are written as plain lines)",
    how: "the engine's Log RPC through @pulumi/pulumi's generated engine stubs (engine/log.ts)",
  },
  cancel: {
    loses: "Ctrl-C will not stop waits: a cancelled run waits for each workload to be ready or time out",
    how: "the Cancel RPC seen on the host's gRPC server (engine/cancel.ts, engine/rpc.ts)",
  },
  deleteUrns: {
    loses: "a delete's wait shows on the Stack row instead of its resource's",
    how: "the Delete RPC's URN read from the host's gRPC server (engine/deletes.ts)",
  },
  replaceFlags: {
    loses: "`pulumi up --replace` of a workload is refused at preview, as a taint is (replaceOnChanges still works)",
    how: "the `pulumi` process's command line (/proc/<pid>/cmdline, engine/replace-targets.ts)",
  },
});

interface HostConnection {
  /** The engine's log, when the status-rows hook is in place. */
  log: EngineLog | undefined;
  /** What the running command asks to replace (`--replace`, `--target-replace`), as it names them. */
  replaceTargets: string[];
  /** `destroy` or `refresh` when the running command is one that configures the provider with the recorded config. */
  recordedConfigCommand: RecordedConfigCommand | undefined;
  /** Each hook and whether it is in place. */
  hooks: Readonly<Record<HostHook, boolean>>;
}

interface HostOptions {
  /** `host:port` of the engine, the host's first argument. */
  engineAddress: string | undefined;
  onCancel(): void;
  deleteUrns: DeleteUrns;
  /** Hooks taken as missing whatever they find: a contract test's way to see the warning. */
  disabled?: readonly string[];
}

/** Puts every hook in place that can be, in the host's process. */
export function connectHost(options: HostOptions): HostConnection {
  const off = new Set(options.disabled ?? []);
  const log = off.has("statusRows") || !options.engineAddress ? undefined : connectEngineLog(options.engineAddress);
  const argv = off.has("replaceFlags") ? [] : engineArgv();
  // A refusal is said on its resource's row and under Diagnostics, not again with a stack trace.
  dropHostEchoes();
  const hooks = {
    statusRows: log !== undefined,
    cancel: !off.has("cancel") && watchCancelRpc(options.onCancel),
    deleteUrns: !off.has("deleteUrns") && options.deleteUrns.watch(),
    replaceFlags: argv.length > 0,
  };
  return {
    log,
    replaceTargets: replaceTargetsOf(argv),
    recordedConfigCommand: recordedConfigCommandOf(argv),
    hooks: Object.freeze(hooks),
  };
}

const DEPLOYMENT_COMMANDS = ["up", "update", "preview", "refresh", "destroy", "import", "watch"];

/**
 * `destroy` or `refresh` when `argv` (the `pulumi` process's) runs one without the program: the
 * engine then configures the provider with the stack config recorded at the last `up`.
 */
export function recordedConfigCommandOf(argv: readonly string[]): RecordedConfigCommand | undefined {
  // The first word that is a deployment command (a global flag's value, such as `--cwd dir`, may come before it).
  const command = argv.slice(1).find((a) => DEPLOYMENT_COMMANDS.includes(a));
  if (argv.includes("--run-program") || argv.includes("--run-program=true")) return undefined;
  return command === "destroy" || command === "refresh" ? command : undefined;
}

/** The Stack row's warning for the hooks not in place, naming the versions and what each costs; undefined when all are. */
export function missingHooksWarning(
  hooks: Readonly<Record<HostHook, boolean>>,
  versions: { pulumi: string; node: string },
): string | undefined {
  const missing = (Object.keys(HOST_HOOKS) as HostHook[]).filter((h) => !hooks[h]);
  if (missing.length === 0) return undefined;
  const costs = missing.map((h) => `${HOST_HOOKS[h].loses} (not found: ${HOST_HOOKS[h].how})`);
  return (
    `pulumi-wws could not hook into this dynamic provider host (@pulumi/pulumi ${versions.pulumi}, Node ${versions.node}), ` +
    `so ${costs.join("; ")}. The deployment itself is not affected. ` +
    `Report it with these versions; pulumi-wws is tested on the oldest and newest @pulumi/pulumi of its peer range.`
  );
}
