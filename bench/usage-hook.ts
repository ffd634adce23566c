/**
 * Preloaded (`NODE_OPTIONS=--require …`) into the node processes the benchmarks start, directly
 * or through the `pulumi` CLI. Writes the process's kind (`provider`: the dynamic provider;
 * `program`: the stack program; `language host`; `node`: anything else, such as the fleet's
 * driver), its peak resident set size (`process.resourceUsage().maxRSS`, KiB) and its CPU time (ms)
 * to `$WWS_BENCH_RSS_DIR/<pid>.json` every 100 ms and at exit: the engine may kill the provider
 * rather than let it exit, so the last periodic write has to do then.
 */
import { readFileSync, readdirSync, renameSync, writeFileSync } from "node:fs";
import { join } from "node:path";

export type ProcessKind = "provider" | "program" | "language host" | "node";

export interface ProcessUsage {
  pid: number;
  kind: ProcessKind;
  maxRssKb: number;
  cpuMs: number;
}

export function kindOf(script: string): ProcessKind {
  if (/dynamic-provider/.test(script)) return "provider";
  if (/@pulumi[\\/]pulumi[\\/]cmd[\\/]run/.test(script)) return "program";
  if (/pulumi-language-nodejs/.test(script)) return "language host";
  return "node";
}

/** The reports of the processes that ran with `WWS_BENCH_RSS_DIR=dir`. */
export function readUsage(dir: string): ProcessUsage[] {
  return readdirSync(dir)
    .filter((f) => f.endsWith(".json"))
    .map((f) => JSON.parse(readFileSync(join(dir, f), "utf8")) as ProcessUsage);
}

/**
 * Set with `--cpu-prof` (scenario 12's `--provider-cpu-prof`): the engine ends the dynamic provider
 * host with SIGINT, which kills a Node process that has no handler before `--cpu-prof` writes its
 * profile; the floor's host has none (this package's provider exits by itself, engine/closing.ts).
 */
export const EXIT_ON_SIGINT_ENV = "WWS_BENCH_EXIT_ON_SIGINT";

if (process.env[EXIT_ON_SIGINT_ENV] === "1" && kindOf(process.argv[1] ?? "") === "provider")
  // After the process's own handlers had their time, as the engine would before it kills it.
  process.on("SIGINT", () => setTimeout(() => process.exit(130), 400).unref());

const dir = process.env.WWS_BENCH_RSS_DIR;
if (dir) {
  const kind = kindOf(process.argv[1] ?? "");
  const write = (): void => {
    try {
      const usage = process.resourceUsage();
      const report: ProcessUsage = {
        pid: process.pid,
        kind,
        maxRssKb: usage.maxRSS,
        cpuMs: (usage.userCPUTime + usage.systemCPUTime) / 1000,
      };
      // Whole or not at all: the bench may read it while a process still runs.
      const file = join(dir, `${process.pid}.json`);
      writeFileSync(`${file}.tmp`, JSON.stringify(report));
      renameSync(`${file}.tmp`, file);
    } catch {
      // The bench removed the directory: nothing to report to.
    }
  };
  setInterval(write, 100).unref();
  process.on("exit", write);
}
