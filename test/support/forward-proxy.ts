import { spawn } from "node:child_process";
import * as path from "node:path";
import { listeningPort } from "./child-lines";

/** A forward proxy in a process of its own (`forward-proxy-server.mjs`) and the requests it forwarded. */
export interface ForwardProxy {
  /** `http://127.0.0.1:<port>` */
  url: string;
  /** One `<METHOD> <target>` per request, as the client sent it (`CONNECT wws.internal.test:8787`). */
  seen: string[];
  stop(): void;
}

/** Starts the proxy; it alone resolves `host` (to 127.0.0.1). */
export async function startForwardProxy(host: string): Promise<ForwardProxy> {
  const child = spawn(
    process.execPath,
    [path.join(__dirname, "forward-proxy-server.mjs"), "--map", `${host}=127.0.0.1`],
    {
      stdio: ["pipe", "pipe", "inherit"],
    },
  );
  const seen: string[] = [];
  const port = await listeningPort(child, (line) => seen.push(line));
  return { url: `http://127.0.0.1:${port}`, seen, stop: () => child.stdin.end() };
}
