import { createServer, type IncomingHttpHeaders, type Server } from "node:http";
import type { AddressInfo } from "node:net";

/** One POST as the receiver got it: the raw body (what the signature covers) and its headers. */
export interface Received {
  body: string;
  headers: IncomingHttpHeaders;
  at: number;
}

/**
 * A webhook receiver on 127.0.0.1 (a port of its own): records every POST; `answering` says what it
 * answers (200, 400, or 503 with `Retry-After: 1`); `refuse()` closes its port (connection refused) and
 * `accept()` opens the same port again.
 */
export class WebhookReceiver {
  readonly received: Received[] = [];
  /** Every attempt, answered or not by 2xx. */
  attempts = 0;
  answering: 200 | 400 | 503 = 200;
  private server: Server | undefined;
  private port = 0;

  async start(): Promise<this> {
    await this.accept();
    return this;
  }

  get url(): string {
    return `http://127.0.0.1:${this.port}/hooks/wws?token=QUERY-TOKEN-never-printed`;
  }

  async accept(): Promise<void> {
    const server = createServer((req, res) => {
      const chunks: Buffer[] = [];
      req.on("data", (c: Buffer) => chunks.push(c));
      req.on("end", () => {
        this.attempts++;
        if (this.answering !== 200) {
          res.writeHead(this.answering, { "retry-after": "1" }).end("unavailable");
          return;
        }
        this.received.push({ body: Buffer.concat(chunks).toString("utf8"), headers: req.headers, at: Date.now() });
        res.writeHead(200).end("ok");
      });
    });
    await new Promise<void>((resolve) => server.listen(this.port, "127.0.0.1", resolve));
    this.port = (server.address() as AddressInfo).port;
    this.server = server;
  }

  /** Closes the port: attempts meet a refused connection until `accept()`. */
  async refuse(): Promise<void> {
    const s = this.server;
    this.server = undefined;
    if (!s) return;
    s.closeAllConnections();
    await new Promise((resolve) => s.close(resolve));
  }

  close(): Promise<void> {
    return this.refuse();
  }
}
