import { dirname, join, resolve } from "node:path";
import { median, round, spawnService } from "./common";
import { pulumiBinDir, repoRoot } from "./pulumi-up";
import { newBenchStack, type BenchStack, type OpCost } from "./pulumi-stack";
import { s1, type Report } from "./report";
import { EXIT_ON_SIGINT_ENV } from "./usage-hook";

/**
 * Scenario 12: refresh against the engine's floor. `pulumi refresh` of N pods, and of N dynamic
 * resources whose provider does nothing (what the engine costs a refresh of N dynamic resources on
 * its own), side by side in one run, rounds alternating; optionally the same with another built
 * checkout (`--floor-compare=DIR`, e.g. the previous release's), so that both ratios come from one
 * machine under one load. A refresh is a read per resource; what the provider adds beyond it (a
 * process spawned, a config decrypted) shows here. Target: ≤ 1.3× the floor in wall and in CPU (the
 * CLI, the provider process and this process; the service's own CPU left out, the floor has none).
 */

export const FLOOR_RATIO_TARGET = 1.3;

export interface FloorRow {
  /** `this checkout`, or the compared one's directory. */
  label: string;
  resources: number;
  /** Per round, wall and CPU (s) of the pods' refresh and of the floor's. */
  pods: OpCost[];
  floor: OpCost[];
}

/** A label as a directory name: `this checkout` → `this_checkout`. */
const slug = (label: string): string => label.replace(/[^A-Za-z0-9]+/g, "_").replace(/^_|_$/g, "");

/** Until the returned function is called, the processes the stack's CLI starts write CPU profiles into `dir`. */
function profiling(s: BenchStack, dir: string): () => void {
  const env = s.stack.workspace.envVars;
  const plain = env.NODE_OPTIONS;
  env.NODE_OPTIONS = `${plain ?? ""} --cpu-prof --cpu-prof-dir=${dir}`.trim();
  env[EXIT_ON_SIGINT_ENV] = "1";
  return () => {
    delete env[EXIT_ON_SIGINT_ENV];
    if (plain === undefined) delete env.NODE_OPTIONS;
    else env.NODE_OPTIONS = plain;
  };
}

/** CLI + provider + this process: the engine's side and ours, not the service's. */
const cpuOf = (c: OpCost): number => (c.cpuS.cli ?? 0) + (c.cpuS.provider ?? 0) + c.cpuS.program;

/** Where the CPU went: which process to look at when the ratio misses. */
const cpuSplit = (c: OpCost): string =>
  `CLI ${c.cpuS.cli ?? "?"} s, provider ${c.cpuS.provider ?? "?"} s, this process ${c.cpuS.program} s`;

