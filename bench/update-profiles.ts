import { dirname } from "node:path";
import { median, round, spawnService } from "./common";
import { pulumiBinDir, streamStackOn } from "./pulumi-up";
import { s1, type Report } from "./report";

/**
 * Scenario 11: the seed-only update and restart. `pulumi up` of an update (every pod's image
 * changed), then of a restart (every pod's `restartTrigger` changed), against the local service's
 * full profile and its `spec` profile, side by side in one run. The spec profile gives only what
 * the published spec promises: no generation, no `restartCount`, no `updatedAt`, activity rows that
 * name no workload; its waits see a phase change (`Restarting`) or take the settle rule's way
 * (`sdk/wait/settle.ts`), which costs at least its 2 s minimum. The target: the spec profile's update
 * and restart each within 1.5× of the full one's.
 */

export const UPDATE_RATIO_TARGET = 1.5;

export interface UpdateProfilesResult {
  pods: number;
  /** Wall of each round's update, per profile, in the order measured. */
  wallMs: { full: number[]; spec: number[] };
  /** Wall of each round's restart, per profile; absent in reports of runs that measured none. */
  restartWallMs?: { full: number[]; spec: number[] };
}

export async function runUpdateProfiles(options: {
  pods: number;
  rounds: number;
  /** The services' reconcile step. @default the local service's own (400 ms) */
  stepMs?: number;
  progress?: (line: string) => void;
}): Promise<UpdateProfilesResult> {
  const auto = await import("@pulumi/pulumi/automation");
  const pulumiCommand = await auto.PulumiCommand.get({ root: dirname(pulumiBinDir()) });
  const services = {
    full: await spawnService({ reconcileMs: options.stepMs }),
    spec: await spawnService({ reconcileMs: options.stepMs, profile: "spec" }),
  };
  const wallMs: UpdateProfilesResult["wallMs"] = { full: [], spec: [] };
  const restartWallMs: UpdateProfilesResult["wallMs"] = { full: [], spec: [] };
  try {
    for (let round = 0; round < options.rounds; round++) {
      // Alternating the order: a shared machine's load drifts, and neither profile always goes first.
      const order = round % 2 === 0 ? (["full", "spec"] as const) : (["spec", "full"] as const);
      for (const profile of order) {
        const ms = await updateOnce(auto, pulumiCommand, services[profile], options.pods, `u${process.pid}r${round}`);
        options.progress?.(
          `pulumi up of ${options.pods} pods, ${profile} profile: update ${s1(ms.update)}, restart ${s1(ms.restart)}`,
        );
        wallMs[profile].push(ms.update);
        restartWallMs[profile].push(ms.restart);
      }
    }
  } finally {
    await Promise.all([services.full.stop(), services.spec.stop()]);
  }
  return { pods: options.pods, wallMs, restartWallMs };
}

/**
 * Creates `pods` pods in a fresh stack, then measures the `up` that changes all their images and the
 * `up` that changes all their `restartTrigger`s (one restart call each, then a wait).
 */
async function updateOnce(
  auto: typeof import("@pulumi/pulumi/automation"),
  pulumiCommand: Parameters<typeof streamStackOn>[1],
  svc: Parameters<typeof streamStackOn>[2],
  pods: number,
  prefix: string,
): Promise<{ update: number; restart: number }> {
  let image = "nginx:1.27";
  // Set from the create: a first restartTrigger only records its value (provider/README.md).
  let restartTrigger = "r0";
  const s = await streamStackOn(auto, pulumiCommand, svc, async () => {
    const { Pod } = await import("../provider");
    for (let i = 0; i < pods; i++)
      new Pod(`pod-${i}`, { workloadId: `${prefix}-${i}`, image, restartTrigger, readyTimeoutSeconds: 60 });
  });
  const measuredUp = async (what: string): Promise<number> => {
    const { result, cost } = await s.measure(() => s.stack.up({ parallel: 1000 }));
    const updated = result.summary.resourceChanges?.update ?? 0;
    if (updated !== pods) throw new Error(`the ${what} changed ${updated} resources, expected ${pods} pods`);
    return cost.wallMs;
  };
  try {
    await s.stack.up({ parallel: 1000 });
    image = "nginx:1.28";
    const update = await measuredUp("update");
    restartTrigger = "r1";
    const restart = await measuredUp("restart");
    await s.stack.destroy({ parallel: 1000 });
    return { update, restart };
  } finally {
    s.cleanup();
  }
}

/** The rows of each profile's updates and restarts, and the targets of their ratios. */
export function addUpdateProfiles(report: Report, r: UpdateProfilesResult): void {
  const kinds = [
    { op: "update", walls: r.wallMs, json: "update" },
    ...(r.restartWallMs ? [{ op: "restart", walls: r.restartWallMs, json: "restart" }] : []),
  ];
  for (const { op, walls, json } of kinds) {
    const ratio = round(median(walls.spec) / median(walls.full), 2);
    for (const profile of ["full", "spec"] as const)
      report.rows.push([
        `11 ${op}`,
        `stream, ${profile} profile`,
        `${r.pods} pods`,
        `${s1(median(walls[profile]))} wall (median)`,
        "-",
        "-",
        "-",
        `each round: ${walls[profile].map(s1).join(", ")}`,
      ]);
    report.json[`${json}_wall_s`] = {
      full: walls.full.map((ms) => round(ms / 1000, 2)),
      spec: walls.spec.map((ms) => round(ms / 1000, 2)),
    };
    report.json[`${json}_ratio_spec_vs_full`] = ratio;
    report.targets.push({
      name: `pulumi up of ${op === "update" ? "an update" : "a restart"} of ${r.pods} pods, spec vs full profile`,
      target: `≤ ${UPDATE_RATIO_TARGET}×`,
      value: `${ratio}×`,
      met: ratio <= UPDATE_RATIO_TARGET,
    });
  }
}
