import { randomBytes } from "node:crypto";
import * as fs from "node:fs";
import * as os from "node:os";
import * as path from "node:path";
import type { Stack } from "@pulumi/pulumi/automation";
import { startService, type RunningService } from "../server";
import { writeSeedDataDir } from "../server/seed";
import { copyWorkspace, type NotCopied, type RealConnection, type WorkspaceCopy } from "./copy-workspace";
import { copyStack, definedOnly, readStack, type StackOriginal } from "./copy-stack";
import { EventRows } from "./event-rows";
import { guardedEnv, startGuardProxy, type GuardProxy } from "./guard-proxy";
import { verdictOf, type RehearsalReport, type ResourceRow, type StepResult } from "./report";
import { pulumi } from "../automation/pulumi-cli";

/** Options of `rehearse`. Every one is optional; the defaults are `DEFAULT_REHEARSE_OPTIONS`. */
export interface RehearseOptions {
  /** The stack's project directory. @default process.cwd() */
  workDir?: string;
  /** The stack. @default the selected one (`pulumi stack --show-name`) */
  stack?: string;
  /** Also rehearse `pulumi destroy` after the `up`. @default false */
  destroy?: boolean;
  /** The environment the user's `pulumi` commands run with (backend, passphrase, WWS_*). @default process.env */
  env?: NodeJS.ProcessEnv;
  /** A line per step as the rehearsal goes. @default none */
  onProgress?: (line: string) => void;
}

/** Operations of a preview that change nothing. */
const QUIET_OPS = new Set(["same", "read"]);

const CONNECTION_KEYS = { baseUrl: "wws:baseUrl", workspace: "wws:workspace", apiKey: "wws:apiKey" } as const;

/** The real workspace the stack's config points at (then WWS_* of the environment, as the provider does). */
function realConnection(original: StackOriginal, env: NodeJS.ProcessEnv): RealConnection | string {
  const get = (key: string, envName: string): string | undefined =>
    original.config[key]?.value || env[envName] || undefined;
  const baseUrl = get(CONNECTION_KEYS.baseUrl, "WWS_BASE_URL");
  const workspace = get(CONNECTION_KEYS.workspace, "WWS_WORKSPACE");
  const apiKey = get(CONNECTION_KEYS.apiKey, "WWS_API_KEY");
  const missing = [
    !baseUrl && "wws:baseUrl (or WWS_BASE_URL)",
    !workspace && "wws:workspace (or WWS_WORKSPACE)",
    !apiKey && "wws:apiKey (or WWS_API_KEY)",
  ].filter(Boolean);
  if (missing.length > 0) return `the stack's config does not say which workspace to copy: set ${missing.join(", ")}`;
  return { baseUrl: baseUrl!, workspace: workspace!, apiKey: apiKey! };
}

/** Ids of the workloads the stack's state records (a resource's id is `workspace/id` or the id). */
function recordedIds(original: StackOriginal): Set<string> {
  const resources =
    (original.deployment.deployment as { resources?: Array<{ type: string; id?: string }> }).resources ?? [];
  return new Set(
    resources.filter((r) => r.type.includes("/wws:") && r.id).map((r) => r.id!.slice(r.id!.lastIndexOf("/") + 1)),
  );
}

const errorText = (err: unknown): string => (err instanceof Error ? err.message : String(err));

/**
 * Rehearses the stack's change: copies the workspace its config points at into a local service
 * started for the rehearsal (reads only, with the stack's key), copies the stack into a throwaway
 * backend pointed at the copy, runs `up` of the program as it is now, a second preview that must be
 * clean, and with `destroy` a `destroy`; reports per resource. Writes nothing to the real service,
 * the user's stack or its project dir; every copy is removed at the end.
 */
