import { spawn, type ChildProcessWithoutNullStreams } from "node:child_process";
import { readFileSync } from "node:fs";
import { join } from "node:path";
import { ROOT } from "../support/build";

const CLI = join(ROOT, "dist/server/cli.js");

/** The soft limit of open files of this process (Linux), or undefined where unknown. */
export function openFileLimit(): number | undefined {
  try {
    const m = /^Max open files\s+(\d+|unlimited)/m.exec(readFileSync("/proc/self/limits", "utf8"));
    return m ? (m[1] === "unlimited" ? Infinity : Number(m[1])) : undefined;
  } catch {
    return undefined;
  }
}

export interface ServiceProcess {
  url: string;
  port: number;
  child: ChildProcessWithoutNullStreams;
  /** Everything the process wrote to stderr so far. */
  stderr(): string;
  /** SIGTERM, then SIGKILL after `graceMs`; resolves with the exit code. */
  stop(graceMs?: number): Promise<number | null>;
}

/** Runs `node dist/server/cli.js --port 0 …args` and waits for its listening line. */
export async function startServiceProcess(args: string[], timeoutMs = 15_000): Promise<ServiceProcess> {
  const child = spawn(process.execPath, [CLI, "--host", "127.0.0.1", "--port", "0", ...args], {
    cwd: ROOT,
    stdio: ["pipe", "pipe", "pipe"],
  });
  let out = "";
  let err = "";
  child.stdout.on("data", (d) => (out += d));
  child.stderr.on("data", (d) => (err += d));
  const exited = new Promise<number | null>((resolve) => child.once("exit", (code) => resolve(code)));
  let gone = false;
  void exited.then(() => (gone = true));
  const deadline = Date.now() + timeoutMs;
  let m: RegExpMatchArray | null = null;
  while (!(m = /listening on (http:\/\/127\.0\.0\.1:(\d+))/.exec(out))) {
    if (gone || Date.now() > deadline) {
      child.kill("SIGKILL");
      throw new Error(`service process did not start: ${out}${err}`);
    }
    await new Promise((r) => setTimeout(r, 20));
  }
  const url = m[1];
  return {
    url,
    port: Number(m[2]),
    child,
    stderr: () => err,
    stop: async (graceMs = 5000) => {
      if (gone) return exited;
      child.kill("SIGTERM");
      const timer = setTimeout(() => child.kill("SIGKILL"), graceMs);
      const code = await exited;
      clearTimeout(timer);
      return code;
    },
  };
}
