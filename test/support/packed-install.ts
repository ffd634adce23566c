import { execFile } from "node:child_process";
import * as fs from "node:fs";
import * as os from "node:os";
import * as path from "node:path";
import { promisify } from "node:util";
import { PULUMI_VERSION, ROOT } from "../e2e/harness";
import { buildIfStale } from "../package/build";

const execFileAsync = promisify(execFile);

/** `npm` with this Node first on PATH, quiet. */
export const npm = (args: string[], cwd: string) =>
  execFileAsync("npm", [...args, "--no-audit", "--no-fund", "--loglevel=error"], {
    cwd,
    env: { ...process.env, PATH: `${path.dirname(process.execPath)}${path.delimiter}${process.env.PATH}` },
    maxBuffer: 16 * 1024 * 1024,
  });

/** A project outside the checkout with the package installed from its packed tarball (as test/package/packed does). */
export interface PackedProject {
  tmp: string;
  app: string;
  cleanup(): void;
}

/** `npm pack` of the checkout (dist/ rebuilt when stale), installed with `@pulumi/pulumi` into `<tmp>/app`. */
export async function packedProject(prefix: string): Promise<PackedProject> {
  buildIfStale();
  const tmp = fs.mkdtempSync(path.join(os.tmpdir(), prefix));
  const app = path.join(tmp, "app");
  fs.mkdirSync(app);
  const packed = await npm(["pack", "--ignore-scripts", "--json", "--pack-destination", tmp], ROOT);
  const tarball = path.join(tmp, (JSON.parse(packed.stdout) as Array<{ filename: string }>)[0].filename);
  fs.writeFileSync(
    path.join(app, "package.json"),
    JSON.stringify({ name: "a-team-stack", private: true, main: "index.js" }),
  );
  await npm(["install", "--prefer-offline", "--ignore-scripts", tarball, `@pulumi/pulumi@${PULUMI_VERSION}`], app);
  return { tmp, app, cleanup: () => fs.rmSync(tmp, { recursive: true, force: true }) };
}
