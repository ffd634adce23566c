import { dirname } from "node:path";
import { ControlClient } from "../server/control-client";
import { CONTROL_TOKEN, round, spawnService } from "./common";
import { pulumiBinDir, streamStackOn } from "./pulumi-up";
import type { OpCost } from "./pulumi-stack";
import { s1, type Report } from "./report";

/** The operations of scenario 9, in the order each stack runs them. */
export const LATENCY_OPS = ["preview (new)", "up", "preview (no changes)", "refresh", "destroy"] as const;
export type LatencyOp = (typeof LATENCY_OPS)[number];

export interface LatencyRow {
  latencyMs: number;
  op: LatencyOp;
  pods: number;
  cost: OpCost;
  /** Requests the service answered during the operation (event streams counted when they close). */
  requests: number;
}

/** `+1.2 s`, `-0.3 s`: a difference of walls. */
const signed = (ms: number): string => `${ms < 0 ? "-" : "+"}${s1(Math.abs(ms))}`;

/**
 * Scenario 9: far from the service. The same stack of `pods` new pods, one after the other against
 * one service, with each of `latenciesMs` added to every answer (the local service's injected
 * latency, `PUT /_control/faults {latencyMs}`): `pulumi preview` of the new stack, `pulumi up` at
 * `--parallel <pods>`, an unchanged `preview`, `refresh` and `destroy`. What latency costs is the
 * round trips an operation makes in series: a read per resource in `check`, which the engine calls
 * one resource at a time, costs `pods` × the latency; reads shared by the whole deployment, or
 * made in parallel steps, cost it once.
 */
export async function runLatency(options: {
  pods: number;
  latenciesMs: number[];
  stepMs: number;
  progress?: (line: string) => void;
}): Promise<{ rows: LatencyRow[]; json: Record<string, unknown> }> {
  const auto = await import("@pulumi/pulumi/automation");
  const pulumiCommand = await auto.PulumiCommand.get({ root: dirname(pulumiBinDir()) });
  const svc = await spawnService({ reconcileMs: options.stepMs });
  const ctl = new ControlClient(svc.url, CONTROL_TOKEN);
  const rows: LatencyRow[] = [];
  try {
    for (const latencyMs of options.latenciesMs) {
      const prefix = `lat${latencyMs}p${process.pid}`;
      const program = async (): Promise<void> => {
        const { Pod } = await import("../provider");
        for (let i = 0; i < options.pods; i++)
          new Pod(`p-${i}`, { workloadId: `${prefix}-${i}`, image: "nginx:1.27", readyTimeoutSeconds: 300 });
      };
      const s = await streamStackOn(auto, pulumiCommand, svc, program);
      try {
        if (latencyMs > 0) await ctl.setFaults({ latencyMs });
        else await ctl.clearFaults();
        const parallel = options.pods;
        const run: Record<LatencyOp, () => Promise<unknown>> = {
          "preview (new)": () => s.stack.preview({ parallel }),
          up: () => s.stack.up({ parallel }),
          "preview (no changes)": () => s.stack.preview({ parallel }),
          refresh: () => s.stack.refresh({ parallel }),
          destroy: () => s.stack.destroy({ parallel }),
        };
        for (const op of LATENCY_OPS) {
          await ctl.resetCounters();
          const { cost } = await s.measure(run[op]);
          const requests = (await ctl.counters()).requests.total;
          options.progress?.(
            `latency ${latencyMs} ms: pulumi ${op} of ${options.pods} pods: ${s1(cost.wallMs)}, ${requests} requests`,
          );
          rows.push({ latencyMs, op, pods: options.pods, cost, requests });
        }
      } finally {
        await ctl.clearFaults();
        s.cleanup();
      }
    }
  } finally {
    await svc.stop();
  }
  const wallS = (latencyMs: number, op: LatencyOp): number | undefined => {
    const r = rows.find((x) => x.latencyMs === latencyMs && x.op === op);
    return r ? round(r.cost.wallMs / 1000, 2) : undefined;
  };
  return {
    rows,
    json: {
      pods: options.pods,
      latencies_ms: options.latenciesMs,
      wall_s: Object.fromEntries(
        LATENCY_OPS.map((op) => [op, Object.fromEntries(options.latenciesMs.map((l) => [l, wallS(l, op)]))]),
      ),
      requests: Object.fromEntries(
        LATENCY_OPS.map((op) => [
          op,
          Object.fromEntries(rows.filter((r) => r.op === op).map((r) => [r.latencyMs, r.requests])),
        ]),
      ),
    },
  };
}

