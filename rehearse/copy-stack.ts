import { randomBytes } from "node:crypto";
import * as fs from "node:fs";
import * as path from "node:path";
import { LocalWorkspace, Stack, type ConfigMap, type Deployment } from "@pulumi/pulumi/automation";
import { pulumi } from "../automation/pulumi-cli";
import { repointState } from "./repoint-state";

/** A stack's own settings files: never linked into the copy, whose stack file is its own. */
const STACK_FILE = /^Pulumi\.[^/]+\.ya?ml$/;
/** Left out of the copy's project dir: a file backend kept in the project, and the VCS. */
const NOT_LINKED = new Set([".pulumi", ".git"]);

/** What the rehearsal reads of the user's stack, with reads only. */
export interface StackOriginal {
  config: ConfigMap;
  /** `pulumi stack export --show-secrets`: the state, secrets in plaintext (kept in memory only). */
  deployment: Deployment;
}

/** Reads the user's stack: its config (secrets decrypted, as `pulumi up` gets it) and its state. */
export async function readStack(workDir: string, stackName: string, env: NodeJS.ProcessEnv): Promise<StackOriginal> {
  const ws = await LocalWorkspace.create({ workDir, envVars: definedOnly(env) });
  // The Automation API's export is `pulumi stack export --show-secrets`.
  const [config, deployment] = await Promise.all([ws.getAllConfig(stackName), ws.exportStack(stackName)]);
  return { config, deployment };
}

/** `env` as the Automation API takes it: only the variables that are set. */
export function definedOnly(env: NodeJS.ProcessEnv): Record<string, string> {
  return Object.fromEntries(Object.entries(env).filter((e): e is [string, string] => e[1] !== undefined));
}

/**
 * The project dir as the copy runs it: every entry of the user's dir linked, but the stack files.
 * The program, its packages and its files are the user's own; only the copy's stack file (salt,
 * config pointed at the copy) is written, and it is written here, never in the user's dir.
 */
function mirrorProject(workDir: string, into: string): void {
  fs.mkdirSync(into, { recursive: true });
  for (const name of fs.readdirSync(workDir)) {
    if (STACK_FILE.test(name) || NOT_LINKED.has(name)) continue;
    fs.symlinkSync(path.join(workDir, name), path.join(into, name));
  }
}

/** The throwaway stack: same name and project, its own file backend and passphrase. */
export interface StackCopy {
  stack: Stack;
  /** The environment every command on the copy runs with. */
  envVars: Record<string, string>;
}

/**
 * Creates the copy of the stack under `tmp`: a file backend, a throwaway passphrase, the user's
 * config with `overrides` (the connection to the copy), and the user's state imported with its
 * secrets re-encrypted under the throwaway passphrase.
 */
export async function copyStack(options: {
  workDir: string;
  stackName: string;
  original: StackOriginal;
  overrides: ConfigMap;
  /** Connection values the state records (the real base URL and key) and the copy's in their place. */
  repoint: ReadonlyMap<string, string>;
  tmp: string;
  env: Record<string, string>;
}): Promise<StackCopy> {
  const project = path.join(options.tmp, "project");
  const backend = path.join(options.tmp, "backend");
  fs.mkdirSync(backend, { recursive: true });
  mirrorProject(options.workDir, project);
  const passphrase = randomBytes(24).toString("hex");
  const passphraseFile = path.join(options.tmp, "passphrase");
  fs.writeFileSync(passphraseFile, passphrase, { mode: 0o600 });
  const envVars = {
    ...options.env,
    PULUMI_BACKEND_URL: `file://${backend}`,
    PULUMI_CONFIG_PASSPHRASE: passphrase,
    PULUMI_CONFIG_PASSPHRASE_FILE: passphraseFile,
    PULUMI_SKIP_UPDATE_CHECK: "true",
  };
  const ws = await LocalWorkspace.create({ workDir: project, envVars });
  const stack = await Stack.create(options.stackName, ws);
  const config: ConfigMap = {};
  for (const [key, v] of Object.entries(options.original.config)) config[key] = { value: v.value, secret: v.secret };
  await stack.setAllConfig({ ...config, ...options.overrides });
  // The new stack's own secrets provider (its salt) replaces the user's: the plaintext secrets
  // are encrypted with it on import.
  const own = (await ws.exportStack(options.stackName)).deployment as Record<string, unknown>;
  const deployment = repointState(options.original.deployment.deployment as Record<string, unknown>, options.repoint);
  deployment.secrets_providers = own.secrets_providers;
  // Not the Automation API's importStack: it writes the file, secrets in plaintext, to the shared
  // temp dir with the default mode, and leaves it there when the import fails. Here it is mode
  // 0600 in the rehearsal's own directory (0700), removed with it.
  const file = path.join(options.tmp, "state.json");
  fs.writeFileSync(file, JSON.stringify({ version: options.original.deployment.version, deployment }), { mode: 0o600 });
  try {
    await pulumi(["stack", "import", "--file", file], options.stackName, {
      cwd: project,
      env: { ...process.env, ...envVars },
    });
  } finally {
    fs.rmSync(file, { force: true });
  }
  return { stack, envVars };
}
