/**
 * Helpers of the reliability tests that go through the real `pulumi` CLI (`cli-*.test.ts`), on top
 * of the e2e harness (`test/e2e/harness.ts`, reused as is): a local service that can be restarted
 * on the same port with its data dir, operations bounded in time (the CLI is interrupted when one
 * overruns), and the forms a secret may take in a file, an output or a log line.
 */
import { execFile } from "node:child_process";
import { randomBytes } from "node:crypto";
import * as fs from "node:fs";
import * as os from "node:os";
import * as path from "node:path";
import { LocalWorkspace, type EngineEvent, type Stack } from "@pulumi/pulumi/automation";
import { newStackDir } from "../support/stack-dir";
import { withLeanResults } from "../support/lean-results";
import { workspacePool } from "../support/workspaces";
import { ControlClient, startService, type RunningService, type ServiceOptions } from "../../server";
import { pulumiBinDir, pulumiCommand, type Service } from "../e2e/harness";

const random = (n = 6): string => randomBytes(n).toString("hex");

export const sleep = (ms: number): Promise<void> => new Promise((r) => setTimeout(r, ms));

// ---------------------------------------------------------------------------------------------
// A service that survives restarts: same port, same data dir, same keys and control token.

export interface RestartableService extends Service {
  /** Closes the service, waits `downtime` (ms, or until the promise settles), starts it again on the same port with the same data dir. */
  restart(downtime?: number | Promise<unknown>): Promise<void>;
  readonly restarts: number;
  readonly dataDir: string;
  readonly controlToken: string;
}

/**
 * A local service on a free port of 127.0.0.1 with persistence in a fresh temp dir, `count`
 * workspaces `<prefix>-1…` with random keys, and the `/_control` endpoints. Implements the e2e
 * harness's `Service`, so `configuredStack` of the harness takes it.
 */
export async function startRestartableService(options: {
  prefix: string;
  count: number;
  service?: ServiceOptions;
  /** The API key of a workspace. @default `<prefix>-key-<n>-<random>` */
  keyFor?: (workspace: string) => string;
}): Promise<RestartableService> {
  const pool = workspacePool(
    options.prefix,
    options.count,
    (ws, i) => options.keyFor?.(ws) ?? `${options.prefix}-key-${i}-${random(12)}`,
  );
  const keys = pool.keys;
  const dataDir = fs.mkdtempSync(path.join(os.tmpdir(), "wws-rel-cli-"));
  const controlToken = `rel-cli-control-${random()}`;
  const base: ServiceOptions = {
    host: "127.0.0.1",
    reconcileMs: 20,
    heartbeatMs: 60_000,
    ...options.service,
    // A workspace given in `service.keys` takes those keys (several, labelled) instead of the pool's one.
    keys: { ...keys, ...options.service?.keys },
    controlToken,
    dataDir,
  };
  let svc = await startService({ ...base, port: 0 });
  const port = svc.port;
  let restarts = 0;
  const service: RestartableService = {
    get svc(): RunningService {
      return svc;
    },
    url: svc.url,
    ctl: new ControlClient(svc.url, controlToken),
    dataDir,
    controlToken,
    get restarts() {
      return restarts;
    },
    workspace: () => pool.workspace(),
    client: (workspace) => pool.client(svc.url, workspace),
    async restart(downtime = 0) {
      await svc.close();
      await (typeof downtime === "number" ? sleep(downtime) : downtime.catch(() => undefined));
      // The port was just released; another process could take it in between, hence a few tries.
      for (let attempt = 1; ; attempt++) {
        try {
          svc = await startService({ ...base, port });
          break;
        } catch (err) {
          if (attempt >= 20 || (err as NodeJS.ErrnoException).code !== "EADDRINUSE") throw err;
          await sleep(100);
        }
      }
      restarts++;
    },
    async close() {
      await pool.closeClients();
      await svc.close();
      fs.rmSync(dataDir, { recursive: true, force: true });
    },
  };
  return service;
}

// ---------------------------------------------------------------------------------------------
// Operations through the CLI, bounded in time.

export interface OpOutcome {
  ok: boolean;
  /** The error's text when the operation failed (includes the CLI's output). */
  error: string;
  stdout: string;
  stderr: string;
  /** Every engine event, as JSON lines (diagnostics carry the provider's console output). */
  events: string[];
  ms: number;
  /** Output values of an `up` that succeeded. */
  outputs: Record<string, unknown>;
}

