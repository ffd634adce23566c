import { execFile } from "node:child_process";
import * as path from "node:path";
import type { Stack } from "@pulumi/pulumi/automation";
import { WorkspaceClient, type WorkloadType } from "../../sdk";
import { pulumiBinDir } from "../e2e/harness";
import { fileProgramStack, runOp, startRestartableService, type RestartableService } from "../reliability/cli-helpers";

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

type Config = Record<string, { value: string; secret?: boolean }>;

/** A watch test's local service: one workspace that two keys reach, the stacks' and an ops person's. */
export interface WatchService {
  service: RestartableService;
  ws: { name: string; apiKey: string };
  /** The stacks' key and the ops key, for the checks that nothing printed holds them. */
  keys: { stack: string; ops: string };
  /** A client with the ops key, labelled `ops-laptop`: what it changes is changed outside Pulumi, by ops-laptop. */
  ops: WorkspaceClient;
  /**
   * A project `name` of its own (directory, backend, passphrase) with the workspace's three
   * connection settings and `config`, running `program` (JavaScript), up. `baseUrl`: another way
   * to the service (a front). Cleaned up by `close()`.
   */
  stack(
    name: string,
    program: string,
    options?: { config?: Config; baseUrl?: string },
  ): Promise<Awaited<ReturnType<typeof fileProgramStack>>>;
  /** Removes the stacks' directories, closes the ops client and the service. */
  close(): Promise<void>;
}

/** A service of its own for a watch test, its workspace `<prefix>-1`; `profile` as `wws-local --profile`. */
export async function watchService(prefix: string, options: { profile?: "full" | "spec" } = {}): Promise<WatchService> {
  const keys = { stack: `${prefix}-stack-key-${Date.now()}`, ops: `${prefix}-ops-key-${Date.now()}` };
  const service = await startRestartableService({
    prefix,
    count: 1,
    keyFor: () => keys.stack,
    service: {
      ...(options.profile && { profile: options.profile }),
      keys: { [`${prefix}-1`]: [{ key: keys.stack }, { key: keys.ops, label: "ops-laptop" }] },
    },
  });
  const ws = service.workspace();
  const ops = new WorkspaceClient({ baseUrl: service.url, workspace: ws.name, apiKey: keys.ops });
  const stacks: Array<{ cleanup(): void }> = [];
  return {
    service,
    ws,
    keys,
    ops,
    async stack(name, program, { config = {}, baseUrl = service.url } = {}) {
      const s = await fileProgramStack(name);
      stacks.push(s);
      await s.stack.setAllConfig({
        "wws:baseUrl": { value: baseUrl },
        "wws:workspace": { value: ws.name },
        "wws:apiKey": { value: ws.apiKey, secret: true },
        ...config,
      });
      s.setProgram(program);
      await upOk(s.stack);
      return s;
    },
    async close() {
      stacks.forEach((s) => s.cleanup());
      await ops.close();
      await service.close();
    },
  };
}