export async function rehearse(options: RehearseOptions = {}): Promise<RehearsalReport> {
  const started = Date.now();
  const env = options.env ?? process.env;
  const workDir = path.resolve(options.workDir ?? process.cwd());
  const progress = options.onProgress ?? (() => undefined);
  const steps: StepResult[] = [];
  const resources: ResourceRow[] = [];
  let notCopied: NotCopied[] = [];
  let copied = { workloads: 0, templates: 0 };
  let othersWorkloads: string[] = [];
  let stackName = options.stack ?? "";
  let workspace = "";
  const tmp = fs.mkdtempSync(path.join(os.tmpdir(), "pulumi-wws-rehearse-"));
  let copy: RunningService | undefined;
  let guard: GuardProxy | undefined;
  // Whatever the steps say, a request refused on its way to another service means the copy was not the target.
  const finish = (reason?: string): RehearsalReport =>
    verdictOf({
      stack: stackName,
      workspace,
      reason: reason ?? (guard && guard.refused.size > 0 ? guardReason(guard) : undefined),
      steps,
      resources,
      copied,
      notCopied,
      othersWorkloads,
      ms: Date.now() - started,
    });
  try {
    // 1. Reads only: the stack's config and state, then the real workspace.
    const t0 = Date.now();
    let original: StackOriginal;
    let ws: WorkspaceCopy;
    let real: RealConnection;
    try {
      stackName ||= (await pulumi(["stack", "--show-name"], undefined, { cwd: workDir, env })).trim();
      original = await readStack(workDir, stackName, env);
      const found = realConnection(original, env);
      if (typeof found === "string") return finish(found);
      real = found;
      workspace = real.workspace;
      progress(`copying workspace ${real.workspace} at ${real.baseUrl} (reads only)`);
      ws = await copyWorkspace(real);
    } catch (err) {
      return finish(`could not read the stack or the workspace: ${errorText(err)}`);
    }
    notCopied = ws.notCopied;
    copied = { workloads: ws.workloads, templates: ws.templates };
    const ours = recordedIds(original);
    othersWorkloads = ws.seed.workspaces[workspace].workloads.map((w) => w.id).filter((id) => !ours.has(id));

    // 2. The copy: a seeded local service, a throwaway stack pointed at it.
    const copyKey = `rehearsal-${randomBytes(16).toString("hex")}`;
    const dataDir = path.join(tmp, "service");
    writeSeedDataDir(dataDir, ws.seed);
    copy = await startService({
      host: "127.0.0.1",
      port: 0,
      keys: { [workspace]: copyKey },
      fleet: ws.fleet,
      dataDir,
      refuseWithoutRoom: true,
      reconcileMs: 0,
    });
    guard = await startGuardProxy();
    let stack: Stack;
    try {
      // The user's environment (what the program reads), with the copy's backend, service and guard over it.
      const copyEnv = {
        ...definedOnly(env),
        ...guardedEnv(guard, copy.url),
        WWS_BASE_URL: copy.url,
        WWS_WORKSPACE: workspace,
        WWS_API_KEY: copyKey,
      };
      const overrides = {
        [CONNECTION_KEYS.baseUrl]: { value: copy.url },
        [CONNECTION_KEYS.workspace]: { value: workspace },
        [CONNECTION_KEYS.apiKey]: { value: copyKey, secret: true },
      };
      const repoint = new Map([
        [real.baseUrl, copy.url],
        [real.apiKey, copyKey],
      ]);
      stack = (await copyStack({ workDir, stackName, original, overrides, repoint, tmp, env: copyEnv })).stack;
    } catch (err) {
      return finish(`could not copy the stack: ${errorText(err)}`);
    }
    steps.push({ step: "copy", ok: true, ms: Date.now() - t0 });

    // 3. The change, on the copy: a preview for the plan (what the up must reach), then the up.
    progress(`running pulumi preview, then pulumi up, on the copy`);
    const plan = new EventRows("up");
    const tp = Date.now();
    try {
      await stack.preview({ onEvent: plan.onEvent, color: "never", diff: false });
      steps.push({ step: "preview", ok: true, ms: Date.now() - tp });
    } catch (err) {
      const refused = plan.rows().filter((r) => r.result === "failed");
      const detail =
        refused.length > 0 ? `${refused.length} resources refused (below)` : failureOf(plan, errorText(err));
      steps.push({ step: "preview", ok: false, ms: Date.now() - tp, detail });
      resources.push(...refused);
      return finish();
    }
    const upOk = await runStep(
      steps,
      resources,
      "up",
      (rows) => stack.up({ onEvent: rows.onEvent, color: "never" }),
      plan,
    );
    if (upOk) {
      progress(`running a second preview on the copy`);
      const t = Date.now();
      try {
        const p = await stack.preview({ color: "never", diff: false });
        // A `read` (a resource's `get`) shows at every preview: it is no change left to make.
        const pending = Object.entries(p.changeSummary).filter(([op, n]) => !QUIET_OPS.has(op) && (n ?? 0) > 0);
        steps.push({
          step: "second preview",
          ok: pending.length === 0,
          ms: Date.now() - t,
          detail:
            pending.length === 0
              ? undefined
              : `not clean after the up, the change does not converge: ${pending.map(([op, n]) => `${n} to ${op}`).join(", ")}`,
        });
      } catch (err) {
        steps.push({ step: "second preview", ok: false, ms: Date.now() - t, detail: errorText(err) });
      }
    }
    if (options.destroy && upOk) {
      progress(`running pulumi destroy on the copy`);
      await runStep(steps, resources, "destroy", (rows) => stack.destroy({ onEvent: rows.onEvent, color: "never" }));
    }
    return finish();
  } finally {
    await guard?.close();
    await copy?.close();
    fs.rmSync(tmp, { recursive: true, force: true });
  }
}

