import { spawn, type ChildProcess } from "node:child_process";
import * as path from "node:path";
import type { Stack } from "@pulumi/pulumi/automation";
import type { Finding } from "../../watch";

/** A running `pulumi-wws watch --json`: its findings (stdout) and status lines (stderr) as they come. */
export interface WatchProcess {
  proc: ChildProcess;
  findings: Finding[];
  status: string[];
  /** stdout lines that are not JSON (with `--json` there must be none). */
  notJson: string[];
  exited: Promise<number>;
}

export interface WatchProcessOptions {
  /** Another build's `dist/cli/main.js` to run. @default the stack's installed pulumi-wws */
  cli?: string;
  /** A directory put first on the watch's PATH (a `pulumi` shim). */
  pathFirst?: string;
  /** Variables added to the stack's environment (`WWS_WEBHOOK_SECRET`). */
  env?: Record<string, string>;
  /** In a process group of its own, as a terminal runs it: a Ctrl-C is `process.kill(-pid, "SIGINT")`, reaching its `pulumi` runs too. */
  detached?: boolean;
}

function eachLine(stream: NodeJS.ReadableStream, onLine: (line: string) => void): void {
  let buf = "";
  stream.on("data", (chunk: Buffer) => {
    buf += chunk.toString("utf8");
    const parts = buf.split("\n");
    buf = parts.pop() ?? "";
    parts.filter((l) => l.trim() !== "").forEach(onLine);
  });
}

/** `pulumi-wws watch --json --stack local …args` in the stack's directory, with its environment. */
export function startWatchProcess(stack: Stack, args: string[], options: WatchProcessOptions = {}): WatchProcess {
  const { workDir, envVars } = stack.workspace;
  const main = options.cli ?? path.join(workDir, "node_modules/pulumi-wws/dist/cli/main.js");
  const env = { ...process.env, ...envVars, ...options.env };
  if (options.pathFirst) env.PATH = `${options.pathFirst}${path.delimiter}${envVars.PATH ?? process.env.PATH}`;
  const proc = spawn(process.execPath, [main, "watch", "--json", "--stack", "local", ...args], {
    cwd: workDir,
    env,
    detached: options.detached,
  });
  const exited = new Promise<number>((resolve) => proc.on("exit", (code) => resolve(code ?? -1)));
  const w: WatchProcess = { proc, findings: [], status: [], notJson: [], exited };
  eachLine(proc.stdout!, (l) => {
    try {
      w.findings.push(JSON.parse(l) as Finding);
    } catch {
      w.notJson.push(l);
    }
  });
  eachLine(proc.stderr!, (l) => w.status.push(l));
  return w;
}
