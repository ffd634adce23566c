import { createServer, type Server } from "node:http";
import type { AddressInfo } from "node:net";
import type { Registry } from "prom-client";
import type { Health } from "./health";
import type { ListenAddress } from "./listen-address";

/** What `--listen` serves. */
export interface ServedPages {
  registry: Registry;
  health(): Health;
}

export interface RunningServer {
  /** `http://127.0.0.1:9464`, with the port it got when 0 was asked. */
  url: string;
  close(): Promise<void>;
}

/**
 * Serves `GET /metrics` (Prometheus' text format) and `GET /healthz` (200 or 503, one line), and
 * 404 for anything else; resolves once it listens, rejects when it cannot (the port taken).
 */
export async function serveMetrics(at: ListenAddress, pages: ServedPages): Promise<RunningServer> {
  const server: Server = createServer((req, res) => {
    const path = (req.url ?? "/").split("?")[0];
    if (req.method !== "GET" && req.method !== "HEAD") {
      res.writeHead(405, { allow: "GET, HEAD" }).end();
      return;
    }
    if (path === "/healthz") {
      const h = pages.health();
      res.writeHead(h.ok ? 200 : 503, { "content-type": "text/plain; charset=utf-8" }).end(`${h.text}\n`);
      return;
    }
    if (path === "/metrics") {
      pages.registry.metrics().then(
        (text) => res.writeHead(200, { "content-type": pages.registry.contentType }).end(text),
        (err: unknown) => res.writeHead(500).end(`could not collect the metrics: ${String(err)}\n`),
      );
      return;
    }
    res.writeHead(404, { "content-type": "text/plain; charset=utf-8" }).end("not found: /metrics or /healthz\n");
  });
  // A scraper's kept-alive connection must not hold the process at exit.
  server.keepAliveTimeout = 5000;
  await new Promise<void>((resolve, reject) => {
    server.once("error", (err: NodeJS.ErrnoException) =>
      reject(
        new Error(
          `--listen ${at.host}:${at.port}: ${err.code === "EADDRINUSE" ? "the port is taken; choose another" : err.code === "EADDRNOTAVAIL" ? "no interface of this machine has that address" : err.message}`,
        ),
      ),
    );
    server.listen(at.port, at.host, () => {
      server.removeAllListeners("error");
      resolve();
    });
  });
  const { port, family } = server.address() as AddressInfo;
  const host = family === "IPv6" ? `[${at.host}]` : at.host;
  return {
    url: `http://${host}:${port}`,
    close: () =>
      new Promise<void>((resolve) => {
        server.closeAllConnections();
        server.close(() => resolve());
      }),
  };
}
