import { randomBytes } from "node:crypto";
import * as fs from "node:fs";
import * as os from "node:os";
import * as path from "node:path";
import { linkPackages } from "../../bench/pulumi-stack";
import { ROOT } from "./build";

/** A temp project for the real CLI, with its own file backend. */
export interface StackDir {
  tmp: string;
  workDir: string;
  backendDir: string;
  /** The environment of every CLI run on this project: its backend, its passphrase, no plugin downloads. */
  envVars: Record<string, string>;
  cleanup(): void;
}

/**
 * `<tmp>/project` and `<tmp>/backend`. The provider process evaluates the serialized provider
 * relative to the project dir: `pulumi-wws` (this checkout, i.e. `dist/`) and `@pulumi/pulumi`
 * must resolve from there, hence the links in its `node_modules`. `binDir` (the CLI's) and this
 * Node (the one running jest) go first on PATH: the dynamic provider launcher needs both.
 */
export function newStackDir(
  tmpPrefix: string,
  binDir: string,
  passphrase = `stack-passphrase-${randomBytes(6).toString("hex")}`,
): StackDir {
  const tmp = fs.mkdtempSync(path.join(os.tmpdir(), tmpPrefix));
  const workDir = path.join(tmp, "project");
  const backendDir = path.join(tmp, "backend");
  linkPackages(ROOT, workDir);
  fs.mkdirSync(backendDir);
  const envVars = {
    PULUMI_BACKEND_URL: `file://${backendDir}`,
    PULUMI_CONFIG_PASSPHRASE: passphrase,
    PULUMI_SKIP_UPDATE_CHECK: "true",
    PULUMI_DISABLE_AUTOMATIC_PLUGIN_ACQUISITION: "true",
    // Node ≥ 22.1 keeps the compiled code of every provider process's modules here: each CLI run
    // starts one, and loading @pulumi/pulumi from scratch cost about 0.6 s of CPU each time.
    NODE_COMPILE_CACHE: path.join(os.tmpdir(), "wws-test-node-compile-cache"),
    PATH: [binDir, path.dirname(process.execPath), process.env.PATH].join(path.delimiter),
  };
  return { tmp, workDir, backendDir, envVars, cleanup: () => fs.rmSync(tmp, { recursive: true, force: true }) };
}
