import { spawnService } from "./common";
import { runFleet, type Backend, type FleetRow, type FleetRunPlan } from "./fleet";
import { startPostgres, type Postgres } from "./postgres";
import { pulumiBinDir, repoRoot } from "./pulumi-up";

export interface ScalePlan {
  /** Pods of one stack: the single-stack curve (none: left out). */
  single: number[];
  /** The fleet: this many pods split evenly into `stacks` stacks (undefined: left out). */
  fleet?: { pods: number; stacks: number };
  backends: Backend[];
  /**
   * `up` of one stack of this many pods at the CLI's default `--parallel` and at `--parallel` = the
   * pods, alternating, twice each (0: left out).
   */
  parallelPods: number;
}

const ALL_OPS = ["up", "preview", "refresh", "destroy"] as const;
/** The engine's share: the same up and destroy without its checkpoint after every step. */
const SKIP_CHECKPOINTS = { label: "PULUMI_SKIP_CHECKPOINTS=true", env: { PULUMI_SKIP_CHECKPOINTS: "true" } };

/**
 * Which runs scenario 7 makes, in order: the fleet first (the goal) with its diagnostics (without
 * checkpoints; on PostgreSQL, with lz4 TOAST compression), then `--parallel`, then the
 * single-stack curve.
 */
export function scaleRuns(plan: ScalePlan): FleetRunPlan[] {
  const runs: FleetRunPlan[] = [];
  if (plan.fleet) {
    const { pods, stacks } = plan.fleet;
    const fleet = { stacks, podsPerSlice: Math.ceil(pods / stacks) };
    for (const backend of plan.backends) {
      runs.push({ label: "fleet", backend, ...fleet, ops: [...ALL_OPS] });
      runs.push({
        ...SKIP_CHECKPOINTS,
        label: `fleet, ${SKIP_CHECKPOINTS.label}`,
        backend,
        ...fleet,
        ops: ["up", "destroy"],
      });
      if (backend === "postgres")
        runs.push({
          label: "fleet, lz4 TOAST compression",
          backend,
          ...fleet,
          ops: ["up", "destroy"],
          databaseSettings: { default_toast_compression: "lz4" },
        });
    }
  }
  const backend = plan.backends.includes("postgres") ? "postgres" : plan.backends[0];
  if (plan.parallelPods > 0)
    for (const parallel of ["default", plan.parallelPods, "default", plan.parallelPods] as const)
      runs.push({
        label: `--parallel ${parallel}`,
        backend,
        stacks: 1,
        podsPerSlice: plan.parallelPods,
        ops: ["up"],
        parallel,
      });
  for (const backend of plan.backends) {
    for (const n of plan.single) {
      runs.push({ label: "1 stack", backend, stacks: 1, podsPerSlice: n, ops: [...ALL_OPS] });
      runs.push({
        ...SKIP_CHECKPOINTS,
        label: `1 stack, ${SKIP_CHECKPOINTS.label}`,
        backend,
        stacks: 1,
        podsPerSlice: n,
        ops: ["up", "destroy"],
      });
    }
  }
  return runs;
}

/** Scenario 7 against one service process (Running two reconcile steps after each create) and, when needed, one PostgreSQL. */
export async function runScale(
  plan: ScalePlan,
  options: { stepMs: number; progress?: (line: string) => void },
): Promise<{ rows: FleetRow[]; failures: string[] }> {
  const svc = await spawnService({ reconcileMs: options.stepMs });
  let pg: Postgres | undefined;
  const rows: FleetRow[] = [];
  const failures: string[] = [];
  try {
    if (plan.backends.includes("postgres")) pg = await startPostgres();
    const ctx = {
      root: repoRoot(),
      pulumiBinDir: pulumiBinDir(),
      serviceUrl: svc.url,
      servicePid: svc.child.pid,
      postgres: pg,
      progress: options.progress,
    };
    for (const run of scaleRuns(plan)) {
      // A run that fails is reported and the next one runs: a full scenario takes hours.
      const done = await runFleet(ctx, run).catch((err: unknown) => {
        failures.push(`${run.label}, ${run.backend}, ${run.stacks} × ${run.podsPerSlice}: ${String(err)}`);
        options.progress?.(`FAILED: ${failures[failures.length - 1]}`);
        return [];
      });
      rows.push(...done);
    }
  } finally {
    pg?.stop();
    await svc.stop();
  }
  return { rows, failures };
}
