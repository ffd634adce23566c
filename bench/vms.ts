import { dirname } from "node:path";
import { round, spawnService } from "./common";
import { pulumiBinDir, repoRoot } from "./pulumi-up";
import { newBenchStack, type OpCost } from "./pulumi-stack";

/**
 * Scenario 5: VMs with a password against pods, side by side against one service: for each kind,
 * `pulumi preview` (every resource a create) then `pulumi up` of a fresh stack of `count`. A VM's
 * `check` digests its password (scrypt, see provider/dynamic/credentials-digest.ts) at preview and
 * again at up; the ratio says what that costs a whole run.
 */
export interface VmRow {
  kind: "pods" | "vms";
  op: "preview" | "up";
  count: number;
  cost: OpCost;
}

export async function runVmsVsPods(options: {
  count: number;
  stepMs: number;
  progress?: (line: string) => void;
}): Promise<{ rows: VmRow[]; json: Record<string, unknown> }> {
  const auto = await import("@pulumi/pulumi/automation");
  const pulumiCommand = await auto.PulumiCommand.get({ root: dirname(pulumiBinDir()) });
  const svc = await spawnService({ reconcileMs: options.stepMs });
  const rows: VmRow[] = [];
  try {
    for (const kind of ["pods", "vms"] as const) {
      const prefix = `${kind}${process.pid}`;
      const program = async (): Promise<void> => {
        const { Pod, VirtualMachine } = await import("../provider");
        for (let i = 0; i < options.count; i++) {
          const common = { workloadId: `${prefix}-${i}`, readyTimeoutSeconds: 120 };
          if (kind === "pods") new Pod(`w-${i}`, { ...common, image: "nginx:1.27" });
          else new VirtualMachine(`w-${i}`, { ...common, os: "ubuntu", credentials: { password: `bench-Pw-${i}` } });
        }
      };
      const s = await newBenchStack(auto, pulumiCommand, {
        root: repoRoot(),
        pulumiBinDir: pulumiBinDir(),
        url: svc.url,
        mode: "stream",
        pollIntervalMs: 2000,
        servicePid: svc.child.pid,
        program,
      });
      try {
        for (const op of ["preview", "up"] as const) {
          const { cost } = await s.measure<unknown>(() =>
            op === "preview" ? s.stack.preview({ parallel: 1000 }) : s.stack.up({ parallel: 1000 }),
          );
          options.progress?.(`pulumi ${op} of ${options.count} ${kind}: ${(cost.wallMs / 1000).toFixed(1)} s`);
          rows.push({ kind, op, count: options.count, cost });
        }
        await s.stack.destroy({ parallel: 1000 });
      } finally {
        s.cleanup();
      }
    }
  } finally {
    await svc.stop();
  }
  const wall = (kind: VmRow["kind"], op: VmRow["op"]): number =>
    rows.find((r) => r.kind === kind && r.op === op)?.cost.wallMs ?? NaN;
  return {
    rows,
    json: {
      count: options.count,
      rows: rows.map((r) => ({ kind: r.kind, op: r.op, wall_s: round(r.cost.wallMs / 1000, 2), cpu_s: r.cost.cpuS })),
      vms_over_pods: {
        preview: round(wall("vms", "preview") / wall("pods", "preview"), 2),
        up: round(wall("vms", "up") / wall("pods", "up"), 2),
      },
    },
  };
}
