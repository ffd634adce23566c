/**
 * A file-program project on the local service for tests of Pulumi's own options and commands:
 * `pulumi <args>` run as a user types it, on any stack of the project (`state move` and `stack
 * rename` need more than one), and what the service received since a mark: its audit rows
 * (`GET /activity`) and the mutating requests.
 */
import { execFile } from "node:child_process";
import * as fs from "node:fs";
import * as path from "node:path";
import type { WorkspaceClient } from "../../sdk";
import { fileProgramStack } from "../reliability/cli-helpers";
import type { CliRun } from "./cli-json";
import { pulumiCommand, type ServiceAccess } from "./harness";

export interface CliProject {
  workDir: string;
  ws: { name: string; apiKey: string };
  client: WorkspaceClient;
  setProgram(source: string): void;
  /**
   * `pulumi <args> --stack <stack> --non-interactive` in the project (`null`: without `--stack`, for
   * commands that name stacks otherwise); never throws on a non-zero exit.
   */
  pulumi(args: string[], stack?: string | null): Promise<CliRun>;
  /** `pulumi stack init <name>` with the same connection in its config. */
  addStack(name: string): Promise<void>;
  /** The URN of a resource of this package's `className` at the stack's root. */
  urn(name: string, stack?: string, className?: string): string;
  /** A point in what the service received; `since()` says what came after it. */
  mark(): Promise<{ since(): Promise<Received> }>;
  cleanup(): void;
}

export interface Received {
  /** `created web`, `updated web`, `deleted web`, `restarted web`: the workspace's audit rows, in order. */
  rows: string[];
  /** POST, PUT, PATCH and DELETE requests to the service (every workspace's). */
  mutating: number;
}

const CHANGE = /^workload\.(created|updated|deleted|restarted)$/;

export async function cliProject(service: ServiceAccess, projectName: string): Promise<CliProject> {
  const s = await fileProgramStack(projectName);
  const { workDir, envVars } = s.stack.workspace as { workDir: string; envVars: Record<string, string> };
  const ws = service.workspace();
  const client = service.client(ws.name);
  const command = (await pulumiCommand()).command;
  const pulumi = (args: string[], stack: string | null = "local"): Promise<CliRun> =>
    new Promise((resolve) => {
      execFile(
        command,
        [...args, ...(stack === null ? [] : ["--stack", stack]), "--non-interactive"],
        {
          cwd: workDir,
          env: { ...process.env, ...envVars },
          maxBuffer: 64 * 1024 * 1024,
          timeout: 120_000,
          killSignal: "SIGINT",
        },
        (err, stdout, stderr) =>
          resolve({ code: err ? (typeof err.code === "number" ? err.code : -1) : 0, stdout, stderr }),
      );
    });
  const must = async (args: string[], stack?: string | null): Promise<void> => {
    const run = await pulumi(args, stack);
    if (run.code !== 0) throw new Error(`pulumi ${args.join(" ")} failed:\n${run.stdout}\n${run.stderr}`);
  };
  const connect = (stack: string): Promise<void> =>
    must(
      [
        "config",
        "set-all",
        "--plaintext",
        `wws:baseUrl=${service.url}`,
        "--plaintext",
        `wws:workspace=${ws.name}`,
        "--secret",
        `wws:apiKey=${ws.apiKey}`,
      ],
      stack,
    );
  await connect("local");

  const lastRowId = async (): Promise<number> => Number((await client.listActivity({ limit: 1 }))[0]?.id ?? 0);
  return {
    workDir,
    ws,
    client,
    setProgram: s.setProgram,
    pulumi,
    async addStack(name) {
      await must(["stack", "init", name], null);
      await connect(name);
    },
    urn: (name, stack = "local", className = "Pod") =>
      `urn:pulumi:${stack}::${projectName}::pulumi-nodejs:dynamic/wws:${className}::${name}`,
    async mark() {
      const after = await lastRowId();
      const mutating = (await service.ctl.counters()).requests.mutating;
      return {
        async since() {
          const all = await client.listActivity({ after, limit: 1000 });
          const rows = all
            .filter((r) => CHANGE.test(r.action ?? ""))
            .map((r) => `${(r.action ?? "").slice("workload.".length)} ${r.target?.id}`);
          return { rows, mutating: (await service.ctl.counters()).requests.mutating - mutating };
        },
      };
    },
    cleanup: s.cleanup,
  };
}

/** The lines of `file` in the project, none when it does not exist. */
export function linesOf(workDir: string, file: string): string[] {
  const p = path.join(workDir, file);
  return fs.existsSync(p) ? fs.readFileSync(p, "utf8").split("\n").filter(Boolean) : [];
}
