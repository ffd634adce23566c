import { startService, type RunningService } from "../../server";
import { API_KEY, CONTROL_TOKEN, WORKSPACE, clockOffset, percentile, seededRandom } from "../../bench/common";
import { runFanout, sustainedRate } from "../../bench/fanout";
import { measureReadiness } from "../../bench/readiness";
import { addFanout, addReadiness, fanoutMeetsTarget, newReport, render } from "../../bench/report";
import { addPulumiUp } from "../../bench/report-up";
import { parseArgs } from "../../bench/run";
import type { FleetRow } from "../../bench/fleet";
import { addFleet } from "../../bench/report-fleet";
import { scaleRuns } from "../../bench/scale";
import { addUpdateProfiles } from "../../bench/update-profiles";

/**
 * The benchmark's measurement functions at tiny sizes, against an in-process service: the shape
 * of what they report, not speed (speed is what `npm run bench` prints).
 */
describe("bench measurement functions", () => {
  let svc: RunningService;

  beforeAll(async () => {
    svc = await startService({
      port: 0,
      keys: { [WORKSPACE]: API_KEY },
      controlToken: CONTROL_TOKEN,
      reconcileMs: 150,
      heartbeatMs: 60_000,
      ringSize: 1000,
      log: false,
    });
  });
  afterAll(() => svc.close());

  it("should measure both modes and fan-out, and report every headline figure in the last line's JSON", async () => {
    const common = { url: svc.url, n: 3, rounds: 1, stepMs: 150, pollIntervalMs: 200, staggerMs: 100 };
    const stream = await measureReadiness({ ...common, mode: "stream" });
    const poll = await measureReadiness({ ...common, mode: "poll" });
    for (const r of [stream, poll]) {
      expect(r.samples + r.lateStarts).toBe(3);
      expect(Number.isFinite(r.p50Ms) && r.p50Ms >= 0).toBe(true);
      expect(r.statusGetsPerWait).toBeGreaterThan(0);
    }
    expect(stream.streamsPerWorkspace).toBe(1);
    expect(stream.streamsOpenedPerRound).toBe(1);
    expect(poll.streamsPerWorkspace).toBe(0);

    const fan = await runFanout({ url: svc.url, subscribers: 5, events: 50, ratePerSec: 1000, sampleEvery: 1 });
    expect(fan).toMatchObject({ subscribers: 5, delivered: 250, expected: 250, dropped: 0 });
    expect(Number.isFinite(fan.latencyMs.p99)).toBe(true);
    expect(fanoutMeetsTarget(fan)).toBe(false); // 5 subscribers are not the 1,000 of the target

    const report = newReport({ quick: true, pollIntervalMs: 200, stepMs: 150 });
    addReadiness(report, [stream, poll]);
    addFanout(report, [{ ...fan, label: "tiny" }]);
    addPulumiUp(report, { skipped: "not in this test" });
    const lines = render(report).split("\n");
    expect(lines.some((l) => l.startsWith("1+2 readiness  stream"))).toBe(true);
    const json = JSON.parse(lines[lines.length - 1]) as Record<string, unknown>;
    for (const key of [
      "readiness_p50_ms",
      "readiness_p99_ms",
      "poll_p50_ms",
      "ratio_p50",
      "status_gets_per_wait",
      "streams_per_workspace",
      "n",
      "fanout_events_per_sec",
      "fanout_p99_ms",
    ]) {
      expect(typeof json[key]).toBe("number");
      expect(Number.isFinite(json[key] as number)).toBe(true);
    }
    expect(json.n).toBe(3);
    expect(json.streams_per_workspace).toBe(1);
    expect(json.pulumi_up).toEqual({ skipped: "not in this test" });
    expect(Object.keys(json.targets as object)).toHaveLength(8);
  }, 15_000);

  it("should put the spec profile's stream rows beside the full profile's, with their own targets", async () => {
    const spec = await startService({
      port: 0,
      keys: { [WORKSPACE]: API_KEY },
      controlToken: CONTROL_TOKEN,
      reconcileMs: 150,
      heartbeatMs: 60_000,
      profile: "spec",
    });
    try {
      const common = { n: 3, rounds: 1, stepMs: 150, pollIntervalMs: 200, staggerMs: 100, mode: "stream" as const };
      const full = await measureReadiness({ ...common, url: svc.url });
      const specRow = { ...(await measureReadiness({ ...common, url: spec.url })), profile: "spec" as const };
      expect(specRow.samples + specRow.lateStarts).toBe(3);
      const report = newReport({ quick: true, pollIntervalMs: 200, stepMs: 150 });
      addReadiness(report, [full, specRow]);
      expect(report.rows.map((r) => r[1])).toEqual(["stream", "stream, spec profile"]);
      expect(report.json).toMatchObject({
        readiness_p50_ms: full.p50Ms,
        spec_readiness_p50_ms: specRow.p50Ms,
        spec_status_gets_per_wait: specRow.statusGetsPerWait,
      });
      expect(report.targets.map((t) => t.name)).toEqual(
        expect.arrayContaining(["status GETs per wait (stream, spec profile)", "readiness p50, spec vs full profile"]),
      );
    } finally {
      await spec.close();
    }
  }, 15_000);

  it("should report pulumi up and destroy: the 300-vs-10 ratio, the floor, 1,000 pods' memory, the diagnostic up's attribution", () => {
    const row = (
      mode: "stream" | "poll",
      pods: number,
      wallMs: number,
      cli: number,
      extra: { diagnostic?: string; op?: "up" | "destroy"; peakRssMb?: number } = {},
    ) => ({
      op: "up" as const,
      mode,
      pods,
      wallMs,
      cpuS: { cli, provider: 1, program: 1 },
      streamsOpened: mode === "stream" ? 1 : 0,
      ...extra,
    });
    const report = newReport({ quick: false, pollIntervalMs: 2000, stepMs: 1250 });
    addPulumiUp(report, {
      rows: [
        row("stream", 10, 5000, 1),
        row("stream", 10, 2000, 1, { op: "destroy" }),
        row("poll", 10, 6000, 1),
        row("stream", 300, 20_000, 15),
        row("poll", 300, 21_000, 15),
        row("stream", 1000, 90_000, 80, { peakRssMb: 310 }),
        row("stream", 300, 8000, 2, { diagnostic: "SKIP" }),
      ],
      emptyUpMs: 1500,
      serviceReadyMs: 2500,
      json: {},
    });
    const target = report.targets.find((t) => t.name.startsWith("pulumi up 300"))!;
    expect(target).toMatchObject({ value: "4×", met: false });
    expect(target.note).toBe("with SKIP: 8.0 s (1.6× of 10 pods), pulumi CLI CPU 15 s → 2 s");
    expect(report.targets.find((t) => t.name.startsWith("pulumi up 1,000"))).toMatchObject({
      value: "90.0 s, 310 MiB",
      met: false,
    });
    expect(report.json).toMatchObject({
      up_ratio_300_vs_10: 4,
      up_floor_s: 4,
      up_wall_s: { stream: { "10": 5, "300": 20, "1000": 90 }, poll: { "10": 6, "300": 21 } },
      destroy_wall_s: { "10": 2 },
    });
    expect(report.rows).toHaveLength(8); // the floor and 7 operations
    expect(report.rows.find((r) => r[0] === "3 up" && r[2] === "300 pods")?.[4]).toBe("5× floor");
  });

  it("should report the seed-only update beside the full one, against the 1.5× target", () => {
    // Medians: full 3000 ms; spec 4200 ms (1.4×) and 6100 ms (2.03×).
    for (const [spec, ratio, met] of [
      [[4000, 4500, 4200], 1.4, true],
      [[6000, 6500, 6100], 2.03, false],
    ] as const) {
      const report = newReport({ quick: false, pollIntervalMs: 2000, stepMs: 1250 });
      addUpdateProfiles(report, { pods: 10, wallMs: { full: [3000, 3100, 2900], spec: [...spec] } });
      expect(report.rows.map((r) => r[1])).toEqual(["stream, full profile", "stream, spec profile"]);
      expect(report.targets).toHaveLength(1);
      expect(report.targets[0].met).toBe(met);
      expect(report.json.update_ratio_spec_vs_full).toBe(ratio);
      expect(report.targets[0].value).toBe(`${ratio}×`);
    }
  });

  it("should report the seed-only restart beside the full one, with a target of its own", () => {
    const report = newReport({ quick: false, pollIntervalMs: 2000, stepMs: 1250 });
    addUpdateProfiles(report, {
      pods: 10,
      wallMs: { full: [3000, 3100, 2900], spec: [4000, 4500, 4200] },
      restartWallMs: { full: [2000, 2100, 1900], spec: [3300, 3000, 3400] },
    });
    expect(report.rows.map((r) => `${r[0]}: ${r[1]}`)).toEqual([
      "11 update: stream, full profile",
      "11 update: stream, spec profile",
      "11 restart: stream, full profile",
      "11 restart: stream, spec profile",
    ]);
    expect(report.json.restart_ratio_spec_vs_full).toBe(1.65);
    expect(report.targets.map((t) => [t.name, t.value, t.met])).toEqual([
      ["pulumi up of an update of 10 pods, spec vs full profile", "1.4×", true],
      ["pulumi up of a restart of 10 pods, spec vs full profile", "1.65×", false],
    ]);
  });

  it("should plan scenario 8's runs and report the fleet against its goal, the single stack beside it", () => {
    const plan = {
      single: [1000],
      fleet: { pods: 2000, stacks: 8 },
      backends: ["postgres" as const],
      fleetRuns: ["plain" as const, "skip" as const, "lz4" as const],
    };
    expect(scaleRuns(plan).map((r) => `${r.label} ${r.stacks}×${r.podsPerSlice} ${r.ops.join(",")}`)).toEqual([
      "fleet 8×250 up,preview,refresh,destroy",
      "fleet, PULUMI_SKIP_CHECKPOINTS=true 8×250 up,destroy",
      "fleet, lz4 TOAST compression 8×250 up,destroy",
      "1 stack 1×1000 up,preview,refresh,destroy",
      "1 stack, PULUMI_SKIP_CHECKPOINTS=true 1×1000 up,destroy",
    ]);
    expect(scaleRuns({ ...plan, fleet: undefined, single: [] })).toEqual([]);
    const row = (label: string, stacks: number, op: FleetRow["op"], wallMs: number, provider?: number): FleetRow => ({
      label,
      backend: "postgres",
      stacks,
      pods: 2000,
      op,
      wallMs,
      cpuS: { cli: 1, program: 1, provider: 1, "other node": 1, service: 1, postgres: 1 },
      peakRssMb: { provider },
      load: [3, 4],
      changes: {},
    });
    const report = newReport({ quick: false, pollIntervalMs: 2000, stepMs: 1250 });
    addFleet(report, [
      row("fleet", 8, "up", 150_000, 200),
      row("fleet", 8, "preview", 120_000),
      row("fleet", 8, "destroy", 90_000, 260),
      row("1 stack", 1, "up", 900_000),
      row("fleet, lz4 TOAST compression", 8, "up", 120_000),
    ]);
    expect(report.sections[0].rows).toHaveLength(5);
    expect(report.targets.map((t) => [t.name, t.met, t.note])).toEqual([
      [
        "fleet of 2000 pods in 8 stacks, PostgreSQL: up",
        true,
        "one stack of 2000: 900.0 s; with lz4 TOAST compression: 120.0 s",
      ],
      [
        "fleet of 2000 pods in 8 stacks, PostgreSQL: no-change preview",
        false,
        "one stack of 2000: not measured in this run",
      ],
      ["fleet of 2000 pods in 8 stacks, PostgreSQL: destroy", true, "one stack of 2000: not measured in this run"],
      ["fleet of 2000 pods: provider peak RSS, per process", false, undefined],
    ]);
    expect(render(report)).toContain("Scenario 8: pods at scale");
  });

  it("should read the service's clock within a ms of ours (same process here)", async () => {
    const offset = await clockOffset(svc.url, 3);
    expect(offset).toBeDefined();
    expect(Math.abs(offset!.offsetMs)).toBeLessThan(1 + offset!.uncertaintyMs);
  });

  it("should compute nearest-rank percentiles, seed its stagger, and parse its arguments", () => {
    expect(percentile([5, 1, 4, 2, 3], 50)).toBe(3);
    expect(percentile([5, 1, 4, 2, 3], 99)).toBe(5);
    expect(percentile([], 50)).toBeNaN();
    const a = seededRandom(7);
    const b = seededRandom(7);
    expect([a(), a()]).toEqual([b(), b()]);
    expect(parseArgs(["--quick", "--only=2"])).toMatchObject({ quick: true, only: new Set([2, 1]) });
    expect(() => parseArgs(["--fast"])).toThrow(/unknown argument --fast/);
    expect(parseArgs(["--only=12", "--provider-cpu-prof=/tmp/prof"])).toMatchObject({ providerCpuProf: "/tmp/prof" });
    // 5,000 events/s with a late last tick: the slope still reads 5,000.
    const timeline = Array.from({ length: 1000 }, (_, k) => 1e12 + k * 0.2);
    timeline[999] += 40;
    expect(sustainedRate(timeline)).toBeCloseTo(5000, 0);
    expect(sustainedRate([1, 2])).toBeUndefined();
  });
});
