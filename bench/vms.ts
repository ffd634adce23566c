import { loadavg } from "node:os";
import { dirname } from "node:path";
import { median, round, spawnService } from "./common";
import { pulumiBinDir, streamStackOn } from "./pulumi-up";
import type { OpCost } from "./pulumi-stack";

/**
 * Scenario 5: VMs with a password against pods, side by side against one service: for each kind,
 * `pulumi preview` (every resource a create), `pulumi up` of a fresh stack of `count`, then
 * `pulumi preview` again (no changes). Each VM's password is digested (scrypt, see
 * provider/dynamic/credentials/digest.ts) by its resource class as the program runs, at preview
 * and again at up. The kinds alternate for `rounds` rounds, and so does which goes first (pods in odd
 * rounds, VMs in even ones): each ratio is the median of the rounds' for each order, since one run
 * on a shared machine is noisy and the kind that runs second meets the other's leftovers (its
 * destroyed workloads' history on the service, a warmer page cache).
 */
export interface VmRow {
  kind: "pods" | "vms";
  /** Which kind ran first in the row's round. */
  first: "pods" | "vms";
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
      const order = round % 2 === 1 ? (["pods", "vms"] as const) : (["vms", "pods"] as const);
      for (const kind of order) {
        const prefix = `${kind}${process.pid}r${round}`;
        const program = async (): Promise<void> => {
          const { Pod, VirtualMachine } = await import("../provider");
          for (let i = 0; i < options.count; i++) {
            const common = { workloadId: `${prefix}-${i}`, readyTimeoutSeconds: 120 };
            if (kind === "pods") new Pod(`w-${i}`, { ...common, image: "nginx:1.27" });
            else new VirtualMachine(`w-${i}`, { ...common, os: "ubuntu", credentials: { password: `bench-Pw-${i}` } });
          }
        };
        const s = await streamStackOn(auto, pulumiCommand, svc, program);
        try {
          for (const op of OPS) {
            const { cost } = await s.measure<unknown>(() =>
              op === "up" ? s.stack.up({ parallel: 1000 }) : s.stack.preview({ parallel: 1000 }),
            );
            options.progress?.(
              `round ${round}: pulumi ${op} of ${options.count} ${kind}: ${(cost.wallMs / 1000).toFixed(1)} s, CPU s ${JSON.stringify(cost.cpuS)}, load ${loadavg()[0].toFixed(1)}`,
            );
            rows.push({ kind, first: order[0], op, round, count: options.count, cost });
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
  const ratio = (op: VmRow["op"], first?: VmRow["first"]): number =>
    round(
      median(
        rounds
          .filter((r) => first === undefined || (r % 2 === 1 ? "pods" : "vms") === first)
          .map((r) => wall("vms", op, r) / wall("pods", op, r)),
      ),
      2,
    );
  const ratios = (first?: VmRow["first"]): Record<VmRow["op"], number> =>
    Object.fromEntries(OPS.map((op) => [op, ratio(op, first)])) as Record<VmRow["op"], number>;
  return {
    rows,
    json: {
      count: options.count,
      rounds: options.rounds,
      rows: rows.map((r) => ({
        kind: r.kind,
        first: r.first,
        op: r.op,
        round: r.round,
        wall_s: round(r.cost.wallMs / 1000, 2),
        cpu_s: r.cost.cpuS,
      })),
      vms_over_pods: ratios(),
      vms_over_pods_by_order: { "pods first": ratios("pods"), "vms first": ratios("vms") },
    },
  };
}
