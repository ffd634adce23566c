/**
 * `npm ci` refuses a lockfile that lacks an optional platform package a locked parent pins, on
 * every platform (scripts/complete-lockfile.js says why npm writes such a lockfile here).
 */
import { spawnSync } from "node:child_process";
import * as fs from "node:fs";
import * as path from "node:path";
import { ROOT } from "../e2e/harness";

describe("package-lock.json", () => {
  it("should hold every platform package its locked parents pin (darwin, linux, win32; x64 and arm64)", () => {
    const r = spawnSync(process.execPath, [path.join(ROOT, "scripts/complete-lockfile.js"), "--check"], {
      encoding: "utf8",
    });
    expect(r.stderr).toBe("");
    expect(r.status).toBe(0);
    const lock = JSON.parse(fs.readFileSync(path.join(ROOT, "package-lock.json"), "utf8")) as {
      packages: Record<string, unknown>;
    };
    const swc = Object.keys(lock.packages).filter((k) => k.startsWith("node_modules/@swc/core-"));
    for (const platform of ["darwin-arm64", "darwin-x64", "linux-x64-gnu", "linux-arm64-gnu", "win32-x64-msvc"])
      expect(swc).toContain(`node_modules/@swc/core-${platform}`);
  });
});
