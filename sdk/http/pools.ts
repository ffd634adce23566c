import type { Dispatcher } from "undici";
import { envProxies, type ResolvedNetwork } from "./network";
import { Pool, envHttpProxyAgent } from "./undici";

/**
 * Keep-alive pools shared by every client and stream of one origin (and network settings) in this
 * process, reference-counted: the last release closes the pool.
 *
 * Requests and streams get separate pools: a stream holds its connection for hours, and in a pool
 * with a connection limit enough open streams would leave no connection for requests.
 *
 * Behind a proxy (the `proxy` option, or `HTTPS_PROXY`/`HTTP_PROXY` in the environment) the pool is
 * undici's `EnvHttpProxyAgent`: it honours `NO_PROXY` as other Node tools do and keeps one pool per
 * origin with the same limits, each connection a tunnel (`CONNECT`) through the proxy.
 */
type PoolKind = "requests" | "streams";

export interface PoolLease {
  /** Send with `request({ origin, … })`: a proxy agent needs the origin. */
  readonly dispatcher: Dispatcher;
  /** Gives the lease back; idempotent. */
  release(): void;
}

/** Connections per origin for requests; more wait in the pool's queue. */
const REQUEST_CONNECTIONS = 32;
/** Idle keep-alive sockets are closed after this (the server may also close them earlier). */
const KEEP_ALIVE_TIMEOUT_MS = 10 * 1000; // 10 s

const pools = new Map<string, { dispatcher: Dispatcher; refs: number }>();

function newDispatcher(origin: string, kind: PoolKind, network: ResolvedNetwork): Dispatcher {
  const limits = {
    connections: kind === "requests" ? REQUEST_CONNECTIONS : null,
    keepAliveTimeout: KEEP_ALIVE_TIMEOUT_MS,
  };
  const tls = network.ca ? { ca: [...network.ca] } : undefined;
  if (network.proxy === undefined && envProxies().every((p) => p === ""))
    return new Pool(origin, { ...limits, connect: tls });
  const EnvHttpProxyAgent = envHttpProxyAgent();
  return new EnvHttpProxyAgent({
    ...limits,
    // A tunnel for http:// origins too (undici 8 would forward them in the clear to the proxy):
    // the proxy sees the service's host, never the request and its key.
    proxyTunnel: true,
    // A proxy named for the service is used for it, whatever NO_PROXY says.
    ...(network.proxy !== undefined ? { httpProxy: network.proxy, httpsProxy: network.proxy, noProxy: "" } : {}),
    connect: tls, // origins NO_PROXY exempts
    requestTls: tls, // the service, through the proxy's tunnel
    proxyTls: tls, // an https:// proxy
  });
}

export function acquirePool(origin: string, kind: PoolKind, network: ResolvedNetwork): PoolLease {
  // A caller's dispatcher is the caller's: neither counted nor closed here.
  if (network.dispatcher) return { dispatcher: network.dispatcher, release: () => undefined };
  const key = network.id === "" ? `${kind} ${origin}` : `${kind} ${origin} ${network.id}`;
  let entry = pools.get(key);
  if (!entry) {
    entry = { dispatcher: newDispatcher(origin, kind, network), refs: 0 };
    pools.set(key, entry);
  }
  entry.refs++;
  const held = entry;
  let released = false;
  return {
    dispatcher: held.dispatcher,
    release: () => {
      if (released) return;
      released = true;
      if (--held.refs > 0) return;
      if (pools.get(key) === held) pools.delete(key);
      // Requests still in flight finish; the pool refuses new ones.
      held.dispatcher.close().catch(() => undefined);
    },
  };
}

/** Pools currently open, by `"<kind> <origin>"` (and the network's id, when it has one): for tests. */
export function openPools(): Map<string, number> {
  return new Map([...pools].map(([k, v]) => [k, v.refs]));
}
