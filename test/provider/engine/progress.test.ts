import type { EngineLog } from "../../../provider/dynamic/engine/log";
import { ProgressReporter } from "../../../provider/dynamic/engine/progress";
import type { Clock, WorkloadStatus } from "../../../sdk";

/** A clock whose time moves only when told; timers fire as it passes them. */
class FakeClock implements Clock {
  private t = 1_000_000;
  private timers: Array<{ at: number; fn: () => void; id: number }> = [];
  private next = 0;
  now = (): number => this.t;
  setTimeout = (fn: () => void, ms: number): unknown => {
    const id = ++this.next;
    this.timers.push({ at: this.t + ms, fn, id });
    return id;
  };
  clearTimeout = (id: unknown): void => {
    this.timers = this.timers.filter((x) => x.id !== id);
  };
  advance(ms: number): void {
    const end = this.t + ms;
    for (;;) {
      const due = this.timers.filter((x) => x.at <= end).sort((a, b) => a.at - b.at)[0];
      if (!due) break;
      this.timers = this.timers.filter((x) => x !== due);
      this.t = due.at;
      due.fn();
    }
    this.t = end;
  }
}

const progress = (phase: string, elapsedMs: number, message?: string) => ({
  id: "w",
  phase,
  message,
  status: { phase } as WorkloadStatus,
  elapsedMs,
});

describe("ProgressReporter", () => {
  it("should say what is awaited, then one line per phase change", () => {
    const lines: string[] = [];
    const r = new ProgressReporter({ write: (l) => lines.push(l), clock: new FakeClock() });
    const h = r.begin("vm-ubuntu web in workspace demo", "to be ready", 600_000);
    h.report(progress("Pending", 10));
    h.report(progress("Pending", 20));
    h.report(progress("Provisioning", 1500));
    h.report(progress("Failed", 2500, "image pull failed"));
    void h.end(false);
    expect(lines).toEqual([
      "wws: waiting up to 600 s for vm-ubuntu web in workspace demo to be ready",
      "wws: vm-ubuntu web in workspace demo: Pending after 10 ms",
      "wws: vm-ubuntu web in workspace demo: Provisioning after 1.5 s",
      "wws: vm-ubuntu web in workspace demo: Failed (image pull failed) after 2.5 s",
    ]);
  });

  it("should switch to periodic summaries when hundreds of workloads are awaited at once", () => {
    const lines: string[] = [];
    const clock = new FakeClock();
    const r = new ProgressReporter({ write: (l) => lines.push(l), clock, summaryEveryMs: 10_000, maxDetailed: 20 });
    const handles = Array.from({ length: 300 }, (_, i) => r.begin(`pod p${i}`, "to be ready", 600_000));
    handles.forEach((h, i) => h.report(progress(i % 3 === 0 ? "Pending" : "Provisioning", 5)));
    clock.advance(30_000);
    handles.forEach((h) => void h.end(true));
    clock.advance(30_000);
    // 20 detailed begin lines (before the 21st wait started) and their phase lines are all;
    // the rest is three summaries, then nothing once every wait ended.
    expect(lines.filter((l) => l.startsWith("wws: waiting up to"))).toHaveLength(20);
    const summaries = lines.filter((l) => l.startsWith("wws: still waiting"));
    expect(summaries).toEqual(
      Array(3)
        .fill("wws: still waiting for 300 workloads (200 Provisioning, 100 Pending); longest: pod p0, 30 s")
        .map((s, i) => s.replace("30 s", `${(i + 1) * 10} s`)),
    );
    expect(lines.length).toBeLessThan(30);
  });

  it("should never fail a wait because the output is broken", () => {
    const r = new ProgressReporter({
      write: () => {
        throw new Error("EPIPE");
      },
      clock: new FakeClock(),
    });
    expect(() => r.begin("x", "to be ready", 1000).report(progress("Pending", 1))).not.toThrow();
  });
});

