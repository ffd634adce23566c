/**
 * The watch's metrics, in a registry of their own (never prom-client's global one: a portal that
 * runs a watch keeps its own metrics apart). Counters are pushed as things happen; the streams'
 * and the webhooks' gauges are read from the watch at each scrape.
 */
import { Counter, Gauge, Histogram, Registry } from "prom-client";
import type { Finding } from "../finding";
import type { StreamSight } from "../streams";
import type { DropReason, WebhookCounters } from "./webhook";
import type { WebhookTarget } from "./webhook-target";
import { registerProcessMetrics } from "./process-metrics";

/** What the gauges read at each scrape. */
export interface MetricSources {
  streams(): StreamSight[];
  webhooks(): Array<{ target: WebhookTarget; queued: number }>;
}

/** `Pod "web"` → `Pod`; `workspace team` → `workspace`. */
const typeOf = (f: Finding): string => f.resource.split(" ")[0] ?? "";

export class WatchMetrics {
  readonly registry = new Registry();
  private readonly findings: Counter<"stack" | "kind" | "type">;
  private readonly comparisons: Counter<"outcome">;
  private readonly comparisonSeconds: Histogram;
  private readonly deliveries: Counter<"webhook" | "host">;
  private readonly failures: Counter<"webhook" | "host">;
  private readonly drops: Counter<"webhook" | "host" | "reason">;

  /** `processMetrics`: also the process's own (memory, CPU, event loop: process-metrics.ts), for a scraped watch. */
  constructor(sources: MetricSources, processMetrics = false) {
    const registers = [this.registry];
    this.findings = new Counter({
      name: "wws_watch_findings_total",
      help: "Findings reported, by stack, kind (drift, deleted, failed, blind, …) and resource type (Pod, Template, workspace, …).",
      labelNames: ["stack", "kind", "type"],
      registers,
    });
    this.comparisons = new Counter({
      name: "wws_watch_comparisons_total",
      help: "Comparisons of one resource with the stack's record (the provider's read and diff), by outcome (ok, failed).",
      labelNames: ["outcome"],
      registers,
    });
    this.comparisonSeconds = new Histogram({
      name: "wws_watch_comparison_duration_seconds",
      help: "How long one resource's comparison took, read included.",
      registers,
    });
    new Gauge({
      name: "wws_watch_stream_up",
      help: "1 while the workspace's event stream is open, 0 while it is down or stopped.",
      labelNames: ["workspace"],
      registers,
      collect() {
        this.reset();
        for (const [workspace, up] of upByWorkspace(sources.streams())) this.set({ workspace }, up ? 1 : 0);
      },
    });
    new Gauge({
      name: "wws_watch_last_event_age_seconds",
      help: "Seconds since the workspace's stream brought its last event (or since the watch began watching it); heartbeats are not counted.",
      labelNames: ["workspace"],
      registers,
      collect() {
        this.reset();
        const newest = new Map<string, number>();
        for (const s of sources.streams())
          newest.set(s.workspace, Math.max(newest.get(s.workspace) ?? 0, s.lastEventAt));
        for (const [workspace, at] of newest) this.set({ workspace }, Math.max(0, (Date.now() - at) / 1000));
      },
    });
    const byHook = ["webhook", "host"] as const;
    this.deliveries = new Counter({
      name: "wws_watch_webhook_deliveries_total",
      help: "Findings delivered to a webhook (a 2xx answer), by its number on the command line and its host.",
      labelNames: byHook,
      registers,
    });
    this.failures = new Counter({
      name: "wws_watch_webhook_failures_total",
      help: "Failed attempts to deliver a finding to a webhook (no answer, or not 2xx); each is retried until its bound.",
      labelNames: byHook,
      registers,
    });
    this.drops = new Counter({
      name: "wws_watch_webhook_dropped_total",
      help: "Findings given up for a webhook, by reason: expired (not delivered within the retry bound), refused (a 3xx or 4xx answer), queue-full.",
      labelNames: [...byHook, "reason"],
      registers,
    });
    new Gauge({
      name: "wws_watch_webhook_queued",
      help: "Findings waiting to be delivered to a webhook.",
      labelNames: byHook,
      registers,
      collect() {
        this.reset();
        for (const w of sources.webhooks()) this.set({ webhook: w.target.number, host: w.target.host }, w.queued);
      },
    });
    if (processMetrics) registerProcessMetrics(this.registry);
  }

  finding(f: Finding): void {
    this.findings.inc({ stack: f.stack, kind: f.kind, type: typeOf(f) });
  }

  compared(durationMs: number, ok: boolean): void {
    this.comparisons.inc({ outcome: ok ? "ok" : "failed" });
    this.comparisonSeconds.observe(durationMs / 1000);
  }

  /** The webhooks' counters. */
  get webhookCounters(): WebhookCounters {
    const labels = (t: WebhookTarget) => ({ webhook: t.number, host: t.host });
    return {
      delivered: (t) => this.deliveries.inc(labels(t)),
      failed: (t) => this.failures.inc(labels(t)),
      dropped: (t, reason: DropReason) => this.drops.inc({ ...labels(t), reason }),
    };
  }
}

/** A workspace is up when every stream to it is open (two services may hold a workspace of the same name). */
function upByWorkspace(streams: StreamSight[]): Map<string, boolean> {
  const up = new Map<string, boolean>();
  for (const s of streams) up.set(s.workspace, (up.get(s.workspace) ?? true) && s.state === "open");
  return up;
}
