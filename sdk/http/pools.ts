import { Pool } from "undici";

/**
 * Keep-alive pools shared by every client and stream of one origin in this process,
 * reference-counted: the last release closes the pool.
 *
 * Requests and streams get separate pools: a stream holds its connection for hours, and in a pool
 * with a connection limit enough open streams would leave no connection for requests.
 */
export type PoolKind = "requests" | "streams";

export interface PoolLease {
  readonly pool: Pool;
  /** Gives the lease back; idempotent. */
  release(): void;
}

/** Connections per origin for requests; more wait in the pool's queue. */
const REQUEST_CONNECTIONS = 32;
/** Idle keep-alive sockets are closed after this (the server may also close them earlier). */
const KEEP_ALIVE_TIMEOUT_MS = 10 * 1000; // 10 s

const pools = new Map<string, { pool: Pool; refs: number }>();

export function acquirePool(origin: string, kind: PoolKind): PoolLease {
  const key = `${kind} ${origin}`;
  let entry = pools.get(key);
  if (!entry) {
    const pool = new Pool(origin, {
      connections: kind === "requests" ? REQUEST_CONNECTIONS : null,
      keepAliveTimeout: KEEP_ALIVE_TIMEOUT_MS,
    });
    entry = { pool, refs: 0 };
    pools.set(key, entry);
  }
  entry.refs++;
  const held = entry;
  let released = false;
  return {
    pool: held.pool,
    release: () => {
      if (released) return;
      released = true;
      if (--held.refs > 0) return;
      if (pools.get(key) === held) pools.delete(key);
      // Requests still in flight finish; the pool refuses new ones.
      held.pool.close().catch(() => undefined);
    },
  };
}

/** Pools currently open, by `"<kind> <origin>"`: for tests. */
export function openPools(): Map<string, number> {
  return new Map([...pools].map(([k, v]) => [k, v.refs]));
}
