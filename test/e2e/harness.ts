/**
 * End-to-end harness: the real `pulumi` CLI (scripts/get-pulumi.sh) driven through the Automation
 * API with INLINE programs (the engine talks to the SDK's in-process language server, so no
 * language host is involved), a fresh local file backend per stack, and the local service
 * in-process. The dynamic provider runs in the CLI's `pulumi-resource-pulumi-nodejs` process,
 * which loads `pulumi-wws/provider/dynamic` by name: from each temp project's `node_modules`
 * (symlinks to this checkout and its `@pulumi`), i.e. from `dist/`, rebuilt here when stale.
 */
import { execFile, execFileSync } from "node:child_process";
import { randomBytes } from "node:crypto";
import * as fs from "node:fs";
import * as path from "node:path";
import { promisify } from "node:util";
import {
  LocalWorkspace,
  PulumiCommand,
  type DestroyResult,
  type EngineEvent,
  type OpType,
  type PreviewResult,
  type RefreshResult,
  type Stack,
  type UpResult,
} from "@pulumi/pulumi/automation";
import { ControlClient, type RunningService, type ServiceOptions } from "../../server";
import type { WorkspaceClient } from "../../sdk";
import { pollUntil } from "../support/poll";
import { ROOT, ensureBuilt } from "../support/build";
import { newStackDir } from "../support/stack-dir";
import { withLeanResults } from "../support/lean-results";
import { startTestService } from "../support/service";
import { workspacePool } from "../support/workspaces";
import { runtime as pulumiRuntime } from "@pulumi/pulumi";

export { ROOT, ensureBuilt } from "../support/build";

/**
 * Inline programs run in this process, one after another, each talking to a new CLI's resource
 * monitor on a port the kernel picked. grpc-js pools subchannels process-wide by address: when a
 * port comes round again, a new client gets the subchannel of a CLI that has exited, still backing
 * off, and the program's first call fails at once ("14 UNAVAILABLE: No connection established").
 * The automation language server swallows that gRPC error, so the operation "succeeds" without the
 * program's resources, and the rejection escapes to jest. Seen in about one preview in 40 here.
 * Each client gets subchannels of its own instead (`grpcClientOptions` is @internal to @pulumi/pulumi).
 */
const grpcClientOptions = (pulumiRuntime as unknown as { grpcClientOptions?: Record<string, unknown> })
  .grpcClientOptions;
if (grpcClientOptions) grpcClientOptions["grpc.use_local_subchannel_pool"] = 1;

export const PULUMI_VERSION = "3.259.0";
/** Generous: a `pulumi up` takes a few seconds here, a test runs several. */
export const E2E_TIMEOUT_MS = 180_000;

const execFileAsync = promisify(execFile);
const random = (n = 6): string => randomBytes(n).toString("hex");

// ---------------------------------------------------------------------------------------------
// The CLI and the build the provider process loads.

/** The directory holding `pulumi`, `pulumi-language-nodejs` and `pulumi-resource-pulumi-nodejs`. */
export function pulumiBinDir(): string {
  const out = execFileSync("bash", [path.join(ROOT, "scripts/get-pulumi.sh")], {
    encoding: "utf8",
    stdio: ["ignore", "pipe", "pipe"],
  });
  const dir = out.trim().split("\n").pop() ?? "";
  if (!fs.existsSync(path.join(dir, "pulumi")))
    throw new Error(`scripts/get-pulumi.sh printed no usable directory: ${out}`);
  return dir;
}

// ---------------------------------------------------------------------------------------------
// The local service, shared by the tests of a file; one workspace (and API key) per test.

export const CONTROL_TOKEN = `e2e-control-${random()}`;
const WORKSPACE_COUNT = 16;

export interface Service {
  svc: RunningService;
  url: string;
  ctl: ControlClient;
  /** A workspace no other test uses, with its API key. */
  workspace(): { name: string; apiKey: string };
  client(workspace: string): WorkspaceClient;
  close(): Promise<void>;
}

