import { createServer, type Server } from "node:http";
import type { AddressInfo } from "node:net";

/**
 * A proxy that forwards nothing: the copy's engine runs with HTTP(S)_PROXY pointed here and only
 * the copy exempted (NO_PROXY), so that a program which names a service of its own (a `baseUrl`
 * argument) reaches no real service during the rehearsal. Every attempt is refused (403) and
 * recorded by its target; the rehearsal then says it could not rehearse, and why.
 */
export interface GuardProxy {
  url: string;
  /** Targets (`host:port`) refused so far. */
  refused: Set<string>;
  close(): Promise<void>;
}

export async function startGuardProxy(): Promise<GuardProxy> {
  const refused = new Set<string>();
  const server: Server = createServer((req, res) => {
    refused.add(hostOf(req.url ?? "", req.headers.host));
    res.writeHead(403, { "content-type": "text/plain", connection: "close" });
    res.end("refused by the rehearsal: only the copy of the workspace may be reached\n");
  });
  server.on("connect", (req, socket) => {
    refused.add(req.url ?? "?");
    socket.end("HTTP/1.1 403 Forbidden\r\nconnection: close\r\ncontent-length: 0\r\n\r\n");
  });
  await new Promise<void>((resolve, reject) => {
    server.once("error", reject);
    server.listen(0, "127.0.0.1", () => resolve());
  });
  const port = (server.address() as AddressInfo).port;
  return {
    url: `http://127.0.0.1:${port}`,
    refused,
    close: () =>
      new Promise<void>((resolve) => {
        server.close(() => resolve());
        server.closeAllConnections();
      }),
  };
}

function hostOf(url: string, host: string | undefined): string {
  try {
    return new URL(url).host;
  } catch {
    return host ?? "?";
  }
}

/** The environment that sends everything but `copyUrl` to the guard. */
export function guardedEnv(guard: GuardProxy, copyUrl: string): Record<string, string> {
  const exempt = new URL(copyUrl).host;
  return {
    HTTP_PROXY: guard.url,
    HTTPS_PROXY: guard.url,
    http_proxy: guard.url,
    https_proxy: guard.url,
    NO_PROXY: exempt,
    no_proxy: exempt,
    // gRPC (the engine, the language host, the provider process: all on loopback) is never the service's.
    no_grpc_proxy: "127.0.0.1,localhost,::1",
  };
}
