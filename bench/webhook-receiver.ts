import { createServer, type IncomingHttpHeaders, type Server } from "node:http";
import type { AddressInfo } from "node:net";
import { verifySignature } from "../watch/deliver";

/** One POST as the receiver took it: the raw body (what the signature covers) and its headers. */
export interface Received {
  body: string;
  headers: IncomingHttpHeaders;
  at: number;
}

export interface ReceiverOptions {
  /**
   * The webhooks' secret: each POST's signature is checked (a bad one answered 401) and its finding
   * id required (400 without). @default none: every POST is taken
   */
  secret?: string;
  /**
   * Keeps each POST's body and headers in `received`. A soak keeps only counts and times, so that its
   * receiver does not grow the heap it measures. @default true
   */
  keep?: boolean;
}

/**
 * A webhook receiver on 127.0.0.1 (a port of its own) for the tests and the benches: counts each
 * finding's deliveries by its id (`X-WWS-Finding-Id`) and notes when each first came. `answering`
 * says what it answers (200, or 400 or 503 with `Retry-After: 1`: an outage that still accepts
 * connections); `refuse()` closes its port (connection refused) and `accept()` opens the same port again.
 */
export class WebhookReceiver {
  /** The POSTs answered 2xx, when kept. */
  readonly received: Received[] = [];
  /** Deliveries answered 2xx, by finding id. */
  readonly deliveries = new Map<string, number>();
  /** When each finding id first came (epoch ms with sub-ms precision). */
  readonly firstAt = new Map<string, number>();
  /** When each refusal began: a delivery just before one may have lost its answer (at-least-once). */
  readonly refusedAt: number[] = [];
  /** Every attempt, answered or not by 2xx. */
  attempts = 0;
  badSignatures = 0;
  withoutId = 0;
  answering: 200 | 400 | 503 = 200;
  /** Called with each first delivery's id and body. */
  onFirst: (id: string, body: string) => void = () => undefined;
  private server: Server | undefined;
  private port = 0;

  constructor(private readonly options: ReceiverOptions = {}) {}

  async start(): Promise<this> {
    await this.accept();
    return this;
  }

  /** Its URL, with a path and a query token that nothing the watch prints may show. */
  get url(): string {
    return `http://127.0.0.1:${this.port}/hooks/wws?token=QUERY-TOKEN-never-printed`;
  }

  async accept(): Promise<void> {
    const server = createServer((req, res) => {
      const chunks: Buffer[] = [];
      req.on("data", (c: Buffer) => chunks.push(c));
      req.on("end", () => {
        const at = performance.timeOrigin + performance.now();
        this.attempts++;
        if (this.answering !== 200) {
          res.writeHead(this.answering, { "retry-after": "1" }).end("unavailable");
          return;
        }
        const body = Buffer.concat(chunks);
        const id = req.headers["x-wws-finding-id"];
        if (this.options.secret !== undefined) {
          const signature = req.headers["x-wws-signature-256"];
          if (!verifySignature(this.options.secret, body, typeof signature === "string" ? signature : undefined)) {
            this.badSignatures++;
            res.writeHead(401).end("bad signature");
            return;
          }
          if (typeof id !== "string" || id === "") {
            this.withoutId++;
            res.writeHead(400).end("no finding id");
            return;
          }
        }
        if (this.options.keep ?? true)
          this.received.push({ body: body.toString("utf8"), headers: req.headers, at: Math.round(at) });
        if (typeof id === "string" && id !== "") {
          const count = (this.deliveries.get(id) ?? 0) + 1;
          this.deliveries.set(id, count);
          if (count === 1) {
            this.firstAt.set(id, at);
            this.onFirst(id, body.toString("utf8"));
          }
        }
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
    this.refusedAt.push(Date.now());
    s.closeAllConnections();
    await new Promise((resolve) => s.close(resolve));
  }

  close(): Promise<void> {
    return this.refuse();
  }
}

/** The sum of the `wws_watch_findings_total` samples in a `/metrics` text (none yet: 0); NaN when the counter is not there. */
export function findingsCounted(metricsText: string): number {
  if (!/^# TYPE wws_watch_findings_total counter$/m.test(metricsText)) return Number.NaN;
  let sum = 0;
  for (const m of metricsText.matchAll(/^wws_watch_findings_total(?:\{[^}]*\})? ([0-9.eE+-]+)$/gm)) sum += Number(m[1]);
  return sum;
}
