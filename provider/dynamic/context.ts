import { WorkspaceClient, type ClientOptions } from "../../sdk";
import type { Connection, ConnectionSources, StackConfig } from "./service/connection";
import { Declarations } from "./ownership/declarations";
import { DeleteUrns } from "./engine/deletes";
import { replaceTargets, type ReplaceTargets } from "./engine/replace-targets";
import { Preflight } from "./service/preflight";
import { CapacityPlan } from "./service/capacity";
import { ProgressReporter, type ProgressOptions } from "./engine/progress";
import type { WaitSettings } from "./service/wait-env";
import { requireNetworkSettings } from "./service/network";
import { KeyNotes, type RecordedConfigCommand } from "./service/recorded-settings";
import { MissingRecords } from "./service/missing-records";

/** What the provider implementations need from their process; tests build their own. */
export interface ProviderContext {
  /** Stack config (from `configure`) and environment, for connection settings. */
  sources(): ConnectionSources;
  /**
   * The client of a connection, shared by every resource of the process that uses the same one
   * (same `key`) and the same network settings (proxy, CA certificates: stack config, environment).
   */
  client(connection: Connection): WorkspaceClient;
  progress: ProgressReporter;
  /** Which resource of this deployment declares each workload (filled by `check`). */
  declarations: Declarations;
  /** The URN of each resource the engine deletes, by id (a delete has no `check`). */
  deleteUrns: DeleteUrns;
  /** The resources the running command asks to replace (`--replace`, `--target-replace`). */
  replaceTargets: ReplaceTargets;
  /** Which key a destroy or a refresh uses, said once per key on the Stack row (service/recorded-settings.ts). */
  keyNotes: KeyNotes;
  /** What the stack records and its workspace no longer holds, said on the Stack row (service/missing-records.ts). */
  missingRecords: MissingRecords;
  /** The read-only checks of `check`, made once per connection (`key`). */
  preflight: Preflight;
  /** The CPUs and memory the deployment's new and grown VMs need, per placement scope. */
  capacity: CapacityPlan;
  now(): number;
  /** Aborted when the engine cancels the deployment (the first Ctrl-C): every wait and call ends. */
  cancelled: AbortSignal;
  /** Waiter settings: the environment's (`service/wait-env.ts`), timing overrides in tests. */
  waitTiming?: WaitSettings;
}

interface ContextOptions {
  /** @default process.env, read at each call */
  env?: Readonly<Record<string, string | undefined>>;
  config?: StackConfig;
  /** Client options other than the connection (timeouts, retry). */
  client?: Omit<ClientOptions, "baseUrl" | "workspace" | "apiKey">;
  progress?: ProgressOptions;
  /** Its `unreachableMs` bounds the clients' calls too (`retry.unreachableGiveUpMs`). */
  waitTiming?: WaitSettings;
  now?: () => number;
  /** The URNs of the Delete RPCs, when the host adapter reads them. @default none found */
  deleteUrns?: DeleteUrns;
  /** URNs or globs, as `--replace` takes them: in the host, what the adapter read from the `pulumi` command line (engine/host.ts). @default none */
  replaceTargets?: readonly string[];
  /** `destroy` or `refresh` when the running command is one that uses the recorded config, from the host adapter. */
  recordedConfigCommand?: RecordedConfigCommand;
}

export interface ManagedContext extends ProviderContext {
  /** Called by the provider's `configure` with the stack's configuration. */
  configure(config: StackConfig): void;
  /** Ends every wait and call of the process: the engine cancelled the deployment. */
  cancel(): void;
  /** Closes every client (tests; the provider process simply exits). */
  close(): Promise<void>;
}

export function createContext(options: ContextOptions = {}): ManagedContext {
  let config = options.config;
  /** By `WorkspaceConnection.key` and network settings: two keys are two identities, and the key itself is never in it. */
  const clients = new Map<string, WorkspaceClient>();
  const cancellation = new AbortController();
  const unreachableGiveUpMs = options.waitTiming?.unreachableMs ?? options.client?.retry?.unreachableGiveUpMs;
  const clientOptions = { ...options.client, retry: { ...options.client?.retry, unreachableGiveUpMs } };
  const progress = new ProgressReporter(options.progress);
  return {
    sources: () => ({ config, env: options.env ?? process.env }),
    client({ connection }) {
      const network = requireNetworkSettings(
        { config, env: options.env ?? process.env },
        "cannot reach the Workspace Workload Service",
      );
      const key = `${connection.key}\n${network.key}`;
      let client = clients.get(key);
      if (!client) {
        client = new WorkspaceClient(connection, { ...clientOptions, ...network.options });
        clients.set(key, client);
      }
      return client;
    },
    progress,
    declarations: new Declarations(),
    deleteUrns: options.deleteUrns ?? new DeleteUrns(),
    replaceTargets: replaceTargets(options.replaceTargets ?? []),
    keyNotes: new KeyNotes(options.recordedConfigCommand),
    missingRecords: new MissingRecords((text) => progress.delivered(text)),
    preflight: new Preflight(options.now ?? (() => Date.now()), cancellation.signal),
    capacity: new CapacityPlan(),
    now: options.now ?? (() => Date.now()),
    waitTiming: options.waitTiming,
    cancelled: cancellation.signal,
    configure(c) {
      config = c;
    },
    cancel() {
      cancellation.abort(new Error("the deployment was cancelled (Ctrl-C)"));
    },
    async close() {
      const all = [...clients.values()];
      clients.clear();
      await Promise.all(all.map((c) => c.close()));
    },
  };
}
