/**
 * The provider's side of the drift watch (`pulumi-wws watch`): "read this managed resource as the
 * provider reads it" and "how to reach its workspace", each with a context of its own, so that the
 * watch needs none of the provider's internals (its context, its providers, its spec cache).
 */
import { resolveNetwork, type WorkspaceClient, type WorkspaceConnection } from "../../sdk";

type ResolvedNetwork = ReturnType<typeof resolveNetwork>;
import { createContext, type ManagedContext } from "./context";
import {
  CONNECTION_SETTINGS,
  requireResolved,
  resolveConnection,
  type ConnectionSources,
  type StackConfig,
} from "./service/connection";
import { requireNetworkSettings } from "./service/network";
import { forgetSpecs } from "./service/shared-spec";
import { createTemplateProvider } from "./templates/provider";
import type { ProviderImpl } from "./types";
import { createWorkloadProvider } from "./workloads/provider";

export type WatchedKind = "workload" | "template";

/** How a watched resource's workspace is reached: one event stream per `key`. */
export interface WatchedConnection {
  /** The connection and network settings, as one identity (never the key itself in clear). */
  key: string;
  /**
   * The base URL, workspace and network settings, without the API key: every key of a workspace
   * reads the same events, so the watch holds one stream per place, whichever stacks and keys reach it.
   */
  place: string;
  workspace: string;
  connection: WorkspaceConnection;
  network: ResolvedNetwork;
  /** Where the API key came from, in words: `the stack config wws:apiKey`. */
  keySource: string;
  /** The client of this connection (activity rows). */
  client(): WorkspaceClient;
}

export interface WatchSeam {
  /** The provider's own read of `id` (as `pulumi refresh` reads it); `props` undefined: it is gone. */
  read(kind: WatchedKind, id: string, recorded: Record<string, unknown>): ReturnType<ProviderImpl["read"]>;
  /** The provider of `kind`, for `compareWorkload` (only its `read` is called). */
  provider(kind: WatchedKind): ProviderImpl;
  /** The workspace connection a recorded resource uses; throws naming the missing setting. */
  connectionOf(recorded: Record<string, unknown>, what: string): WatchedConnection;
  /** The reads from now on ask the service afresh (one comparison's reads share one spec read). */
  freshReads(): void;
  close(): Promise<void>;
}

export interface WatchSeamOptions {
  /** The stack's config, secrets decrypted (as `pulumi up` gets it). */
  config: StackConfig;
  env: Readonly<Record<string, string | undefined>>;
  /** Where the provider's progress lines go (retries of a read): never stdout, which carries findings. */
  onProgress: (line: string) => void;
}

/** A seam over one stack's config: its own provider context, closed with `close()`. */
export function openWatchSeam(options: WatchSeamOptions): WatchSeam {
  const sources: ConnectionSources = { config: options.config, env: options.env };
  // The seam's own context: its providers' reads and the activity rows' clients share its clients.
  const ctx: ManagedContext = createContext({
    ...sources,
    replaceTargets: [],
    progress: { write: options.onProgress },
  });
  const providers: Record<WatchedKind, ProviderImpl> = {
    workload: createWorkloadProvider(ctx),
    template: createTemplateProvider(ctx),
  };
  return {
    read: (kind, id, recorded) => providers[kind].read(id, recorded),
    provider: (kind) => providers[kind],
    connectionOf(recorded, what) {
      const resolved = resolveConnection(recorded, sources);
      const conn = requireResolved(resolved, what);
      const network = requireNetworkSettings(sources, what);
      const from = resolved.from.apiKey;
      const setting = CONNECTION_SETTINGS.apiKey;
      const keySource =
        from === "config"
          ? `the stack config ${setting.config}`
          : from === "env"
            ? `the environment variable ${setting.env}`
            : "the resource's apiKey";
      return {
        key: `${conn.connection.key}\n${network.key}`,
        place: `${conn.connection.baseUrl}\n${conn.workspace}\n${network.key}`,
        workspace: conn.workspace,
        connection: conn.connection,
        network: resolveNetwork(conn.baseUrl, network.options),
        keySource,
        client: () => ctx.client(conn),
      };
    },
    freshReads: () => forgetSpecs(),
    close: () => ctx.close(),
  };
}
