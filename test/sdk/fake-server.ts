import { createServer, type IncomingMessage, type ServerResponse } from "node:http";
import type { AddressInfo } from "node:net";

export interface Recorded {
  method: string;
  url: string;
  headers: IncomingMessage["headers"];
  body: string;
  at: number;
}

export interface FakeServer {
  url: string;
  port: number;
  requests: Recorded[];
  close(): Promise<void>;
}

export type Handler = (req: IncomingMessage, res: ServerResponse, recorded: Recorded, index: number) => void;

/** A real HTTP server on a free port that records every request; the handler answers. */
export async function fakeServer(handler: Handler, port = 0): Promise<FakeServer> {
  const requests: Recorded[] = [];
  const server = createServer((req, res) => {
    const chunks: Buffer[] = [];
    req.on("data", (c: Buffer) => chunks.push(c));
    req.on("end", () => {
      const recorded = {
        method: req.method ?? "",
        url: req.url ?? "",
        headers: req.headers,
        body: Buffer.concat(chunks).toString("utf8"),
        at: Date.now(),
      };
      requests.push(recorded);
      handler(req, res, recorded, requests.length - 1);
    });
  });
  await new Promise<void>((resolve) => server.listen(port, "127.0.0.1", resolve));
  const actual = (server.address() as AddressInfo).port;
  return {
    url: `http://127.0.0.1:${actual}`,
    port: actual,
    requests,
    close: () =>
      new Promise<void>((resolve) => {
        server.closeAllConnections();
        server.close(() => resolve());
      }),
  };
}

export function json(res: ServerResponse, status: number, body: unknown, headers: Record<string, string> = {}): void {
  const text = JSON.stringify(body);
  res.writeHead(status, { "content-type": "application/json", "content-length": Buffer.byteLength(text), ...headers });
  res.end(text);
}

export function fail(res: ServerResponse, status: number, code: string, headers: Record<string, string> = {}): void {
  json(res, status, { error: { code, message: `injected ${code}` } }, { "x-request-id": "req_fake", ...headers });
}

/** A port nothing listens on (it was free a moment ago). */
export async function freePort(): Promise<number> {
  const s = await fakeServer(() => undefined);
  await s.close();
  return s.port;
}
