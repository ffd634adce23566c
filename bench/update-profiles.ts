import { dirname } from "node:path";
import { median, round, spawnService } from "./common";
import { pulumiBinDir, streamStackOn } from "./pulumi-up";
import { s1, type Report } from "./report";

/**
 * Scenario 11: the seed-only update. `pulumi up` of an update (every pod's image changed) against
 * the local service's full profile and its `spec` profile, side by side in one run. The spec
 * profile gives only what the published spec promises: no generation, no `updatedAt`, activity
 * rows that name no workload; its waits take the settle rule's way (`sdk/wait/settle.ts`), which
 * costs at least its 2 s minimum. The target: the spec profile's update within 1.5× of the full one's.
 */

export const UPDATE_RATIO_TARGET = 1.5;

export interface UpdateProfilesResult {
  pods: number;
  /** Wall of each round's update, per profile, in the order measured. */
  wallMs: { full: number[]; spec: number[] };
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
  try {
    for (let round = 0; round < options.rounds; round++) {
      // Alternating the order: a shared machine's load drifts, and neither profile always goes first.
      const order = round % 2 === 0 ? (["full", "spec"] as const) : (["spec", "full"] as const);
      for (const profile of order) {
        const ms = await updateOnce(auto, pulumiCommand, services[profile], options.pods, `u${process.pid}r${round}`);
        options.progress?.(`pulumi up of an update of ${options.pods} pods, ${profile} profile: ${s1(ms)}`);
        wallMs[profile].push(ms);
      }
    }
  } finally {
    await Promise.all([services.full.stop(), services.spec.stop()]);
  }
  return { pods: options.pods, wallMs };
}

/** Creates `pods` pods in a fresh stack, then measures the `up` that changes all their images. */
async function updateOnce(
  auto: typeof import("@pulumi/pulumi/automation"),
  pulumiCommand: Parameters<typeof streamStackOn>[1],
  svc: Parameters<typeof streamStackOn>[2],
  pods: number,
  prefix: string,
): Promise<number> {
  let image = "nginx:1.27";
  const s = await streamStackOn(auto, pulumiCommand, svc, async () => {
    const { Pod } = await import("../provider");
    for (let i = 0; i < pods; i++)
      new Pod(`pod-${i}`, { workloadId: `${prefix}-${i}`, image, readyTimeoutSeconds: 60 });
  });
  try {
    await s.stack.up({ parallel: 1000 });
    image = "nginx:1.28";
    const { result, cost } = await s.measure(() => s.stack.up({ parallel: 1000 }));
    const updated = result.summary.resourceChanges?.update ?? 0;
    if (updated !== pods) throw new Error(`the update changed ${updated} resources, expected ${pods} pods`);
    await s.stack.destroy({ parallel: 1000 });
    return cost.wallMs;
  } finally {
    s.cleanup();
  }
}

/** The rows of each profile's updates, and the target of their ratio. */
export function addUpdateProfiles(report: Report, r: UpdateProfilesResult): void {
  const ratio = round(median(r.wallMs.spec) / median(r.wallMs.full), 2);
  for (const profile of ["full", "spec"] as const)
    report.rows.push([
      "11 update",
      `stream, ${profile} profile`,
      `${r.pods} pods`,
      `${s1(median(r.wallMs[profile]))} wall (median)`,
      "-",
      "-",
      "-",
      `each round: ${r.wallMs[profile].map(s1).join(", ")}`,
    ]);
  report.json.update_wall_s = {
    full: r.wallMs.full.map((ms) => round(ms / 1000, 2)),
    spec: r.wallMs.spec.map((ms) => round(ms / 1000, 2)),
  };
  report.json.update_ratio_spec_vs_full = ratio;
  report.targets.push({
    name: `pulumi up of an update of ${r.pods} pods, spec vs full profile`,
    target: `≤ ${UPDATE_RATIO_TARGET}×`,
    value: `${ratio}×`,
    met: ratio <= UPDATE_RATIO_TARGET,
  });
}
