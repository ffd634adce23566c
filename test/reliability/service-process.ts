import { spawn, spawnSync, type ChildProcessWithoutNullStreams } from "node:child_process";
import { existsSync, readdirSync, readFileSync, statSync } from "node:fs";
import { join, relative } from "node:path";

export const ROOT = join(__dirname, "../..");
const CLI = join(ROOT, "dist/server/cli.js");

function sources(dir: string): string[] {
  return readdirSync(dir).flatMap((name) => {
    const p = join(dir, name);
    if (statSync(p).isDirectory()) return sources(p);
    return p.endsWith(".ts") && !p.endsWith(".d.ts") ? [p] : [];
  });
}

/** Sources of server/ and sdk/ whose compiled file in dist/ is missing or older. */
export function staleSources(): string[] {
  return ["server", "sdk"].flatMap((d) => sources(join(ROOT, d))).filter((src) => {
    const out = join(ROOT, "dist", relative(ROOT, src).replace(/\.ts$/, ".js"));
    return !existsSync(out) || statSync(out).mtimeMs < statSync(src).mtimeMs;
  });
}

/**
 * Builds dist/ with `tsc -p tsconfig.build.json` when a server or sdk source is newer than its
 * output. tsc emits even when another part of the project (a provider being written) does not
 * typecheck: that is fine here as long as every server and sdk file came out fresh.
 */
export function ensureBuilt(): void {
  if (staleSources().length === 0) return;
  const tsc = require.resolve("typescript/bin/tsc");
  const r = spawnSync(process.execPath, [tsc, "-p", "tsconfig.build.json"], { cwd: ROOT, encoding: "utf8", timeout: 180_000 });
  const stale = staleSources();
  if (stale.length > 0) {
    throw new Error(`build left ${stale.length} stale files (first: ${stale[0]}); tsc exit ${r.status}:\n${r.stdout}${r.stderr}`);
  }
}

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
  const child = spawn(process.execPath, [CLI, "--host", "127.0.0.1", "--port", "0", ...args], { cwd: ROOT, stdio: ["pipe", "pipe", "pipe"] });
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
