import { dirname } from "node:path";
import { median, round, spawnService } from "./common";
import { pulumiBinDir, repoRoot } from "./pulumi-up";
import { newBenchStack, type OpCost } from "./pulumi-stack";

/**
 * Scenario 5: VMs with a password against pods, side by side against one service: for each kind,
 * `pulumi preview` (every resource a create), `pulumi up` of a fresh stack of `count`, then
 * `pulumi preview` again (no changes). Each VM's password is digested (scrypt, see
 * provider/dynamic/credentials-digest.ts) by its resource class as the program runs, at preview
 * and again at up. The kinds alternate for `rounds` rounds,
 * and each ratio is the median of the rounds': one run on a shared machine is noisy.
 */
export interface VmRow {
  kind: "pods" | "vms";
  op: "preview" | "up" | "preview (no changes)";
  round: number;
  count: number;
  cost: OpCost;
}

const OPS: VmRow["op"][] = ["preview", "up", "preview (no changes)"];

export async function runVmsVsPods(options: {
  count: number;
  rounds: number;
  stepMs: number;
  progress?: (line: string) => void;
}): Promise<{ rows: VmRow[]; json: Record<string, unknown> }> {
  const auto = await import("@pulumi/pulumi/automation");
  const pulumiCommand = await auto.PulumiCommand.get({ root: dirname(pulumiBinDir()) });
  const svc = await spawnService({ reconcileMs: options.stepMs });
  const rows: VmRow[] = [];
  try {
    for (let round = 1; round <= options.rounds; round++) {
      for (const kind of ["pods", "vms"] as const) {
        const prefix = `${kind}${process.pid}r${round}`;
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
          for (const op of OPS) {
            const { cost } = await s.measure<unknown>(() =>
              op === "up" ? s.stack.up({ parallel: 1000 }) : s.stack.preview({ parallel: 1000 }),
            );
            options.progress?.(
              `round ${round}: pulumi ${op} of ${options.count} ${kind}: ${(cost.wallMs / 1000).toFixed(1)} s`,
            );
            rows.push({ kind, op, round, count: options.count, cost });
          }
          await s.stack.destroy({ parallel: 1000 });
        } finally {
          s.cleanup();
        }
      }
    }
  } finally {
    await svc.stop();
  }
  const wall = (kind: VmRow["kind"], op: VmRow["op"], round: number): number =>
    rows.find((r) => r.kind === kind && r.op === op && r.round === round)?.cost.wallMs ?? NaN;
  const rounds = Array.from({ length: options.rounds }, (_, i) => i + 1);
  const ratio = (op: VmRow["op"]): number =>
    round(median(rounds.map((r) => wall("vms", op, r) / wall("pods", op, r))), 2);
  return {
    rows,
    json: {
      count: options.count,
      rounds: options.rounds,
      rows: rows.map((r) => ({
        kind: r.kind,
        op: r.op,
        round: r.round,
        wall_s: round(r.cost.wallMs / 1000, 2),
        cpu_s: r.cost.cpuS,
      })),
      vms_over_pods: {
        preview: ratio("preview"),
        up: ratio("up"),
        "preview (no changes)": ratio("preview (no changes)"),
      },
    },
  };
}