/** `options` override the service's (its profile, for example). */
async function startSharedService(options: ServiceOptions = {}): Promise<Service> {
  const pool = workspacePool("e2e", WORKSPACE_COUNT, (_, i) => `e2e-api-key-${i}-${random(12)}`);
  const svc = await startTestService({ reconcileMs: 50, controlToken: CONTROL_TOKEN, keys: pool.keys, ...options });
  return {
    svc,
    url: svc.url,
    ctl: new ControlClient(svc.url, CONTROL_TOKEN),
    workspace: () => pool.workspace(),
    client: (workspace) => pool.client(svc.url, workspace),
    async close() {
      await pool.closeClients();
      await svc.close();
    },
  };
}

/** What tests and stacks use of a service: everything but closing it. */
export type ServiceAccess = Omit<Service, "close">;

/** The service of a test file, as its tests use it: the file closes it, and cleans up the stacks it keeps. */
export interface FileService extends ServiceAccess {
  /** Cleans `stack` up after the file's tests; returns it. */
  keep<T extends { cleanup(): void }>(stack: T): T;
}

/**
 * The shared service of a test file (or of a `describe`): dist/ built and the service started
 * before its tests; after them, the stacks it kept cleaned up and the service closed.
 */
export function serviceForFile(options: ServiceOptions = {}): FileService {
  let started: Service | undefined;
  const kept: { cleanup(): void }[] = [];
  beforeAll(async () => {
    ensureBuilt();
    started = await startSharedService(options);
  });
  afterAll(async () => {
    for (const s of kept) s.cleanup();
    await started?.close();
  });
  const service = (): Service => {
    if (!started) throw new Error("the file's service starts in beforeAll: use it from a hook or a test");
    return started;
  };
  return {
    get svc() {
      return service().svc;
    },
    get url() {
      return service().url;
    },
    get ctl() {
      return service().ctl;
    },
    workspace: () => service().workspace(),
    client: (workspace) => service().client(workspace),
    keep(stack) {
      kept.push(stack);
      return stack;
    },
  };
}

/** Polls until `check` returns something other than undefined/false. */
export function until<T>(what: string, check: () => Promise<T | undefined | false>, timeoutMs = 20_000): Promise<T> {
  return pollUntil(check, { what, timeoutMs, intervalMs: 25 });
}

// ---------------------------------------------------------------------------------------------
// A stack: fresh temp project dir and file backend; every operation is followed by a scan of
// everything it left behind for the secrets the test used.

export type Program = () => Promise<Record<string, unknown> | void>;

export interface OpRecord {
  /** Per-resource operations by resource name, in order, from the engine's events (a replacement has several). */
  ops: Map<string, OpType[]>;
  /**
   * Per-resource input keys whose values differ between the old and the new inputs of the
   * engine's event (the engine's own `detailedDiff` is in `preview --json`, see cli-json.ts);
   * secret values are masked in events, so a secret's change is not seen.
   */
  diffs: Map<string, string[]>;
  /** Per-resource keys that cause a replacement, as the engine reports them. */
  replaceKeys: Map<string, string[]>;
  /** Per resource, when (epoch ms) this process received the engine's event that its step finished: after the provider returned. */
  doneAt: Map<string, number>;
  stdout: string;
  stderr: string;
}

export interface E2eStack {
  stack: Stack;
  workDir: string;
  backendDir: string;
  /** Replaces the program the next operation runs. */
  setProgram(program: Program): void;
  up(): Promise<UpResult & OpRecord>;
  preview(): Promise<PreviewResult & OpRecord>;
  refresh(): Promise<RefreshResult & OpRecord>;
  destroy(): Promise<DestroyResult & OpRecord>;
  /** Rejects like the operation; the error's text includes the CLI's output. */
  upError(): Promise<string>;
  /** Resources of the exported state (the stack and provider resources left out). */
  resources(): Promise<Array<{ urn: string; type: string; id?: string; outputs?: Record<string, unknown> }>>;
  /**
   * Throws if any of `secrets` appears in plaintext in `pulumi stack export` (so in a value not
   * marked secret), in any file of the backend (checkpoint, history, backups), in the stack config
   * or in the CLI's output so far. Run after every operation (`up`, `preview`, …).
   */
  assertNoPlaintext(): Promise<void>;
  cleanup(): void;
}

