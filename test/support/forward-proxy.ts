import { spawn } from "node:child_process";
import * as path from "node:path";

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
  let buffered = "";
  const port = await new Promise<number>((resolve, reject) => {
    child.once("exit", (code) => reject(new Error(`the proxy exited (${code}) before listening`)));
    child.stdout.on("data", (chunk: Buffer) => {
      buffered += chunk.toString();
      const lines = buffered.split("\n");
      buffered = lines.pop()!;
      for (const line of lines) {
        const listening = /^listening (\d+)$/.exec(line);
        if (listening) resolve(Number(listening[1]));
        else if (line) seen.push(line);
      }
    });
  });
  return { url: `http://127.0.0.1:${port}`, seen, stop: () => child.stdin.end() };
}