export type OpKind = "up" | "preview" | "refresh" | "destroy";

/**
 * Runs one operation of `stack` and never waits longer than `timeoutMs`: past it the CLI is
 * interrupted (SIGINT through the Automation API's `signal`) and the returned promise rejects,
 * whether or not the CLI has exited by then (waited for 20 s more at most).
 */
export async function runOp(
  stack: Stack,
  kind: OpKind,
  timeoutMs: number,
  extra: { parallel?: number; debug?: boolean; policyPacks?: string[]; replace?: string[] } = {},
): Promise<OpOutcome> {
  const started = Date.now();
  const out: OpOutcome = { ok: false, error: "", stdout: "", stderr: "", events: [], ms: 0, outputs: {} };
  const abort = new AbortController();
  const common = {
    signal: abort.signal,
    onOutput: (s: string) => void (out.stdout += s),
    onError: (s: string) => void (out.stderr += s),
    onEvent: (e: EngineEvent) => void out.events.push(JSON.stringify(e)),
    ...(extra.debug ? { debug: true } : {}),
    ...(extra.policyPacks ? { policyPacks: extra.policyPacks } : {}),
    ...(extra.replace ? { replace: extra.replace } : {}),
  };
  const run = async (): Promise<void> => {
    if (kind === "up") {
      const r = await stack.up({ ...common, ...(extra.parallel ? { parallel: extra.parallel } : {}) });
      out.outputs = Object.fromEntries(Object.entries(r.outputs).map(([k, v]) => [k, v.value]));
    } else if (kind === "preview")
      await stack.preview({ ...common, ...(extra.parallel ? { parallel: extra.parallel } : {}) });
    else if (kind === "refresh") await stack.refresh(common);
    else await stack.destroy({ ...common, ...(extra.parallel ? { parallel: extra.parallel } : {}) });
  };
  const settled = run().then(
    () => void (out.ok = true),
    (err: unknown) => void (out.error = String(err)),
  );
  let timer: NodeJS.Timeout | undefined;
  const timedOut = await Promise.race([
    settled.then(() => false),
    new Promise<boolean>((r) => (timer = setTimeout(() => r(true), timeoutMs))),
  ]);
  clearTimeout(timer);
  out.ms = Date.now() - started;
  if (timedOut) {
    // ^C (the Automation API's abort): the CLI cancels, but waits for operations in flight.
    abort.abort();
    let ended = await Promise.race([settled.then(() => true), sleep(5_000).then(() => false)]);
    // A second ^C ends it at once, then SIGKILL: only `pulumi` processes this process started.
    for (const signal of ["SIGINT", "SIGKILL"] as const) {
      if (ended) break;
      for (const pid of ownPulumiChildren()) process.kill(pid, signal);
      ended = await Promise.race([settled.then(() => true), sleep(5_000).then(() => false)]);
    }
    throw new Error(
      `pulumi ${kind} did not finish within ${timeoutMs} ms (interrupted); output so far:\n${out.stdout.slice(-4000)}\n${out.stderr.slice(-2000)}`,
    );
  }
  return out;
}

/** Pids of the `pulumi` processes whose parent is this process (the CLI the Automation API runs). */
export function ownPulumiChildren(): number[] {
  const pids: number[] = [];
  for (const entry of fs.readdirSync("/proc")) {
    if (!/^[0-9]+$/.test(entry)) continue;
    try {
      const stat = fs.readFileSync(`/proc/${entry}/stat`, "utf8");
      const comm = stat.slice(stat.indexOf("(") + 1, stat.lastIndexOf(")"));
      const ppid = Number(stat.slice(stat.lastIndexOf(")") + 2).split(" ")[1]);
      if (ppid === process.pid && comm === "pulumi") pids.push(Number(entry));
    } catch {
      // gone meanwhile
    }
  }
  return pids;
}

/** The `error:` lines of an operation's output, deduplicated, for messages and logs. */
export function errorLines(o: OpOutcome, max = 8): string[] {
  const lines = `${o.stdout}\n${o.error}`
    .split("\n")
    .map((l) => l.trim())
    .filter((l) => /\berror\b/i.test(l) && !/^stderr:|Command failed with exit code/.test(l));
  return [...new Set(lines)].slice(0, max);
}