let cachedCommand: Promise<PulumiCommand> | undefined;
let binDir: string | undefined;

export function pulumiCommand(): Promise<PulumiCommand> {
  binDir ??= pulumiBinDir();
  cachedCommand ??= PulumiCommand.get({ root: path.dirname(binDir) });
  return cachedCommand;
}

function filesUnder(dir: string): string[] {
  if (!fs.existsSync(dir)) return [];
  return fs.readdirSync(dir, { withFileTypes: true }).flatMap((e) => {
    const p = path.join(dir, e.name);
    if (e.isSymbolicLink()) return [];
    return e.isDirectory() ? filesUnder(p) : [p];
  });
}

/** The resource name of an URN (`urn:pulumi:stack::project::type::name` → `name`). */
export const nameOf = (urn: string): string => urn.slice(urn.lastIndexOf("::") + 2);

function recorder(): {
  onEvent: (e: EngineEvent) => void;
  onOutput: (s: string) => void;
  onError: (s: string) => void;
  record: OpRecord;
} {
  const record: OpRecord = {
    ops: new Map(),
    diffs: new Map(),
    replaceKeys: new Map(),
    doneAt: new Map(),
    stdout: "",
    stderr: "",
  };
  return {
    record,
    onEvent: (e) => {
      const done = e.resOutputsEvent?.metadata;
      if (done) record.doneAt.set(nameOf(done.urn), Date.now());
      const m = e.resourcePreEvent?.metadata;
      if (!m || m.type === "pulumi:pulumi:Stack" || m.type.startsWith("pulumi:providers:")) return;
      const name = nameOf(m.urn);
      record.ops.set(name, [...(record.ops.get(name) ?? []), m.op]);
      const olds = m.old?.inputs ?? {};
      const news = m.new?.inputs ?? {};
      const changed = [...new Set([...Object.keys(olds), ...Object.keys(news)])].filter(
        (k) => k !== "__provider" && JSON.stringify(olds[k]) !== JSON.stringify(news[k]),
      );
      if (m.old && m.new && changed.length > 0) record.diffs.set(name, changed.sort());
      if (m.keys?.length) record.replaceKeys.set(name, [...m.keys].sort());
    },
    onOutput: (s) => (record.stdout += s),
    onError: (s) => (record.stderr += s),
  };
}

/**
 * A stack `e2e` (of project `wws-e2e` unless named) on a fresh file backend in a temp dir, running `program`
 * inline. `config` is set on the stack (`secret: true` values encrypted); `secrets` are the
 * strings that must never be found in plaintext: every operation is followed by `assertNoPlaintext`.
 */
