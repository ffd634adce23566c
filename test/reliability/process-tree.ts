/**
 * The processes a `pulumi` CLI started, read from /proc (Linux): to find its dynamic provider
 * process before killing the CLI, and to see when that process is gone.
 */
import * as fs from "node:fs";
import { readProcStat } from "../../provider/dynamic/engine/watchdog";

/** Every live process whose ancestry reaches `root` (not `root` itself). */
export function descendantsOf(root: number): number[] {
  const parent = new Map<number, number>();
  for (const entry of fs.readdirSync("/proc")) {
    if (!/^[0-9]+$/.test(entry)) continue;
    const stat = readProcStat(Number(entry));
    if (stat) parent.set(Number(entry), stat.ppid);
  }
  const below = (pid: number): boolean => {
    for (let p = parent.get(pid), hops = 0; p !== undefined && hops < 16; p = parent.get(p), hops++)
      if (p === root) return true;
    return false;
  };
  return [...parent.keys()].filter(below);
}

/** The command line of `pid`, arguments joined by spaces ("" when gone). */
export function commandLine(pid: number): string {
  try {
    return fs.readFileSync(`/proc/${pid}/cmdline`, "utf8").split("\0").join(" ").trim();
  } catch {
    return "";
  }
}

/** The dynamic provider host processes (`node …/cmd/dynamic-provider …`) below `root`. */
export function providerProcessesOf(root: number): number[] {
  return descendantsOf(root).filter(
    (pid) => /[\\/]cmd[\\/]dynamic-provider/.test(commandLine(pid)) && readProcStat(pid)?.comm === "node",
  );
}

/** Alive and not a zombie. */
export function isRunning(pid: number): boolean {
  const stat = readProcStat(pid);
  return stat !== undefined && stat.state !== "Z";
}

/** Polls (every 50 ms, at most `timeoutMs`) until none of `pids` runs; resolves with the time it took, or undefined. */
export async function untilGone(pids: number[], timeoutMs: number): Promise<number | undefined> {
  const started = Date.now();
  while (pids.some(isRunning)) {
    if (Date.now() - started > timeoutMs) return undefined;
    await new Promise((r) => setTimeout(r, 50));
  }
  return Date.now() - started;
}

/** SIGKILL to those of `pids` still running (cleanup of what a test killed the parent of). */
export function killLeftovers(pids: number[]): void {
  for (const pid of pids.filter(isRunning)) {
    try {
      process.kill(pid, "SIGKILL");
    } catch {
      // gone meanwhile
    }
  }
}
