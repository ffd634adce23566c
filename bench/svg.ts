import type { PulumiUpResult } from "./pulumi-up";
import type { ReadinessResult } from "./readiness";

/**
 * The picture of a run, as plain SVG text (no chart library): on the left, the readiness latency
 * distributions (share of waits done by a latency, log scale), stream vs poll-only; on the right,
 * the wall of `pulumi up` and `destroy` against N, with the floor and 3× the wall of 10 pods.
 */

const W = 980;
const H = 400;
const PANEL = { top: 48, bottom: 330, width: 400 };
const LEFT_X = 70;
const RIGHT_X = 560;
const COLORS = { stream: ["#1b7837", "#5aae61", "#a6dba0"], poll: ["#762a83", "#9970ab", "#c2a5cf"] };

const esc = (s: string): string => s.replace(/&/g, "&amp;").replace(/</g, "&lt;").replace(/>/g, "&gt;");
const f1 = (n: number): string => n.toFixed(1);

/** x of a value on a log axis from `lo` to `hi` over `width` pixels from `x0`. */
function logX(v: number, lo: number, hi: number, x0: number, width: number): number {
  const c = Math.min(Math.max(v, lo), hi);
  return x0 + (width * (Math.log10(c) - Math.log10(lo))) / (Math.log10(hi) - Math.log10(lo));
}

function text(x: number, y: number, s: string, attrs = ""): string {
  return `<text x="${f1(x)}" y="${f1(y)}" ${attrs}>${esc(s)}</text>`;
}

function axes(
  x0: number,
  ticks: Array<{ x: number; label: string }>,
  yTicks: Array<{ y: number; label: string }>,
  xTitle: string,
  yTitle: string,
): string[] {
  const out = [
    `<line x1="${x0}" y1="${PANEL.bottom}" x2="${x0 + PANEL.width}" y2="${PANEL.bottom}" stroke="#333"/>`,
    `<line x1="${x0}" y1="${PANEL.top}" x2="${x0}" y2="${PANEL.bottom}" stroke="#333"/>`,
  ];
  for (const t of ticks) {
    out.push(
      `<line x1="${f1(t.x)}" y1="${PANEL.top}" x2="${f1(t.x)}" y2="${PANEL.bottom}" stroke="#eee"/>`,
      text(t.x, PANEL.bottom + 16, t.label, 'text-anchor="middle"'),
    );
  }
  for (const t of yTicks) {
    out.push(
      `<line x1="${x0}" y1="${f1(t.y)}" x2="${x0 + PANEL.width}" y2="${f1(t.y)}" stroke="#eee"/>`,
      text(x0 - 6, t.y + 4, t.label, 'text-anchor="end"'),
    );
  }
  out.push(text(x0 + PANEL.width / 2, PANEL.bottom + 36, xTitle, 'text-anchor="middle"'));
  out.push(
    text(
      x0 - 48,
      (PANEL.top + PANEL.bottom) / 2,
      yTitle,
      `text-anchor="middle" transform="rotate(-90 ${x0 - 48} ${(PANEL.top + PANEL.bottom) / 2})"`,
    ),
  );
  return out;
}

/** Left panel: one step curve per (mode, N) of the share of waits done by each latency. */
function readinessPanel(results: ReadinessResult[], pollIntervalMs: number): string[] {
  const [lo, hi] = [1, 4000];
  const x = (ms: number): number => logX(ms, lo, hi, LEFT_X, PANEL.width);
  const y = (share: number): number => PANEL.bottom - share * (PANEL.bottom - PANEL.top);
  const out = [
    text(LEFT_X, 28, "Readiness latency: share of waits done (Running → waiter resolved)", 'font-weight="bold"'),
  ];
  out.push(
    ...axes(
      LEFT_X,
      [1, 10, 100, 1000].map((v) => ({ x: x(v), label: v >= 1000 ? `${v / 1000} s` : `${v} ms` })),
      [0, 0.25, 0.5, 0.75, 1].map((v) => ({ y: y(v), label: `${Math.round(v * 100)}%` })),
      "latency (log scale)",
      "waits done",
    ),
  );
  const drawn = results.filter((r) => (r.latenciesMs?.length ?? 0) > 0);
  if (drawn.length === 0) out.push(text(LEFT_X + 20, PANEL.top + 30, "readiness not measured in this run"));
  const legend: string[] = [];
  const index = { stream: 0, poll: 0 };
  drawn.forEach((r, i) => {
    const lat = r.latenciesMs ?? [];
    const color = COLORS[r.mode][index[r.mode]++ % 3];
    const points = lat.map((v, k) => `${f1(x(v))},${f1(y((k + 1) / lat.length))}`);
    out.push(
      `<polyline fill="none" stroke="${color}" stroke-width="2" points="${f1(x(lat[0]))},${f1(y(0))} ${points.join(" ")}"/>`,
    );
    const label = `${r.mode === "poll" ? `poll ${pollIntervalMs / 1000} s` : "stream"}, N = ${r.n}: p50 ${Math.round(r.p50Ms)} ms, p99 ${Math.round(r.p99Ms)} ms`;
    legend.push(
      `<rect x="${LEFT_X + 8}" y="${PANEL.top + 6 + i * 16}" width="12" height="3" fill="${color}"/>`,
      text(LEFT_X + 24, PANEL.top + 12 + i * 16, label),
    );
  });
  // The legend over the curves, on a white ground.
  if (drawn.length > 0)
    out.push(
      `<rect x="${LEFT_X + 4}" y="${PANEL.top + 1}" width="290" height="${drawn.length * 16 + 4}" fill="#fff" fill-opacity="0.85"/>`,
      ...legend,
    );
  return out;
}

