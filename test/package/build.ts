import { execFileSync } from "node:child_process";
import * as fs from "node:fs";
import * as path from "node:path";
import { ROOT } from "../e2e/harness";

const SOURCES = ["index.ts", "sdk", "provider", "server", "cli", "testing", "watch", "rehearse"];

function newestSource(p: string): number {
  const st = fs.statSync(p);
  if (!st.isDirectory()) return p.endsWith(".ts") ? st.mtimeMs : 0;
  return Math.max(0, ...fs.readdirSync(p).map((e) => newestSource(path.join(p, e))));
}

/** `npm pack` ships dist/ as it is: rebuild it (all of it, commands included) when a source is newer. */
export function buildIfStale(): void {
  const marker = path.join(ROOT, "dist/index.js");
  const built = fs.existsSync(marker) ? fs.statSync(marker).mtimeMs : 0;
  if (Math.max(...SOURCES.map((s) => newestSource(path.join(ROOT, s)))) <= built) return;
  execFileSync(
    process.execPath,
    [require.resolve("typescript/bin/tsc"), "-p", path.join(ROOT, "tsconfig.build.json")],
    { cwd: ROOT, stdio: "pipe" },
  );
}
