/**
 * A stack whose program is a file (`index.js`, the CLI's own Node.js language host runs it) on the
 * local service, and the CLI commands CI runs on it, with their JSON and exit code: `pulumi
 * preview --json`, `pulumi preview --refresh --expect-no-changes`, `pulumi refresh --preview-only`.
 * Built on `fileProgramStack` of the reliability tests (same links to this checkout's `dist/`).
 */
import { execFile } from "node:child_process";
import type { LocalWorkspace, Stack } from "@pulumi/pulumi/automation";
import { fileProgramStack } from "../reliability/cli-helpers";
import { pulumiCommand, type ServiceAccess } from "./harness";

export interface CliRun {
  code: number;
  stdout: string;
  stderr: string;
}

/** One step of `pulumi preview --json`, as CI bots read it. */
export interface PreviewStep {
  op: string;
  urn: string;
  diffReasons?: string[];
  replaceReasons?: string[];
  detailedDiff?: Record<string, { kind: string; inputDiff: boolean }> | null;
}

export interface JsonPreview {
  steps: PreviewStep[];
  diagnostics?: Array<{ message: string; severity: string; urn?: string }>;
}

export interface CliStack {
  stack: Stack;
  ws: { name: string; apiKey: string };
  setProgram(source: string): void;
  /** Runs `pulumi <args> --stack local --non-interactive` in the project; never throws on a non-zero exit. */
  cli(args: string[], timeoutMs?: number): Promise<CliRun>;
  /** `pulumi preview --json`: the steps per resource name (the stack left out). */
  previewJson(): Promise<{ run: CliRun; byName: Map<string, PreviewStep> }>;
  cleanup(): void;
}

/** `urn:…::wws:Pod::web` → `web` */
const nameOf = (urn: string): string => urn.slice(urn.lastIndexOf("::") + 2);

/** A file-program stack on a workspace of `service` of its own, connected through the stack config. */
export async function cliStack(service: ServiceAccess, projectName: string): Promise<CliStack> {
  const s = await fileProgramStack(projectName);
  const ws = service.workspace();
  await s.stack.setAllConfig({
    "wws:baseUrl": { value: service.url },
    "wws:workspace": { value: ws.name },
    "wws:apiKey": { value: ws.apiKey, secret: true },
  });
  const workspace = s.stack.workspace as LocalWorkspace;
  const command = (await pulumiCommand()).command;
  const cli = (args: string[], timeoutMs = 120_000): Promise<CliRun> =>
    new Promise((resolve) => {
      execFile(
        command,
        [...args, "--stack", "local", "--non-interactive"],
        {
          cwd: workspace.workDir,
          env: { ...process.env, ...workspace.envVars },
          maxBuffer: 64 * 1024 * 1024,
          timeout: timeoutMs,
          killSignal: "SIGINT",
        },
        (err, stdout, stderr) =>
          resolve({ code: err ? (typeof err.code === "number" ? err.code : -1) : 0, stdout, stderr }),
      );
    });
  return {
    stack: s.stack,
    ws,
    setProgram: s.setProgram,
    cli,
    async previewJson() {
      const run = await cli(["preview", "--json"]);
      let parsed: JsonPreview;
      try {
        parsed = JSON.parse(run.stdout) as JsonPreview;
      } catch {
        throw new Error(
          `pulumi preview --json printed no JSON (exit ${run.code}):\n${run.stdout.slice(0, 4000)}\n${run.stderr.slice(0, 2000)}`,
        );
      }
      const byName = new Map(
        parsed.steps.filter((st) => !st.urn.includes("pulumi:pulumi:Stack")).map((st) => [nameOf(st.urn), st]),
      );
      return { run, byName };
    },
    cleanup: s.cleanup,
  };
}

/** `cliStack` with `program` deployed by `pulumi up`: throws with the CLI's output when it fails. */
export async function deployedCliStack(
  service: ServiceAccess,
  projectName: string,
  program: string,
): Promise<CliStack> {
  const s = await cliStack(service, projectName);
  s.setProgram(program);
  const up = await s.cli(["up", "--yes", "--skip-preview"]);
  if (up.code !== 0) throw new Error(`pulumi up failed:\n${up.stdout.slice(-4000)}\n${up.stderr.slice(-2000)}`);
  return s;
}

/** `index.js` declaring each resource as `new wws.<class>(name, args, opts)`; args and options travel as JSON. */
export function programOf(
  resources: Array<{ cls: string; name: string; args: Record<string, unknown>; opts?: Record<string, unknown> }>,
): string {
  const lines = resources.map(
    (r) => `new wws.${r.cls}(${JSON.stringify(r.name)}, ${JSON.stringify(r.args)}, ${JSON.stringify(r.opts ?? {})});`,
  );
  return [`const wws = require("pulumi-wws");`, ...lines, ""].join("\n");
}
