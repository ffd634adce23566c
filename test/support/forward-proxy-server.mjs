/**
 * A company's forward proxy for tests: the `proxy` package (an HTTP proxy with CONNECT tunnels)
 * on 127.0.0.1, in a process of its own. It alone knows the host names given as
 * `--map name=127.0.0.1` (as a company proxy resolves internal names the machine cannot), so a
 * base URL with such a name is reached through it or not at all. Prints `listening <port>` once,
 * then one line `<METHOD> <target>` per request it forwards.
 */
import * as http from "node:http";
import { createProxy } from "proxy";

const maps = new Map();
for (let i = 2; i < process.argv.length; i++) {
  if (process.argv[i] !== "--map") continue;
  const [name, address] = process.argv[++i].split("=");
  maps.set(name.toLowerCase(), address);
}

const proxy = createProxy(http.createServer());
// Runs before the proxy reads the target: the hook where the proxy "resolves" the mapped names.
proxy.authenticate = (req) => {
  process.stdout.write(`${req.method} ${req.url}\n`);
  for (const [name, address] of maps) req.url = req.url.split(`${name}:`).join(`${address}:`);
  return true;
};
proxy.listen(0, "127.0.0.1", () => process.stdout.write(`listening ${proxy.address().port}\n`));
// Ends with the test's process: the test closes its stdin.
process.stdin.on("end", () => process.exit(0));
process.stdin.resume();
