/**
 * The process's own metrics (`process_*`, `nodejs_*`) of a scraped watch: prom-client's default
 * ones but its event-loop delay histogram. That histogram samples the loop on a timer of its own
 * (every 100 ms here, 10 ms by prom-client's default): some 20 wakeups a second, most of an idle
 * watch's, for a figure read once a scrape. Measured at the scrape instead, nothing wakes an idle
 * watch: the loop's lag (how late an immediate callback runs, as prom-client measures it where the
 * histogram is missing) and its utilization since the last scrape (from libuv's own idle time).
 */
import { createRequire } from "node:module";
import { performance } from "node:perf_hooks";
import { collectDefaultMetrics, Gauge, type Registry } from "prom-client";

type DefaultMetric = (registry: Registry, config: object) => void;

/** The default metric that polls (prom-client's name for it). */
const POLLING = "eventLoopLag";

/** The event-loop histogram's resolution when prom-client's own modules cannot be taken one by one. */
const FALLBACK_SAMPLE_MS = 100;

/**
 * prom-client's default metrics but `POLLING`, each module as prom-client registers it; undefined
 * when a release of it has them elsewhere (then the whole set is used, histogram and all).
 */
function defaultsWithoutPolling(): DefaultMetric[] | undefined {
  const load = createRequire(__filename);
  try {
    return collectDefaultMetrics.metricsList
      .filter((name) => name !== POLLING)
      .map((name) => load(`prom-client/lib/metrics/${name}`) as DefaultMetric);
  } catch {
    return undefined;
  }
}

export function registerProcessMetrics(registry: Registry): void {
  const defaults = defaultsWithoutPolling();
  if (!defaults) {
    collectDefaultMetrics({ register: registry, eventLoopMonitoringPrecision: FALLBACK_SAMPLE_MS });
    return;
  }
  for (const register of defaults) register(registry, {});
  const registers = [registry];
  new Gauge({
    name: "nodejs_eventloop_lag_seconds",
    help: "Lag of the event loop at the scrape: how late a callback queued then ran, in seconds.",
    registers,
    async collect() {
      const queued = performance.now();
      await new Promise((resolve) => setImmediate(resolve));
      this.set((performance.now() - queued) / 1000);
    },
  });
  let since = performance.eventLoopUtilization();
  new Gauge({
    name: "nodejs_eventloop_utilization_ratio",
    help: "Share of the time since the last scrape the event loop was busy, 0 to 1 (libuv's own idle time).",
    registers,
    collect() {
      const now = performance.eventLoopUtilization();
      this.set(performance.eventLoopUtilization(now, since).utilization);
      since = now;
    },
  });
}