/** Measures each root's refresh of `resources` pods and of `resources` no-op dynamic resources. */
export async function runFloor(options: {
  resources: number;
  rounds: number;
  /** Built checkouts to compare (their dist/ and node_modules/@pulumi), besides this one. */
  compare?: string[];
  /**
   * Where each refresh's processes write a CPU profile (`--cpu-prof`, through the `NODE_OPTIONS` the
   * CLI hands the dynamic provider host), one directory per refresh; the largest file is the
   * provider's. A profiled run's figures are not the target's.
   */
  cpuProfDir?: string;
  progress?: (line: string) => void;
}): Promise<FloorRow[]> {
  const auto = await import("@pulumi/pulumi/automation");
  const pulumiCommand = await auto.PulumiCommand.get({ root: dirname(pulumiBinDir()) });
  const svc = await spawnService({ reconcileMs: 20 });
  const roots = [
    { label: "this checkout", root: repoRoot() },
    ...(options.compare ?? []).map((d) => ({ label: d, root: resolve(d) })),
  ];
  const n = options.resources;
  const stacks: Array<{ label: string; kind: "pods" | "floor"; s: Awaited<ReturnType<typeof newBenchStack>> }> = [];
  try {
    for (const [i, { label, root }] of roots.entries()) {
      const common = {
        root,
        pulumiBinDir: pulumiBinDir(),
        url: svc.url,
        mode: "stream" as const,
        pollIntervalMs: 2000,
      };
      const pods = await newBenchStack(auto, pulumiCommand, {
        ...common,
        servicePid: svc.child.pid,
        program: async () => {
          // Each root's own classes: the provider they serialize loads that root's implementation.
          // eslint-disable-next-line @typescript-eslint/no-require-imports
          const { Pod } = require(join(root, "dist", "provider")) as typeof import("../provider");
          for (let k = 0; k < n; k++)
            new Pod(`p-${k}`, { workloadId: `floor${process.pid}r${i}-${k}`, image: "nginx:1.27" });
        },
      });
      const floor = await newBenchStack(auto, pulumiCommand, {
        ...common,
        program: async () => {
          // eslint-disable-next-line @typescript-eslint/no-require-imports
          const pulumi = require(join(root, "node_modules", "@pulumi", "pulumi")) as typeof import("@pulumi/pulumi");
          const noop: import("@pulumi/pulumi").dynamic.ResourceProvider = {
            create: async (inputs) => ({ id: String(inputs.name), outs: inputs }),
            read: async (id, props) => ({ id, props }),
          };
          class Noop extends pulumi.dynamic.Resource {
            constructor(name: string) {
              super(noop, name, { name }, {});
            }
          }
          for (let k = 0; k < n; k++) new Noop(`f-${k}`);
        },
      });
      stacks.push({ label, kind: "pods", s: pods }, { label, kind: "floor", s: floor });
    }
    for (const { s } of stacks) await s.stack.up({ parallel: n });
    const rows: FloorRow[] = roots.map(({ label }) => ({ label, resources: n, pods: [], floor: [] }));
    for (let r = 0; r < options.rounds; r++) {
      // Alternating the order: a shared machine's load drifts, and no stack always goes first.
      const order = r % 2 === 0 ? stacks : [...stacks].reverse();
      for (const { label, kind, s } of order) {
        const dir = options.cpuProfDir;
        const profiled =
          dir === undefined ? undefined : profiling(s, join(resolve(dir), `${slug(label)}-${kind}-${r + 1}`));
        const { cost } = await s.measure(() => s.stack.refresh({ parallel: n }));
        profiled?.();
        options.progress?.(
          `pulumi refresh of ${n} ${kind === "pods" ? "pods" : "no-op resources"} (${label}): ${s1(cost.wallMs)}, CPU ${round(cpuOf(cost), 2)} s (${cpuSplit(cost)})`,
        );
        rows.find((x) => x.label === label)![kind].push(cost);
      }
    }
    for (const { s } of stacks) await s.stack.destroy({ parallel: n });
    return rows;
  } finally {
    for (const { s } of stacks) s.cleanup();
    await svc.stop();
  }
}

/** The ratios of median wall and CPU, pods over floor. */
export function floorRatios(row: FloorRow): { wall: number; cpu: number } {
  const m = (costs: OpCost[], f: (c: OpCost) => number): number => median(costs.map(f));
  return {
    wall: round(m(row.pods, (c) => c.wallMs) / m(row.floor, (c) => c.wallMs), 2),
    cpu: round(m(row.pods, cpuOf) / m(row.floor, cpuOf), 2),
  };
}

export function addFloor(report: Report, rows: FloorRow[]): void {
  const json: Record<string, unknown> = {};
  for (const row of rows) {
    const ratio = floorRatios(row);
    for (const kind of ["pods", "floor"] as const)
      report.rows.push([
        "12 refresh vs floor",
        `${row.label}, ${kind === "pods" ? "pods" : "no-op dynamic resources"}`,
        `${row.resources}`,
        `${s1(median(row[kind].map((c) => c.wallMs)))} wall (median)`,
        `${round(median(row[kind].map(cpuOf)), 2)} s CPU`,
        "-",
        "-",
        kind === "pods" ? `${ratio.wall}× wall, ${ratio.cpu}× CPU of the floor` : "-",
      ]);
    json[row.label] = {
      wall_ratio: ratio.wall,
      cpu_ratio: ratio.cpu,
      pods_wall_s: row.pods.map((c) => round(c.wallMs / 1000, 2)),
      floor_wall_s: row.floor.map((c) => round(c.wallMs / 1000, 2)),
      pods_cpu_s: row.pods.map((c) => round(cpuOf(c), 2)),
      floor_cpu_s: row.floor.map((c) => round(cpuOf(c), 2)),
      pods_cpu_split: row.pods.map(cpuSplit),
      floor_cpu_split: row.floor.map(cpuSplit),
    };
  }
  report.json.refresh_floor = json;
  const ours = floorRatios(rows[0]);
  report.targets.push({
    name: `pulumi refresh of ${rows[0].resources} pods against the engine's floor (wall, CPU)`,
    target: `≤ ${FLOOR_RATIO_TARGET}× both`,
    value: `${ours.wall}×, ${ours.cpu}×`,
    met: ours.wall <= FLOOR_RATIO_TARGET && ours.cpu <= FLOOR_RATIO_TARGET,
  });
}
