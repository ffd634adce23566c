import { Registry } from "prom-client";
import { registerProcessMetrics } from "../../../watch/deliver/process-metrics";
import { parsePrometheusText } from "../../support/prometheus-text";

describe("registerProcessMetrics", () => {
  it("should serve the process's memory, CPU, GC and event loop, the loop's measured at the scrape", async () => {
    const registry = new Registry();
    registerProcessMetrics(registry);
    // Busy the loop for 50 ms between two scrapes: the utilization since the last scrape says so.
    await registry.metrics();
    const until = Date.now() + 50;
    while (Date.now() < until);
    const text = await registry.metrics();
    const names = new Set(parsePrometheusText(text).map((s) => s.name));
    for (const name of [
      "process_cpu_seconds_total",
      "process_resident_memory_bytes",
      "nodejs_heap_size_used_bytes",
      "nodejs_eventloop_lag_seconds",
      "nodejs_eventloop_utilization_ratio",
    ])
      expect(names).toContain(name);
    // Its samples come with the first GC observed; its family is there from the start.
    expect(text).toMatch(/^# TYPE nodejs_gc_duration_seconds histogram$/m);
    const value = (name: string): number => parsePrometheusText(text).find((s) => s.name === name)!.value;
    expect(value("nodejs_eventloop_lag_seconds")).toBeGreaterThanOrEqual(0);
    expect(value("nodejs_eventloop_utilization_ratio")).toBeGreaterThan(0.3);
    expect(value("nodejs_eventloop_utilization_ratio")).toBeLessThanOrEqual(1);
    // No histogram sampling the loop on a timer: prom-client registers its lag percentiles from one.
    expect([...names].filter((n) => /^nodejs_eventloop_lag_(p\d+|min|max|mean|stddev)_seconds$/.test(n))).toEqual([]);
  });
});
