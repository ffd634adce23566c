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
  /** Which of the fleet's runs (each on every backend; `lz4` on PostgreSQL only). */
  fleetRuns: FleetVariant[];
}

export const FLEET_VARIANTS = ["plain", "skip", "lz4"] as const;
/** The fleet as it is; without checkpoints (the engine's share); with lz4 TOAST compression on PostgreSQL. */
export type FleetVariant = (typeof FLEET_VARIANTS)[number];

const ALL_OPS = ["up", "preview", "refresh", "destroy"] as const;
/** The engine's share: the same up and destroy without its checkpoint after every step. */
const SKIP_CHECKPOINTS = { label: "PULUMI_SKIP_CHECKPOINTS=true", env: { PULUMI_SKIP_CHECKPOINTS: "true" } };

/**
 * Which runs scenario 8 makes, in order: the fleet first (the goal) with its diagnostics (without
 * checkpoints; on PostgreSQL, with lz4 TOAST compression), then the single-stack curve. (Scenario 7
 * measures `--parallel`.)
 */
export function scaleRuns(plan: ScalePlan): FleetRunPlan[] {
  const runs: FleetRunPlan[] = [];
  if (plan.fleet) {
    const { pods, stacks } = plan.fleet;
    const fleet = { stacks, podsPerSlice: Math.ceil(pods / stacks) };
    const has = (v: FleetVariant): boolean => plan.fleetRuns.includes(v);
    for (const backend of plan.backends) {
      if (has("plain")) runs.push({ label: "fleet", backend, ...fleet, ops: [...ALL_OPS] });
      if (has("skip"))
        runs.push({
          ...SKIP_CHECKPOINTS,
          label: `fleet, ${SKIP_CHECKPOINTS.label}`,
          backend,
          ...fleet,
          ops: ["up", "destroy"],
        });
      if (has("lz4") && backend === "postgres")
        runs.push({
          label: "fleet, lz4 TOAST compression",
          backend,
          ...fleet,
          // Every operation when it stands alone: then it is the fleet's own figures.
          ops: has("plain") ? ["up", "destroy"] : [...ALL_OPS],
          databaseSettings: { default_toast_compression: "lz4" },
        });
    }
  }
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

/** Scenario 8 against one service process (Running two reconcile steps after each create) and, when needed, one PostgreSQL. */
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