/** Why an operation still pays for latency, for the report: what remains after this change. */
const REMAINS: Record<LatencyOp, string> = {
  "preview (new)": "one read of the workspace for the deployment (the connection check's), shared by every check",
  up: "per pod, in parallel steps: its id's status (the create's proof), its upsert and the wait's status reads (after the stream's events); the checks share the workspace reads (one per 5 s at most)",
  "preview (no changes)": "one read of the workspace for the deployment: nothing per resource (the diff is local)",
  refresh: "per pod, in parallel steps: a status read beside the shared spec read",
  destroy: "per pod, in parallel steps: the delete and its wait until /status answers 404",
};

/** Scenario 9's table: each operation at each latency, its ratio to the first (loopback), and the goals. */
export function addLatency(report: Report, result: { rows: LatencyRow[]; json: Record<string, unknown> }): void {
  const latencies = [...new Set(result.rows.map((r) => r.latencyMs))];
  const base = latencies[0];
  const pods = result.rows[0]?.pods ?? 0;
  const rowOf = (l: number, op: LatencyOp): LatencyRow | undefined =>
    result.rows.find((r) => r.latencyMs === l && r.op === op);
  const rows = LATENCY_OPS.map((op) => {
    const cells = latencies.map((l) => {
      const r = rowOf(l, op);
      return r ? `${s1(r.cost.wallMs)} (${r.requests} req)` : "-";
    });
    const ratios = latencies.slice(1).map((l) => {
      const [a, b] = [rowOf(l, op)?.cost.wallMs, rowOf(base, op)?.cost.wallMs];
      return a !== undefined && b !== undefined && b > 0 ? `${(a / b).toFixed(2)}× (${signed(a - b)})` : "-";
    });
    return [op, ...cells, ...ratios, REMAINS[op]];
  });
  report.sections.push({
    title: `9 far from the service: ${pods} new pods, each latency added to every answer of the service (one run, one after the other)`,
    columns: [
      "operation",
      ...latencies.map((l) => `${l} ms per answer`),
      ...latencies.slice(1).map((l) => `${l} ms vs ${base} ms`),
      "what still pays the latency",
    ],
    rows,
  });
  const far = latencies.at(-1);
  if (far === undefined || far === base) return;
  const wall = (l: number, op: LatencyOp): number | undefined => rowOf(l, op)?.cost.wallMs;
  const [pNear, pFar, uNear, uFar] = [
    wall(base, "preview (new)"),
    wall(far, "preview (new)"),
    wall(base, "up"),
    wall(far, "up"),
  ];
  if (pNear !== undefined && pFar !== undefined)
    report.targets.push({
      name: `preview of ${pods} new pods, ${far} ms per answer`,
      target: `≤ the ${base} ms run + 1.5 s`,
      value: `${s1(pFar)} against ${s1(pNear)} (${signed(pFar - pNear)})`,
      met: pFar <= pNear + 1500,
    });
  if (uNear !== undefined && uFar !== undefined)
    report.targets.push({
      name: `up of ${pods} pods at --parallel ${pods}, ${far} ms per answer`,
      target: `≤ 1.5× the ${base} ms run`,
      value: `${s1(uFar)} against ${s1(uNear)} (${(uFar / uNear).toFixed(2)}×)`,
      met: uFar <= 1.5 * uNear,
    });
  report.json.latency = result.json;
}
