import { execFile } from "node:child_process";
import * as path from "node:path";
import type { Stack } from "@pulumi/pulumi/automation";
import type { WorkloadType, WorkspaceClient } from "../../sdk";
import { pulumiBinDir } from "../e2e/harness";
import { runOp } from "../reliability/cli-helpers";

/** How long one `pulumi` command of the watch tests may take. */
export const OP_TIMEOUT_MS = 120_000;

/** A change made outside Pulumi: the workload's live spec with `change` merged, upserted with `ops`' key. */
export async function changeLive(ops: WorkspaceClient, id: string, change: Record<string, unknown>): Promise<void> {
  const entry = (await ops.getSpec()).workloads.find((w) => w.id === id)!;
  await ops.upsertWorkload(entry.type as WorkloadType, { ...entry.spec, ...change, id } as never);
}

/** `pulumi <args> --stack local` in the stack's directory, as a user types it: its exit code and output. */
export function pulumiCli(stack: Stack, args: string[]): Promise<{ code: number; out: string }> {
  const { workDir, envVars } = stack.workspace;
  return new Promise((resolve) => {
    execFile(
      path.join(pulumiBinDir(), "pulumi"),
      [...args, "--stack", "local", "--non-interactive"],
      { cwd: workDir, env: { ...process.env, ...envVars }, timeout: OP_TIMEOUT_MS, maxBuffer: 64 << 20 },
      (err, stdout, stderr) =>
        resolve({ code: err ? Number((err as { code?: unknown }).code ?? 1) : 0, out: `${stdout}\n${stderr}` }),
    );
  });
}

/** `pulumi up` of the stack, which must succeed. */
export async function upOk(stack: Stack): Promise<void> {
  const r = await runOp(stack, "up", OP_TIMEOUT_MS);
  if (!r.ok) throw new Error(r.error);
}
