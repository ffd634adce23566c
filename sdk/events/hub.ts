import { systemClock, type Clock } from "../clock";
import { workspaceConnection, type ConnectionSettings, type WorkspaceConnection } from "../connection";
import { resolveNetwork, type ResolvedNetwork } from "../http/network";
import { SDK_VERSION } from "../version";
import { EventStream, resolveStreamOptions, type StreamOptions } from "./stream";
import type { StreamListener, StreamState, Unsubscribe } from "./types";

/** What identifies a stream: one connection per `connection.key` (base URL, workspace, API key) per hub. */
export interface StreamConnectionSpec {
  /** The workspace's connection (`workspaceConnection`), or the three settings to make one. */
  connection: WorkspaceConnection | ConnectionSettings;
  /** Used by the first subscriber that opens the connection; later subscribers share it as it is. */
  options?: StreamOptions;
  userAgent?: string;
  /** Proxy, CA certificates or dispatcher (`resolveNetwork`). @default the environment's proxy, Node's CAs */
  network?: ResolvedNetwork;
  clock?: Clock;
  random?: () => number;
}

/** The part of a connection the hub drives; `EventStream` in production, a fake in tests. */
export interface HubStream {
  readonly currentState: StreamState;
  start(): void;
  close(): void;
}

/** A spec whose connection is made and network resolved. */
export type HubStreamSpec = StreamConnectionSpec & { connection: WorkspaceConnection; network: ResolvedNetwork };

type StreamFactory = (spec: HubStreamSpec, sink: Required<StreamListener>) => HubStream;

interface Entry {
  stream: HubStream;
  listeners: Set<StreamListener>;
}

const defaultFactory: StreamFactory = (spec, sink) =>
  new EventStream({
    baseUrl: spec.connection.baseUrl,
    workspace: spec.connection.workspace,
    apiKey: spec.connection.apiKey,
    userAgent: spec.userAgent ?? `pulumi-wws-sdk/${SDK_VERSION}`,
    network: spec.network,
    options: resolveStreamOptions(spec.options),
    clock: spec.clock ?? systemClock,
    random: spec.random ?? Math.random,
    sink,
  });

/** Runs a listener callback; one listener throwing must not starve the others or kill the stream. */
function safely(fn: () => void): void {
  try {
    fn();
  } catch {
    // The listener's own bug; the stream and the other listeners carry on.
  }
}

/**
 * Shares event streams: one connection per `WorkspaceConnection.key`, fanned out to
 * every listener, reference-counted and closed when the last listener leaves. A connection that
 * stopped for good (401/403) is forgotten, so the next subscriber tries afresh.
 */
export class EventHub {
  private readonly entries = new Map<string, Entry>();

  constructor(private readonly factory: StreamFactory = defaultFactory) {}

  /** Connections currently held. */
  get connectionCount(): number {
    return this.entries.size;
  }

  /**
   * Adds `listener` to the workspace's shared stream, opening it if needed. `listener.onState` is
   * called at once with the current state. Returns the function that removes the listener.
   */
  subscribe(spec: StreamConnectionSpec, listener: StreamListener): Unsubscribe {
    // Settings are checked here (an `InvalidOptionError` naming the setting); a made connection is taken as it is.
    const connection = workspaceConnection(spec.connection);
    const network = spec.network ?? resolveNetwork(connection.baseUrl);
    // Another proxy or CA is another connection.
    const key = network.id === "" ? connection.key : `${connection.key}\n${network.id}`;
    let entry = this.entries.get(key);
    let created = false;
    if (!entry) {
      const listeners = new Set<StreamListener>();
      const sink: Required<StreamListener> = {
        onEvent: (event) => listeners.forEach((l) => safely(() => l.onEvent?.(event))),
        onError: (error) => listeners.forEach((l) => safely(() => l.onError?.(error))),
        onState: (state) => {
          if (state === "closed" && this.entries.get(key) === entry) this.entries.delete(key);
          listeners.forEach((l) => safely(() => l.onState?.(state)));
        },
      };
      entry = { stream: this.factory({ ...spec, connection, network }, sink), listeners };
      this.entries.set(key, entry);
      created = true;
    }
    const held = entry;
    held.listeners.add(listener);
    safely(() => listener.onState?.(held.stream.currentState));
    if (created) held.stream.start();
    let done = false;
    return () => {
      if (done) return;
      done = true;
      held.listeners.delete(listener);
      if (held.listeners.size > 0) return;
      if (this.entries.get(key) === held) this.entries.delete(key);
      held.stream.close();
    };
  }
}

/** The process-wide hub every `WorkspaceClient` uses unless given another. */
export const eventHub = new EventHub();