/** Right panel: wall of `up` and `destroy` against N (log-log), the floor and 3× the 10-pod wall. */
function upPanel(up: PulumiUpResult | undefined): string[] {
  const out = [text(RIGHT_X, 28, "pulumi up / destroy of N pods (stream mode, file backend)", 'font-weight="bold"')];
  const rows = (up?.rows ?? []).filter((r) => !r.diagnostic && r.mode === "stream");
  const ups = rows.filter((r) => r.op === "up").sort((a, b) => a.pods - b.pods);
  const destroys = rows.filter((r) => r.op === "destroy").sort((a, b) => a.pods - b.pods);
  const floorMs = up?.emptyUpMs !== undefined ? up.emptyUpMs + up.serviceReadyMs : undefined;
  const maxS = Math.max(10, ...rows.map((r) => r.wallMs / 1000)) * 1.15;
  const x = (n: number): number => logX(n, 5, 2000, RIGHT_X, PANEL.width);
  const y = (s: number): number => PANEL.bottom - (s / maxS) * (PANEL.bottom - PANEL.top);
  const step = maxS > 200 ? 60 : maxS > 60 ? 20 : maxS > 20 ? 5 : 2;
  const yTicks = Array.from({ length: Math.floor(maxS / step) + 1 }, (_, k) => ({
    y: y(k * step),
    label: `${k * step} s`,
  }));
  out.push(
    ...axes(
      RIGHT_X,
      [10, 100, 300, 1000].map((n) => ({ x: x(n), label: String(n) })),
      yTicks,
      "pods (log scale)",
      "wall",
    ),
  );
  if (ups.length === 0) {
    out.push(text(RIGHT_X + 20, PANEL.top + 30, "pulumi up not measured in this run"));
    return out;
  }
  const line = (rs: typeof rows, color: string, labelDy: number): void => {
    out.push(
      `<polyline fill="none" stroke="${color}" stroke-width="2" points="${rs.map((r) => `${f1(x(r.pods))},${f1(y(r.wallMs / 1000))}`).join(" ")}"/>`,
    );
    for (const r of rs)
      out.push(
        `<circle cx="${f1(x(r.pods))}" cy="${f1(y(r.wallMs / 1000))}" r="3" fill="${color}"/>`,
        text(x(r.pods) + 5, y(r.wallMs / 1000) + labelDy, `${(r.wallMs / 1000).toFixed(1)} s`, `fill="${color}"`),
      );
  };
  const legend: Array<[string, string]> = [];
  const ten = ups.find((r) => r.pods === 10);
  if (ten) {
    out.push(
      `<line x1="${RIGHT_X}" y1="${f1(y((3 * ten.wallMs) / 1000))}" x2="${RIGHT_X + PANEL.width}" y2="${f1(y((3 * ten.wallMs) / 1000))}" stroke="#d6604d" stroke-dasharray="6 4"/>`,
    );
    legend.push(["#d6604d", "target: 3× the up of 10 pods"]);
  }
  if (floorMs !== undefined) {
    out.push(
      `<line x1="${RIGHT_X}" y1="${f1(y(floorMs / 1000))}" x2="${RIGHT_X + PANEL.width}" y2="${f1(y(floorMs / 1000))}" stroke="#777" stroke-dasharray="2 3"/>`,
    );
    legend.push(["#777", "floor: up of no resource + service to Running"]);
  }
  line(ups, "#2166ac", -6);
  legend.unshift(["#2166ac", "pulumi up"]);
  if (destroys.length > 0) {
    line(destroys, "#4393c3", 14);
    legend.splice(1, 0, ["#4393c3", "pulumi destroy"]);
  }
  legend.forEach(([color, label], i) =>
    out.push(
      `<rect x="${RIGHT_X + 8}" y="${PANEL.top + 6 + i * 16}" width="12" height="3" fill="${color}"/>`,
      text(RIGHT_X + 24, PANEL.top + 12 + i * 16, label),
    ),
  );
  return out;
}

export function renderSvg(options: {
  readiness: ReadinessResult[];
  up?: PulumiUpResult;
  pollIntervalMs: number;
  caption: string;
}): string {
  return [
    `<svg xmlns="http://www.w3.org/2000/svg" width="${W}" height="${H}" viewBox="0 0 ${W} ${H}" font-family="sans-serif" font-size="11">`,
    `<rect width="${W}" height="${H}" fill="#fff"/>`,
    ...readinessPanel(options.readiness, options.pollIntervalMs),
    ...upPanel(options.up),
    text(LEFT_X - 50, H - 12, options.caption, 'fill="#555"'),
    "</svg>",
    "",
  ].join("\n");
}
