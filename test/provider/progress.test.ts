import { ProgressReporter } from "../../provider/dynamic/progress";
import type { Clock, WorkloadStatus } from "../../sdk";

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
    h.end();
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
    handles.forEach((h) => h.end());
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