function guardReason(guard: GuardProxy): string {
  return (
    `the program reaches ${[...guard.refused].join(", ")} other than through the stack config (a baseUrl argument, ` +
    `or a Workspace's): a rehearsal only redirects the stack config, so those requests were refused and nothing was sent`
  );
}

/**
 * The first line of the program's own error and where in the program it was thrown (its first
 * stack frame outside node_modules and Node's internals), or the run's last lines.
 */
function failureOf(rows: EventRows, error: string): string {
  return programFailure(rows) ?? lastLines(error);
}

/** The program's own error, if one stopped the run: its first line and where in the program it was thrown. */
function programFailure(rows: EventRows): string | undefined {
  const own = rows.programErrors.find((m) => !/^update failed$|^preview failed$|^one or more errors/i.test(m));
  if (own === undefined) return undefined;
  const [first, ...frames] = own.split("\n");
  const where = frames
    .map((f) => f.trim())
    .find((f) => f.startsWith("at ") && !/node_modules|node:internal|\(node:/.test(f));
  return `the program failed: ${first.trim()}${where ? ` (${where})` : ""}`;
}

/**
 * Runs one engine run on the copy, its rows and the step's result recorded; resolves whether it
 * succeeded. Resources the plan has but the run never reached are rows too, `not reached`, with
 * the program's error when that is what stopped it.
 */
async function runStep(
  steps: StepResult[],
  resources: ResourceRow[],
  step: "up" | "destroy",
  run: (rows: EventRows) => Promise<unknown>,
  plan?: EventRows,
): Promise<boolean> {
  const rows = new EventRows(step);
  const t = Date.now();
  let error: string | undefined;
  try {
    await run(rows);
  } catch (err) {
    error = errorText(err);
  }
  const got = rows.rows();
  const reached = new Set(got.map((r) => r.urn));
  const programFailed = error !== undefined ? programFailure(rows) : undefined;
  const missed = (plan?.rows() ?? [])
    .filter((r) => !reached.has(r.urn) && r.op !== "same")
    .map((r): ResourceRow => ({
      ...r,
      result: error === undefined ? r.result : "not reached",
      ms: undefined,
      error: programFailed !== undefined ? `never sent: ${programFailed}` : undefined,
      failure: programFailed !== undefined ? "failed" : undefined,
    }));
  resources.push(...got, ...(error === undefined ? [] : missed));
  const anyFailed = got.some((r) => r.result === "failed");
  const detail = error === undefined ? undefined : (programFailed ?? (anyFailed ? undefined : lastLines(error)));
  steps.push({ step, ok: error === undefined, ms: Date.now() - t, detail });
  return error === undefined;
}

function lastLines(text: string): string {
  return text.trim().split("\n").slice(-6).join("\n");
}
