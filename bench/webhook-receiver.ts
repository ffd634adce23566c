import { createServer, type Server } from "node:http";
import type { AddressInfo } from "node:net";
import { verifySignature } from "../watch/deliver";

/**
 * A bench's webhook receiver on 127.0.0.1 (a port of its own): counts each finding's deliveries by
 * its id (`X-WWS-Finding-Id`), notes when each first came and checks every signature. Keeps only
 * counts and times, so that a half-hour soak's receiver does not grow the heap it measures.
 * `answering` 503 plays an outage that still accepts connections; `refuse()` closes the port and
 * `accept()` opens the same one again.
 */
export class BenchReceiver {
  /** Deliveries answered 2xx, by finding id. */
  readonly deliveries = new Map<string, number>();
  /** When each finding id first came (epoch ms with sub-ms precision). */
  readonly firstAt = new Map<string, number>();
  /** When each refusal began: a delivery just before one may have lost its answer (at-least-once). */
  readonly refusedAt: number[] = [];
  attempts = 0;
  badSignatures = 0;
  withoutId = 0;
  answering: 200 | 503 = 200;
  /** Called with each first delivery's id and body. */
  onFirst: (id: string, body: string) => void = () => undefined;
  private server: Server | undefined;
  private port = 0;

  constructor(private readonly secret: string) {}

  get url(): string {
    return `http://127.0.0.1:${this.port}/hooks/wws`;
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
        const signature = req.headers["x-wws-signature-256"];
        if (!verifySignature(this.secret, body, typeof signature === "string" ? signature : undefined)) {
          this.badSignatures++;
          res.writeHead(401).end("bad signature");
          return;
        }
        const id = req.headers["x-wws-finding-id"];
        if (typeof id !== "string" || id === "") {
          this.withoutId++;
          res.writeHead(400).end("no finding id");
          return;
        }
        const count = (this.deliveries.get(id) ?? 0) + 1;
        this.deliveries.set(id, count);
        if (count === 1) {
          this.firstAt.set(id, at);
          this.onFirst(id, body.toString("utf8"));
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

  async close(): Promise<void> {
    await this.refuse();
  }
}

/** The sum of the `wws_watch_findings_total` samples in a `/metrics` text (none yet: 0); NaN when the counter is not there. */
export function findingsCounted(metricsText: string): number {
  if (!/^# TYPE wws_watch_findings_total counter$/m.test(metricsText)) return Number.NaN;
  let sum = 0;
  for (const m of metricsText.matchAll(/^wws_watch_findings_total(?:\{[^}]*\})? ([0-9.eE+-]+)$/gm)) sum += Number(m[1]);
  return sum;
}
