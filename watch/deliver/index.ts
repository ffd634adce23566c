/**
 * Where a watch's findings go besides its own output: webhooks (`webhook.ts`, one queue each) and
 * the metrics and health a `--listen` address serves. `startDelivery` takes the options of all of
 * them, for the CLI and for a bench or a portal alike.
 */
import type { Finding } from "../finding";
import type { StreamSight } from "../streams";
import { healthOf } from "./health";
import { serveMetrics, type RunningServer } from "./health-server";
import { parseListenAddress, type ListenAddress } from "./listen-address";
import { WatchMetrics } from "./metrics";
import type { RetrySchedule } from "./retry-schedule";
import { WebhookSink, type WebhookFormat } from "./webhook";
import { webhookDispatcher } from "./webhook-post";
import { SECRET_VARIABLE } from "./webhook-signature";
import { webhookTarget } from "./webhook-target";

export { DEFAULT_RETRY_SCHEDULE, nextAttempt, type RetrySchedule } from "./retry-schedule";
export { SIGNATURE_HEADER, SECRET_VARIABLE, signatureOf, verifySignature } from "./webhook-signature";
export { FINDING_ID_HEADER, type WebhookFormat } from "./webhook";
export { slackMessageOf, type ChatMessage } from "./slack-format";
export { parseListenAddress, type ListenAddress } from "./listen-address";

export interface DeliveryOptions {
  /** Each gets one POST per finding. */
  webhooks?: Array<{ url: string; format?: WebhookFormat }>;
  /** Signs every body. @default the environment's WWS_WEBHOOK_SECRET */
  secret?: string;
  /** @default DEFAULT_RETRY_SCHEDULE (1 s, doubling, at most 30 s apart, for 10 min) */
  retry?: Partial<RetrySchedule>;
  /** Findings a webhook keeps waiting; past it the oldest is dropped. @default 1000 */
  maxQueued?: number;
  /** Serve `/metrics` and `/healthz` there (`127.0.0.1:9464`). @default nowhere */
  listen?: ListenAddress | string;
  /** Where the webhooks' outages and drops are said. */
  say?: (line: string) => void;
  /** Read for the secret and the proxy. @default process.env */
  env?: NodeJS.ProcessEnv;
}

export interface Delivery {
  /** The watch's `onFinding` (beside whatever else it does with a finding). */
  onFinding(f: Finding): void;
  /** The watch's `onCompared`. */
  onCompared(durationMs: number, ok: boolean): void;
  /** A watch whose streams the metrics and `/healthz` read, once it has started (once per watch, when there are several). */
  watching(watch: { readonly streams: StreamSight[] }): void;
  /** Where `/metrics` and `/healthz` are served, when they are. */
  readonly url: string | undefined;
  /** Stops: each webhook gets up to `graceMs` to deliver what it holds; the server closes. */
  close(graceMs?: number): Promise<void>;
}

/** Starts the webhooks' queues and, with `listen`, the metrics server (rejects when it cannot listen). */
export async function startDelivery(options: DeliveryOptions): Promise<Delivery> {
  const env = options.env ?? process.env;
  const say = options.say ?? (() => undefined);
  const secret = options.secret ?? (env[SECRET_VARIABLE] || undefined);
  const watches: Array<{ readonly streams: StreamSight[] }> = [];
  const streams = (): StreamSight[] => watches.flatMap((w) => w.streams);
  const sinks: WebhookSink[] = [];
  // The process's own metrics: only for a watch that is scraped.
  const metrics = new WatchMetrics({ streams, webhooks: () => sinks }, options.listen !== undefined);
  const dispatcher = webhookDispatcher(env);
  (options.webhooks ?? []).forEach((w, i) =>
    sinks.push(
      new WebhookSink({
        target: webhookTarget(w.url, i + 1),
        format: w.format,
        secret,
        schedule: options.retry,
        maxQueued: options.maxQueued,
        dispatcher,
        say,
        counters: metrics.webhookCounters,
      }),
    ),
  );
  let server: RunningServer | undefined;
  if (options.listen !== undefined) {
    const at = typeof options.listen === "string" ? parseListenAddress(options.listen) : options.listen;
    server = await serveMetrics(at, {
      registry: metrics.registry,
      health: () => healthOf(watches.length > 0, streams()),
    });
  }
  return {
    onFinding: (f) => {
      metrics.finding(f);
      for (const s of sinks) s.send(f);
    },
    onCompared: (ms, ok) => metrics.compared(ms, ok),
    watching: (w) => void watches.push(w),
    url: server?.url,
    close: async (graceMs = 2000) => {
      await Promise.all(sinks.map((s) => s.close(graceMs)));
      await server?.close();
      // What is still under way past the grace is cut.
      await dispatcher.destroy().catch(() => undefined);
    },
  };
}
