import { spawnSync } from "node:child_process";
import { existsSync, readdirSync, statSync } from "node:fs";
import { join, relative } from "node:path";

/** The checkout's root. */
export const ROOT = join(__dirname, "../..");

/** What processes the tests start run from dist/: the service CLI, the provider, the import CLI. */
const SOURCE_ROOTS = ["index.ts", "sdk", "provider", "server", "cli", "testing", "watch", "rehearse", "automation"];

function sources(path: string): string[] {
  if (!statSync(path).isDirectory()) return path.endsWith(".ts") && !path.endsWith(".d.ts") ? [path] : [];
  return readdirSync(path).flatMap((name) => sources(join(path, name)));
}

/** Sources whose compiled file in dist/ is missing or older than the source. */
export function staleSources(): string[] {
  return SOURCE_ROOTS.flatMap((p) => sources(join(ROOT, p))).filter((src) => {
    const out = join(ROOT, "dist", relative(ROOT, src).replace(/\.ts$/, ".js"));
    return !existsSync(out) || statSync(out).mtimeMs < statSync(src).mtimeMs;
  });
}

/**
 * Builds dist/ with `tsc -p tsconfig.build.json` when a source is newer than its output. tsc
 * emits even when some file does not typecheck (typecheck is CI's own step): the build is good
 * as long as every file came out fresh.
 */
export function ensureBuilt(): void {
  if (staleSources().length === 0) return;
  const tsc = require.resolve("typescript/bin/tsc");
  const r = spawnSync(process.execPath, [tsc, "-p", "tsconfig.build.json"], {
    cwd: ROOT,
    encoding: "utf8",
    timeout: 180_000,
  });
  const stale = staleSources();
  if (stale.length > 0) {
    throw new Error(
      `dist/ is stale and the build left ${stale.length} files behind (first: ${stale[0]}); tsc exit ${r.status}:\n${r.stdout}${r.stderr}`,
    );
  }
}