export async function newStack(options: {
  program: Program;
  /** @default "wws-e2e" (config keys without a namespace belong to the project) */
  projectName?: string;
  config?: Record<string, { value: string; secret?: boolean }>;
  /** Read when each operation ends, so a test may add to it after the stack exists. */
  secrets: string[];
  /** @default "e2e" */
  stackName?: string;
  /** @default a random one */
  passphrase?: string;
  /** Files written into the project directory before the stack is created (e.g. its `Pulumi.<stack>.yaml`). */
  files?: Record<string, string>;
}): Promise<E2eStack> {
  const cmd = await pulumiCommand();
  const { workDir, backendDir, envVars, cleanup } = newStackDir(
    "wws-e2e-",
    binDir ?? pulumiBinDir(),
    options.passphrase ?? `e2e-passphrase-${random()}`,
  );
  let program = options.program;
  const projectName = options.projectName ?? "wws-e2e";
  const stackName = options.stackName ?? "e2e";
  for (const [name, text] of Object.entries(options.files ?? {})) fs.writeFileSync(path.join(workDir, name), text);
  const stack = withLeanResults(
    await LocalWorkspace.createOrSelectStack(
      { stackName, projectName, program: () => program() },
      { workDir, pulumiCommand: cmd, envVars, projectSettings: { name: projectName, runtime: "nodejs" } },
    ),
  );
  if (options.config) await stack.setAllConfig(options.config);

  const outputs: string[] = [];
  /** Runs an operation, then looks for the secrets everywhere it may have left them, whether it succeeded or failed. */
  async function op<T>(run: (r: ReturnType<typeof recorder>) => Promise<T>): Promise<T & OpRecord> {
    const r = recorder();
    let result: T;
    try {
      result = await run(r);
    } catch (err) {
      outputs.push(r.record.stdout, r.record.stderr, String(err));
      await e2e.assertNoPlaintext();
      throw err;
    }
    outputs.push(r.record.stdout, r.record.stderr);
    await e2e.assertNoPlaintext();
    return Object.assign(result as object, r.record) as T & OpRecord;
  }

  const e2e: E2eStack = {
    stack,
    workDir,
    backendDir,
    setProgram: (p) => void (program = p),
    up: () => op((r) => stack.up({ onEvent: r.onEvent, onOutput: r.onOutput, onError: r.onError })),
    preview: () =>
      op((r) => stack.preview({ onEvent: r.onEvent, onOutput: r.onOutput, onError: r.onError, diff: true })),
    refresh: () => op((r) => stack.refresh({ onEvent: r.onEvent, onOutput: r.onOutput, onError: r.onError })),
    destroy: () => op((r) => stack.destroy({ onEvent: r.onEvent, onOutput: r.onOutput, onError: r.onError })),
    async upError() {
      try {
        await e2e.up();
      } catch (err) {
        return String(err);
      }
      throw new Error("expected `pulumi up` to fail");
    },
    async resources() {
      const state = await stack.exportStack();
      const all = (state.deployment.resources ?? []) as Array<{
        urn: string;
        type: string;
        id?: string;
        outputs?: Record<string, unknown>;
      }>;
      return all.filter((r) => r.type !== "pulumi:pulumi:Stack" && !r.type.startsWith("pulumi:providers:"));
    },
    async assertNoPlaintext() {
      // `pulumi stack export` as a user runs it: secret values stay encrypted there, so a secret
      // found in it sits in a value not marked secret. (The decrypted export, `--show-secrets`,
      // with its secret values left out, is the same text: one CLI run per operation is enough.)
      const secrets = options.secrets.filter((s) => s.length > 0);
      const exported = await execFileAsync(cmd.command, ["stack", "export", "--stack", stackName], {
        cwd: workDir,
        env: { ...process.env, ...envVars },
        maxBuffer: 64 * 1024 * 1024,
      });
      const places: Array<[string, string]> = [["pulumi stack export", exported.stdout]];
      const files = [...filesUnder(backendDir), ...filesUnder(workDir).filter((f) => /Pulumi\..*\.yaml$/.test(f))];
      expect(files.filter((f) => f.endsWith(path.join("stacks", projectName, `${stackName}.json`)))).toHaveLength(1); // the checkpoint is among them
      for (const f of files) places.push([f, fs.readFileSync(f, "latin1")]);
      places.push(["CLI output", outputs.join("\n")]);
      const found = places.flatMap(([where, text]) => secrets.filter((s) => text.includes(s)).map(() => where));
      expect(found).toEqual([]);
    },
    cleanup,
  };
  return e2e;
}

/**
 * A stack on a workspace of its own, whose connection comes from the stack config (`wws:baseUrl`,
 * `wws:workspace`, and `wws:apiKey` as a secret), with a client of that workspace.
 */
export async function configuredStack(service: ServiceAccess, program: Program, secrets: string[] = []) {
  const ws = service.workspace();
  const s = await newStack({
    program,
    config: {
      "wws:baseUrl": { value: service.url },
      "wws:workspace": { value: ws.name },
      "wws:apiKey": { value: ws.apiKey, secret: true },
    },
    secrets: [ws.apiKey, ...secrets],
  });
  return { ...s, ws, client: service.client(ws.name) };
}

/** A password the test knows, so that it can look for it. */
export const password = (what: string): string => `${what}-Pw-${random(8)}`;
