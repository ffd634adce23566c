import { createServer } from "node:http";
import type { AddressInfo } from "node:net";
import type { Duplex } from "node:stream";
import { KeyRing } from "./auth";
import type { ServiceContext } from "./context";
import { Counters } from "./http/counters";
import { errorBody } from "./http/errors";
import { Faults } from "./http/faults";
import { createRequestHandler, newRequestId } from "./http/pipeline";
import { resolveOptions, type ServiceOptions } from "./options";
import { buildRouter } from "./routes";
import { Store } from "./state/store";
import { Reconciler } from "./workloads/reconciler";

export interface RunningService {
  /** `http://host:port`, with the port actually bound. */
  url: string;
  port: number;
  /** Ends open streams, stops the reconciler, writes pending state, closes every connection. */
  close(): Promise<void>;
}

/** Writes an error answer straight to a socket that the HTTP layer handed over, and closes it. */
function endWithError(socket: Duplex, statusLine: string, body: string): void {
  socket.end(
    `HTTP/1.1 ${statusLine}\r\ncontent-type: application/json; charset=utf-8\r\n` +
      `content-length: ${Buffer.byteLength(body)}\r\nx-request-id: ${newRequestId()}\r\nconnection: close\r\n\r\n${body}`,
  );
}

function urlHost(host: string): string {
  if (host === "0.0.0.0") return "127.0.0.1";
  if (host === "::") return "[::1]";
  return host.includes(":") ? `[${host}]` : host;
}

/** Starts the local workload service; see `ServiceOptions` for the options and their defaults. */
export async function startService(options: ServiceOptions = {}): Promise<RunningService> {
  const given = resolveOptions(options);
  const keys = new KeyRing(given.keys);
  // From here on only the digests in the KeyRing remain: the options keep workspace names only.
  const resolved = Object.freeze({
    ...given,
    keys: Object.freeze(Object.fromEntries(keys.workspaces.map((ws) => [ws, ""]))),
  });
  const store = new Store(resolved);
  const ctx: ServiceContext = {
    options: resolved,
    keys,
    store,
    reconciler: new Reconciler(store, resolved.reconcileMs),
    counters: new Counters(),
    faults: new Faults(),
  };
  // Short header and request deadlines: a client that trickles its request (slowloris) holds a
  // socket for 10 s at most instead of Node's 60 s. Streams are unaffected: their request has no body.
  const server = createServer(
    { noDelay: true, headersTimeout: 10_000, requestTimeout: 30_000 },
    createRequestHandler(ctx, buildRouter(ctx)),
  );
  // Requests the HTTP parser rejects still get the contract's error body and a request id.
  server.on("clientError", (err: NodeJS.ErrnoException, socket) => {
    if (err.code === "ECONNRESET" || !socket.writable) {
      socket.destroy();
      return;
    }
    endWithError(socket, "400 Bad Request", errorBody("validation_failed", "malformed HTTP request"));
  });
  // CONNECT never reaches the request handler (Node would just drop the connection): no such route.
  server.on("connect", (_req, socket: Duplex) => {
    endWithError(socket, "404 Not Found", errorBody("not_found", "no CONNECT route"));
  });
  await new Promise<void>((resolve, reject) => {
    server.once("error", reject);
    server.listen(resolved.port, resolved.host, () => {
      server.off("error", reject);
      resolve();
    });
  });
  // Workloads loaded from the data dir continue where they were.
  ctx.reconciler.kickAll();
  const port = (server.address() as AddressInfo).port;
  let closing: Promise<void> | undefined;
  return {
    url: `http://${urlHost(resolved.host)}:${port}`,
    port,
    close: () =>
      (closing ??= new Promise<void>((resolve) => {
        ctx.reconciler.close();
        store.close();
        server.close(() => resolve());
        server.closeAllConnections();
      })),
  };
}