describe("ProgressReporter on the engine's log", () => {
  type Sent = { kind: "status" | "info" | "warning"; urn: string | undefined; text: string };
  function engine(): { sent: Sent[]; log: EngineLog } {
    const sent: Sent[] = [];
    return {
      sent,
      log: {
        status: async (urn, text) => void sent.push({ kind: "status", urn, text }),
        diagnostic: async (urn, severity, text) => void sent.push({ kind: severity, urn, text }),
        close: () => undefined,
      },
    };
  }
  const URN = "urn:pulumi:dev::infra::pulumi-nodejs:dynamic/wws:Pod::web";

  it("should put each wait's status on its own row, ticking, and say how it ended", async () => {
    const e = engine();
    const clock = new FakeClock();
    const r = new ProgressReporter({ engine: e.log, clock });
    const h = r.begin("pod web in workspace demo", "to be ready", 600_000, URN);
    h.report(progress("Pending", 10));
    h.report(progress("Pending", 20)); // unchanged: nothing sent
    clock.advance(12_000);
    h.report(progress("Provisioning", 12_000, "pulling image"));
    clock.advance(1_000);
    await h.end(true);
    const row = e.sent.filter((s) => s.urn === URN);
    expect(row).toEqual([
      { kind: "status", urn: URN, text: "waiting to be ready: Pending, 0 s of 10 m" },
      { kind: "status", urn: URN, text: "waiting to be ready: Pending, 5 s of 10 m" },
      { kind: "status", urn: URN, text: "waiting to be ready: Pending, 10 s of 10 m" },
      { kind: "status", urn: URN, text: "waiting to be ready: Provisioning (pulling image), 12 s of 10 m" },
      { kind: "status", urn: URN, text: "ready after 13 s" },
    ]);
    // The summary goes to the Stack row, as a status too: nothing lands under Diagnostics.
    expect(e.sent.filter((s) => s.urn === undefined).map((s) => s.text)).toEqual([
      expect.stringMatching(/^wws: still waiting for 1 workload \(1 Pending\)/),
      expect.stringMatching(/^wws: still waiting for 1 workload \(1 Pending\)/),
      "wws: finished waiting for 1 workload",
    ]);
    // No empty status: a consumer of the events has nothing to filter.
    expect(e.sent.filter((s) => s.text === "")).toEqual([]);
    expect(e.sent.filter((s) => s.kind !== "status")).toEqual([]);
  });

  it("should name a wait whose row is unknown on the Stack row, and send nothing to the Stack row for a short wait", async () => {
    const e = engine();
    const clock = new FakeClock();
    const r = new ProgressReporter({ engine: e.log, clock });
    const h = r.begin("pod web in workspace demo", "to be gone", 600_000);
    h.report(progress("Deleting", 10));
    clock.advance(2_000);
    await h.end(true);
    expect(e.sent).toEqual([
      {
        kind: "status",
        urn: undefined,
        text: "wws: pod web in workspace demo: waiting to be gone: Deleting, 0 s of 10 m",
      },
      { kind: "status", urn: undefined, text: "wws: pod web in workspace demo: gone after 2 s" },
    ]);
    const failing = r.begin("pod db in workspace demo", "to be ready", 600_000, URN);
    clock.advance(3_000);
    await failing.end(false);
    expect(e.sent.at(-1)).toEqual({ kind: "status", urn: URN, text: "stopped waiting after 3 s" });
  });

  it("should give rows to the first waits only: with hundreds at once, the Stack row's summary counts the rest", async () => {
    const e = engine();
    const clock = new FakeClock();
    const r = new ProgressReporter({ engine: e.log, clock, maxDetailed: 20 });
    const handles = Array.from({ length: 300 }, (_, i) => r.begin(`pod p${i}`, "to be ready", 600_000, `${URN}${i}`));
    handles.forEach((h) => h.report(progress("Pending", 5)));
    clock.advance(12_000);
    handles.forEach((h) => h.report(progress("Running", 12_000)));
    await Promise.all(handles.map((h) => h.end(true)));
    const rowsOf = (i: number) => e.sent.filter((s) => s.urn === `${URN}${i}`).map((s) => s.text);
    // Pending, two ticks, Running, how it ended: on each of the first 20 rows.
    expect(rowsOf(0)).toEqual([
      "waiting to be ready: Pending, 0 s of 10 m",
      "waiting to be ready: Pending, 5 s of 10 m",
      "waiting to be ready: Pending, 10 s of 10 m",
      "waiting to be ready: Running, 12 s of 10 m",
      "ready after 12 s",
    ]);
    expect(rowsOf(19)).toHaveLength(5);
    expect(rowsOf(20)).toEqual([]);
    expect(e.sent.filter((s) => s.urn !== undefined)).toHaveLength(100);
    expect(e.sent.filter((s) => s.urn === undefined && s.text.startsWith("wws: still waiting"))).toHaveLength(2);
  });

  it("should keep warnings under Diagnostics, once, on the resource", () => {
    const e = engine();
    const r = new ProgressReporter({ engine: e.log, clock: new FakeClock() });
    r.note("warning: pod web already exists ... taken over", URN);
    r.note("pod web: restartTrigger changed, so the update restarts it", URN);
    const h = r.begin("pod web in workspace demo", "to be ready", 600_000, URN);
    const rule = { quietMs: 500, minMs: 2000, maxMs: 10_000 };
    h.report({ ...progress("Running", 2100), settling: { settleAt: 0, rule } });
    h.report({ ...progress("Running", 2200), settling: { settleAt: 0, rule } });
    expect(e.sent.filter((s) => s.kind !== "status")).toEqual([
      { kind: "warning", urn: URN, text: "pod web already exists ... taken over" },
      { kind: "info", urn: URN, text: "pod web: restartTrigger changed, so the update restarts it" },
      {
        kind: "warning",
        urn: URN,
        text: expect.stringMatching(/^pod web in workspace demo: Running, but the service shows no evidence/),
      },
    ]);
  });
});
