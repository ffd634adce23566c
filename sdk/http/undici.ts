import type * as Undici from "undici";

/**
 * The parts of undici the client uses, loaded one by one: `require("undici")` loads every
 * dispatcher, the mocks, the caches, fetch and WebSocket (about 110 modules, 60-90 ms of CPU at each
 * start of a process), and the dynamic provider process starts at every `pulumi` command; a refresh
 * needs a `Pool` and its `request` (about 30). The proxy agent is loaded only where a proxy is set.
 *
 * undici's package has no `exports` map, so these paths are reachable, but they are not its public
 * API: a later undici 8 (the range allows one) that moves them costs the saving, never the client,
 * because the whole package is loaded instead. `test/sdk/http/undici.test.ts` checks that they are
 * the locked version's own classes.
 */

/** undici's `Pool` with the request API mixed in, as undici's index does it; undefined if the layout moved. */
function poolAlone(): typeof Undici.Pool | undefined {
  try {
    /* eslint-disable @typescript-eslint/no-require-imports */
    const dispatcher = require("undici/lib/dispatcher/dispatcher") as typeof Undici.Dispatcher;
    Object.assign(dispatcher.prototype, require("undici/lib/api") as object);
    const pool = require("undici/lib/dispatcher/pool") as typeof Undici.Pool;
    /* eslint-enable @typescript-eslint/no-require-imports */
    return typeof pool.prototype.request === "function" ? pool : undefined;
  } catch {
    return undefined;
  }
}

/** The whole package. */
// eslint-disable-next-line @typescript-eslint/no-require-imports
const whole = (): typeof Undici => require("undici") as typeof Undici;

export const Pool: typeof Undici.Pool = poolAlone() ?? whole().Pool;

/** undici's `EnvHttpProxyAgent` (only where a proxy is in use). */
export function envHttpProxyAgent(): typeof Undici.EnvHttpProxyAgent {
  return whole().EnvHttpProxyAgent;
}
