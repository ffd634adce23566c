/**
 * A stack trace from the package names files the package ships. The dynamic provider host of
 * `@pulumi/pulumi` registers `source-map-support`, so a shipped source map would point a user's
 * traces at `.ts` sources the package does not hold: the build writes no maps, and none is shipped.
 */
import { execFileSync } from "node:child_process";
import * as path from "node:path";
import { ROOT } from "../e2e/harness";
import { buildIfStale } from "./build";

jest.setTimeout(60_000);

/** The files `npm pack` would ship, relative to the package root. */
function shippedFiles(): string[] {
  const out = execFileSync("npm", ["pack", "--dry-run", "--json", "--ignore-scripts", "--loglevel=error"], {
    cwd: ROOT,
    encoding: "utf8",
    env: { ...process.env, PATH: `${path.dirname(process.execPath)}${path.delimiter}${process.env.PATH}` },
    maxBuffer: 16 * 1024 * 1024,
  });
  return (JSON.parse(out) as Array<{ files: Array<{ path: string }> }>)[0].files.map((f) => f.path);
}

it("should point a trace from the provider, read as the host reads it, at files the package ships", () => {
  buildIfStale();
  const shipped = shippedFiles();
  expect(shipped.filter((f) => f.endsWith(".map"))).toEqual([]);
  const module = path.join(ROOT, "dist/provider/dynamic/inputs/ids.js");
  const stack = execFileSync(
    process.execPath,
    [
      "-r",
      require.resolve("source-map-support/register"),
      "-e",
      `try { require(${JSON.stringify(module)}).parseId("bad", "workload") } catch (e) { console.log(e.stack) }`,
    ],
    { encoding: "utf8" },
  );
  const frames = [...stack.matchAll(/\((\/[^)]+?):\d+:\d+\)/g)].map((m) => m[1]).filter((f) => f.startsWith(ROOT));
  expect(frames.length).toBeGreaterThan(0);
  expect(frames.map((f) => path.relative(ROOT, f)).filter((f) => !shipped.includes(f))).toEqual([]);
});
