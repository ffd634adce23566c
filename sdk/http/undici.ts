import type * as Undici from "undici";

/**
 * The parts of undici the client uses, loaded one by one: `require("undici")` loads every
 * dispatcher, the mocks, the caches, fetch and WebSocket (about 110 modules, 60-90 ms of CPU at each
 * start of a process), and the dynamic provider process starts at every `pulumi` command; a refresh
 * needs a `Pool` and its `request`. The proxy agent is loaded only where a proxy is set.
 *
 * undici's package has no `exports` map, so these paths are reachable; its version is pinned in
 * the lockfile, and `test/sdk/http/undici.test.ts` checks that they are the package's own classes.
 */

// eslint-disable-next-line @typescript-eslint/no-require-imports
const dispatcherClass = require("undici/lib/dispatcher/dispatcher") as typeof Undici.Dispatcher;
// The request API (`request`, `stream`, …) is mixed into every dispatcher by undici's index, as here.
// eslint-disable-next-line @typescript-eslint/no-require-imports
Object.assign(dispatcherClass.prototype, require("undici/lib/api") as object);

// eslint-disable-next-line @typescript-eslint/no-require-imports
export const Pool = require("undici/lib/dispatcher/pool") as typeof Undici.Pool;

/** undici's `EnvHttpProxyAgent`, from the whole package (only where a proxy is in use). */
export function envHttpProxyAgent(): typeof Undici.EnvHttpProxyAgent {
  // eslint-disable-next-line @typescript-eslint/no-require-imports
  return (require("undici") as typeof Undici).EnvHttpProxyAgent;
}
