/**
 * A front to the local service on 127.0.0.1 for the watch's hostile cases: it forwards everything,
 * except the event stream while a hostile `mode` is set, and counts what a client asks of it.
 */
import * as http from "node:http";
import type { AddressInfo, Socket } from "node:net";

export type FrontMode =
  | "pass"
  /** The stream is refused with 503 (a service that cannot serve it now). */
  | "stream-503"
  /** The stream request is never answered. */
  | "stream-silent"
  /** 10,000 `resync` frames at once, then heartbeats. */
  | "resync-flood"
  /** The stream is answered, then ended cleanly after 1.1 s. */
  | "close-early"
  /** `data:` lines without the blank line that ends an event, as fast as the client reads. */
  | "endless-event";

export interface Front {
  url: string;
  mode: FrontMode;
  /** Requests seen since `reset()`, by kind. */
  counts: { stream: number; activity: number; other: number };
  /** Destroys every open stream connection. */
  dropStreams(): void;
  reset(): void;
  close(): Promise<void>;
}

/** Bytes an endless event writes at most per connection, so that the front stops by itself. */
const ENDLESS_LIMIT_BYTES = 1024 * 1024 * 1024; // 1 GiB

export async function startWatchFront(upstream: string): Promise<Front> {
  const target = new URL(upstream);
  const streams = new Set<Socket>();
  const front: Front = {
    url: "",
    mode: "pass",
    counts: { stream: 0, activity: 0, other: 0 },
    dropStreams: () => streams.forEach((s) => s.destroy()),
    reset: () => (front.counts = { stream: 0, activity: 0, other: 0 }),
    close: () =>
      new Promise((r) => {
        server.closeAllConnections();
        server.close(() => r());
      }),
  };
  const forward = (req: http.IncomingMessage, res: http.ServerResponse): void => {
    const out = http.request(
      { host: target.hostname, port: target.port, method: req.method, path: req.url, headers: req.headers },
      (answer) => {
        res.writeHead(answer.statusCode ?? 502, answer.headers);
        answer.pipe(res);
      },
    );
    out.on("error", () => res.destroy());
    res.on("close", () => out.destroy());
    req.pipe(out);
  };
  const server = http.createServer((req, res) => {
    const isStream = (req.url ?? "").includes("/events/stream");
    if (!isStream) {
      if ((req.url ?? "").includes("/activity")) front.counts.activity++;
      else front.counts.other++;
      return forward(req, res);
    }
    front.counts.stream++;
    streams.add(req.socket);
    req.socket.once("close", () => streams.delete(req.socket));
    const open = (): void =>
      void res.writeHead(200, { "content-type": "text/event-stream", "cache-control": "no-cache" });
    switch (front.mode) {
      case "stream-503":
        res.writeHead(503, { "content-type": "application/json", "retry-after": "1" });
        return void res.end(JSON.stringify({ error: { code: "unavailable", message: "not now" } }));
      case "stream-silent":
        return;
      case "resync-flood": {
        open();
        res.write("retry: 250\n\n");
        res.write("id: 999999\nevent: resync\ndata: {}\n\n".repeat(10_000));
        const beat = setInterval(() => res.write(":heartbeat\n\n"), 5000);
        res.on("close", () => clearInterval(beat));
        return;
      }
      case "close-early":
        open();
        res.write(":hello\n\n");
        return void setTimeout(() => res.end(), 1100);
      case "endless-event": {
        open();
        const chunk = Buffer.from(`data: ${"x".repeat(1000)}\n`.repeat(64));
        let sent = 0;
        const more = (): void => {
          while (sent < ENDLESS_LIMIT_BYTES && !res.destroyed) {
            sent += chunk.length;
            if (!res.write(chunk)) return void res.once("drain", more);
          }
          res.end();
        };
        return more();
      }
      default:
        return forward(req, res);
    }
  });
  server.headersTimeout = 0;
  server.requestTimeout = 0;
  await new Promise<void>((r) => server.listen(0, "127.0.0.1", () => r()));
  front.url = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
  return front;
}
