import { randomBytes } from "node:crypto";
import * as fs from "node:fs";
import * as os from "node:os";
import * as path from "node:path";
import { runtime as pulumiRuntime } from "@pulumi/pulumi";
import { LocalWorkspace, type PulumiCommand, type PulumiFn, type Stack } from "@pulumi/pulumi/automation";
import type { LocalService } from "./service";

/**
 * Inline programs run in this process, each against a new CLI's resource monitor on a port the
 * kernel picked; grpc-js pools subchannels by address process-wide, so when a port comes round
 * again a new program may get the subchannel of an exited CLI and lose its first call. Each
 * client gets subchannels of its own instead (`grpcClientOptions` is internal to @pulumi/pulumi).
 */
const grpcClientOptions = (pulumiRuntime as unknown as { grpcClientOptions?: Record<string, unknown> })
  .grpcClientOptions;
if (grpcClientOptions) grpcClientOptions["grpc.use_local_subchannel_pool"] = 1;

export interface TestStackOptions {
  /** The local service (from `startLocalService`): its URL, workspace and key become the stack config. */
  service: LocalService;
  /** An inline program. Give this or `projectDir`. */
  program?: PulumiFn;
  /** A Pulumi project directory (with Pulumi.yaml), run as `pulumi up` runs it; its `Pulumi.<stack>.yaml` is removed by `close()`. */
  projectDir?: string;
  /** @default "test-<random>" */
  stackName?: string;
  /** The project name of an inline program. @default "wws-test" */
  projectName?: string;
  /** More stack config, e.g. `{"myproj:dbPassword": {value: "…", secret: true}}`. */
  config?: Record<string, { value: string; secret?: boolean }>;
  /** The CLI to use. @default the `pulumi` on PATH */
  pulumiCommand?: PulumiCommand;
}

export interface TestStack {
  stack: Stack;
  /** The stack's file backend, a temp dir. */
  backendDir: string;
  /** Destroys what the stack holds (unless `keepResources`), removes the stack and the temp dirs. */
  close(options?: { keepResources?: boolean }): Promise<void>;
}

/** The directory of the installed package (or this checkout): where the provider process finds `pulumi-wws`. */
function packageRoot(): string {
  for (let dir = __dirname; ; dir = path.dirname(dir)) {
    const pkg = path.join(dir, "package.json");
    if (fs.existsSync(pkg) && (JSON.parse(fs.readFileSync(pkg, "utf8")) as { name?: string }).name === "pulumi-wws")
      return dir;
    if (path.dirname(dir) === dir)
      throw new Error(`pulumi-wws/testing: no package.json of pulumi-wws above ${__dirname}`);
  }
}

/**
 * A stack on a fresh local file backend (a temp dir, a random passphrase) whose connection is the
 * local service: `wws:baseUrl`, `wws:workspace` and `wws:apiKey` (secret) are set in its config.
 * Run it with the Automation API: `await s.stack.up()`, `preview()`, `refresh()`, `destroy()`.
 */
export async function createTestStack(options: TestStackOptions): Promise<TestStack> {
  if ((options.program === undefined) === (options.projectDir === undefined))
    throw new Error("createTestStack: give either program or projectDir");
  const tmp = fs.mkdtempSync(path.join(os.tmpdir(), "wws-test-stack-"));
  const backendDir = path.join(tmp, "backend");
  fs.mkdirSync(backendDir);
  const stackName = options.stackName ?? `test-${randomBytes(4).toString("hex")}`;
  const envVars = {
    PULUMI_BACKEND_URL: `file://${backendDir}`,
    PULUMI_CONFIG_PASSPHRASE: randomBytes(18).toString("base64url"),
    PULUMI_SKIP_UPDATE_CHECK: "true",
    PULUMI_DISABLE_AUTOMATIC_PLUGIN_ACQUISITION: "true",
    // The CLI starts the dynamic provider as a Node process: this Node first.
    PATH: [path.dirname(process.execPath), process.env.PATH].join(path.delimiter),
  };
  const wsOptions = { envVars, pulumiCommand: options.pulumiCommand };
  let stack: Stack;
  if (options.program) {
    // The provider process resolves `pulumi-wws` from the project dir: link the installed packages there.
    const workDir = path.join(tmp, "project");
    fs.mkdirSync(path.join(workDir, "node_modules", "@pulumi"), { recursive: true });
    fs.symlinkSync(packageRoot(), path.join(workDir, "node_modules", "pulumi-wws"), "dir");
    fs.symlinkSync(
      path.dirname(require.resolve("@pulumi/pulumi/package.json")),
      path.join(workDir, "node_modules", "@pulumi", "pulumi"),
      "dir",
    );
    const projectName = options.projectName ?? "wws-test";
    stack = await LocalWorkspace.createOrSelectStack(
      { stackName, projectName, program: options.program },
      { ...wsOptions, workDir, projectSettings: { name: projectName, runtime: "nodejs" } },
    );
  } else {
    stack = await LocalWorkspace.createOrSelectStack(
      { stackName, workDir: path.resolve(options.projectDir as string) },
      wsOptions,
    );
  }
  const svc = options.service;
  await stack.setAllConfig({
    "wws:baseUrl": { value: svc.baseUrl },
    "wws:workspace": { value: svc.workspace },
    "wws:apiKey": { value: svc.apiKey, secret: true },
    ...options.config,
  });
  return {
    stack,
    backendDir,
    async close(closeOptions = {}) {
      try {
        if (!closeOptions.keepResources) await stack.destroy();
        await stack.workspace.removeStack(stackName);
      } finally {
        if (options.projectDir) fs.rmSync(path.join(options.projectDir, `Pulumi.${stackName}.yaml`), { force: true });
        fs.rmSync(tmp, { recursive: true, force: true });
      }
    },
  };
}