/**
 * A stack whose program is a file, `index.js` of a temp project (runtime nodejs), run by the CLI's
 * language host as `pulumi preview` runs a user's project; `pulumi-wws` and `@pulumi/pulumi` are
 * links to this checkout (`dist/`) as in the e2e harness. For programs that throw: an inline
 * program that throws leaves rejections inside `@pulumi/pulumi` in the test process, which fail
 * the jest suite and upset the next inline operation.
 */
export async function fileProgramStack(
  projectName: string,
): Promise<{ stack: Stack; setProgram(source: string): void; cleanup(): void }> {
  const cmd = await pulumiCommand();
  const { workDir, envVars, cleanup } = newStackDir("wws-rel-cli-", pulumiBinDir(), `rel-passphrase-${random()}`);
  // Plain JavaScript: no ts-node to register, a faster start.
  fs.writeFileSync(
    path.join(workDir, "Pulumi.yaml"),
    `name: ${projectName}\nruntime:\n  name: nodejs\n  options:\n    typescript: false\n`,
  );
  fs.writeFileSync(
    path.join(workDir, "package.json"),
    JSON.stringify({ name: projectName, private: true, main: "index.js" }),
  );
  const stack = withLeanResults(
    await LocalWorkspace.createOrSelectStack({ stackName: "local", workDir }, { workDir, pulumiCommand: cmd, envVars }),
  );
  return {
    stack,
    setProgram: (source) => fs.writeFileSync(path.join(workDir, "index.js"), source),
    cleanup,
  };
}

/**
 * `npx pulumi-wws <args>` in the stack's project directory with its environment, as a user runs it;
 * resolves to its output, rejects on a non-zero exit.
 */
export function pulumiWws(stack: Stack, args: string[], timeoutMs = 120_000): Promise<string> {
  const { workDir, envVars } = stack.workspace;
  const main = path.join(workDir, "node_modules/pulumi-wws/dist/cli/main.js");
  return new Promise((resolve, reject) => {
    execFile(
      process.execPath,
      [main, ...args],
      { cwd: workDir, env: { ...process.env, ...envVars }, timeout: timeoutMs },
      (err, stdout, stderr) => (err ? reject(new Error(`${err.message}\n${stdout}\n${stderr}`)) : resolve(stdout)),
    );
  });
}

// ---------------------------------------------------------------------------------------------
// Secrets: the forms one may take, and where they were found.

/**
 * The base64 text that encodes `secret` wherever it sits in a longer byte string: one pattern per
 * alignment (0, 1 or 2 bytes before it), without the characters its neighbours also decide.
 */
export function base64Forms(secret: string): string[] {
  const bytes = Buffer.from(secret);
  const forms: string[] = [];
  for (let k = 0; k < 3; k++) {
    const b64 = Buffer.concat([Buffer.alloc(k), bytes]).toString("base64");
    forms.push(b64.slice(Math.ceil((8 * k) / 6), Math.floor((8 * (k + bytes.length)) / 6)));
  }
  return forms;
}

/** Raw, JSON-escaped (once and twice: a JSON string inside JSON), URL-encoded and base64 (every alignment, standard and URL-safe). */
export function secretForms(secret: string): string[] {
  const json = JSON.stringify(secret).slice(1, -1);
  const b64 = base64Forms(secret);
  return [
    ...new Set([
      secret,
      json,
      JSON.stringify(json).slice(1, -1),
      encodeURIComponent(secret),
      ...b64,
      ...b64.map((f) => f.replace(/\+/g, "-").replace(/\//g, "_")),
    ]),
  ];
}

/** `where: name (form)` for every secret found in `text`. */
export function secretHits(where: string, text: string, secrets: Record<string, string>): string[] {
  return Object.entries(secrets).flatMap(([name, s]) =>
    secretForms(s)
      .filter((f) => text.includes(f))
      .map((f) => `${where}: ${name} (${f === s ? "raw" : f})`),
  );
}

/** Every regular file under `dir` (symlinks not followed). */
export function filesUnder(dir: string): string[] {
  if (!fs.existsSync(dir)) return [];
  return fs.readdirSync(dir, { withFileTypes: true }).flatMap((e) => {
    const p = path.join(dir, e.name);
    if (e.isSymbolicLink()) return [];
    return e.isDirectory() ? filesUnder(p) : [p];
  });
}
