import { renderSvg } from "../../bench/svg";
import type { PulumiUpResult, UpRow } from "../../bench/pulumi-up";
import type { ReadinessResult } from "../../bench/readiness";

const readiness = (mode: "stream" | "poll", n: number, latenciesMs: number[]): ReadinessResult =>
  ({
    mode,
    n,
    latenciesMs,
    p50Ms: latenciesMs[Math.floor(latenciesMs.length / 2)],
    p99Ms: latenciesMs[latenciesMs.length - 1],
  }) as ReadinessResult;
const row = (op: "up" | "destroy", pods: number, wallMs: number, diagnostic?: string): UpRow => ({
  op,
  mode: "stream",
  pods,
  wallMs,
  ...(diagnostic ? { diagnostic } : {}),
});

describe("the bench's picture", () => {
  it("should draw one distribution per readiness row and the up and destroy walls against N, with the floor and the 3× line", () => {
    const up: PulumiUpResult = {
      rows: [
        row("up", 10, 6000),
        row("destroy", 10, 3000),
        row("up", 300, 15_000),
        row("destroy", 300, 9000),
        row("up", 300, 9000, "SKIP"),
      ],
      emptyUpMs: 2800,
      serviceReadyMs: 2500,
      json: {},
    };
    const svg = renderSvg({
      readiness: [readiness("stream", 500, [9, 12, 40]), readiness("poll", 500, [300, 1000, 1900])],
      up,
      pollIntervalMs: 2000,
      caption: "a <test> run",
    });
    expect(svg.startsWith("<svg xmlns=")).toBe(true);
    expect(svg.match(/<polyline /g)).toHaveLength(4); // two distributions, up, destroy (not the diagnostic up)
    expect(svg).toContain(">stream, N = 500: p50 12 ms, p99 40 ms</text>");
    expect(svg).toContain(">poll 2 s, N = 500: p50 1000 ms, p99 1900 ms</text>");
    expect(svg).toContain(">15.0 s</text>");
    expect(svg).toContain(">target: 3× the up of 10 pods</text>");
    expect(svg).toContain(">floor: up of no resource + service to Running</text>");
    expect(svg).toContain(">a &lt;test&gt; run</text>");
  });

  it("should say what a run did not measure", () => {
    const svg = renderSvg({ readiness: [], pollIntervalMs: 2000, caption: "" });
    expect(svg).toContain("readiness not measured in this run");
    expect(svg).toContain("pulumi up not measured in this run");
  });
});
