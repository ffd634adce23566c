/**
 * Preloaded (`NODE_OPTIONS=--require …`) into the node processes the `pulumi` CLI starts during
 * scenario 3; acts only in the dynamic provider process. Writes that process's peak resident set
 * size (`process.resourceUsage().maxRSS`, KiB) and CPU time (ms) to `$WWS_BENCH_RSS_DIR/<pid>.json`
 * every 100 ms and at exit: the engine may kill the provider rather than let it exit, so the last
 * periodic write has to do then.
 */
import { writeFileSync } from "node:fs";
import { join } from "node:path";

const dir = process.env.WWS_BENCH_RSS_DIR;
if (dir && /dynamic-provider/.test(process.argv[1] ?? "")) {
  const write = (): void => {
    try {
      const usage = process.resourceUsage();
      const cpuMs = (usage.userCPUTime + usage.systemCPUTime) / 1000;
      writeFileSync(
        join(dir, `${process.pid}.json`),
        JSON.stringify({ pid: process.pid, maxRssKb: usage.maxRSS, cpuMs }),
      );
    } catch {
      // The bench removed the directory: nothing to report to.
    }
  };
  setInterval(write, 100).unref();
  process.on("exit", write);
}
