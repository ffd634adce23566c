/**
 * `npx pulumi-wws rehearse` as a team runs it: the package installed from its packed tarball, the
 * real `pulumi` CLI, a real local service over HTTP standing in for the hosted one. One stack is
 * brought up on the "real" service; then four rehearsals of four changes (chosen by an environment
 * variable the program reads) run side by side, and each verdict is checked, together with what
 * the real service and the stack's files received: nothing.
 */
import { execFile } from "node:child_process";
import * as fs from "node:fs";
import * as path from "node:path";
import { ControlClient, type RunningService } from "../../server";
import { WorkspaceClient } from "../../sdk";
import type { RehearsalReport } from "../../rehearse";
import { pulumiBinDir } from "../e2e/harness";
import { packedProject, type PackedProject } from "../support/packed-install";
import { startTestService } from "../support/service";

jest.setTimeout(6 * 60_000);

const WORKSPACE = "team";
const STACK_KEY = `rehearse-stack-key-${Date.now()}`;
const OTHER_KEY = `rehearse-other-key-${Date.now()}`;
const CONTROL = `rehearse-control-${Date.now()}`;
const RUN_TIMEOUT_MS = 240_000;

/** The program: the stack as it is up, and four changes to it (REHEARSAL_CASE). */
const PROGRAM = `const pulumi = require("@pulumi/pulumi");
const wws = require("pulumi-wws");
const pw = new pulumi.Config().requireSecret("dbPassword");
const change = process.env.REHEARSAL_CASE || "";
const db = new wws.Database("db", change === "clean"
  ? { engine: "redis", cpu: "500m", credentials: { password: pw }, allowDataLoss: true }
  : { engine: "postgres", cpu: "500m", credentials: { password: pw } });
new wws.Pod("web", { image: "nginx:1.27", memory: "512Mi" });
if (change === "clean") new wws.Pod("api", { image: "nginx:1.27" });
if (change === "apply")
  new wws.Pod("api", { image: "nginx:1.27", env: { DB_HOST: db.endpoint.apply((e) => new URL(e).hostname) } });
if (change === "capacity")
  for (const name of ["big-1", "big-2"])
    new wws.VirtualMachine(name, { os: "ubuntu", cpus: 40, placement: { region: "us-east" }, credentials: { password: pw } });
if (change === "conflict") new wws.Pod("shared", { image: "nginx:1.27" });
if (change === "direct")
  new wws.Pod("direct", { image: "nginx:1.27", baseUrl: process.env.REAL_URL, apiKey: pulumi.secret("a-key-of-its-own") });
`;

let project: PackedProject;
let service: RunningService;
let env: NodeJS.ProcessEnv;
let stateFile: string;
const before: { state?: Buffer; stackYaml?: Buffer; mutating?: number } = {};
const runs: Record<string, { code: number; out: string; err: string }> = {};

function run(cmd: string, args: string[], extraEnv: Record<string, string> = {}) {
  return new Promise<{ code: number; out: string; err: string }>((resolve) => {
    execFile(
      cmd,
      args,
      { cwd: project.app, env: { ...env, ...extraEnv }, timeout: RUN_TIMEOUT_MS, maxBuffer: 64 << 20 },
      (err, stdout, stderr) =>
        resolve({ code: err ? Number((err as { code?: unknown }).code ?? 1) : 0, out: stdout, err: stderr }),
    );
  });
}
const pulumi = (args: string[], extraEnv: Record<string, string> = {}) =>
  run(path.join(pulumiBinDir(), "pulumi"), [...args, "--stack", "team", "--non-interactive"], extraEnv);
const rehearse = (change: string, args: string[] = []) =>
  run(path.join(project.app, "node_modules/.bin/pulumi-wws"), ["rehearse", ...args], {
    REHEARSAL_CASE: change,
    REAL_URL: service.url,
  });
const reportOf = (change: string): RehearsalReport => JSON.parse(runs[change].out) as RehearsalReport;
const control = () => new ControlClient(service.url, CONTROL);

beforeAll(async () => {
  [project, service] = await Promise.all([
    packedProject("wws-rehearse-"),
    startTestService({
      keys: { [WORKSPACE]: [{ key: STACK_KEY }, { key: OTHER_KEY, label: "other-stack" }] },
      controlToken: CONTROL,
    }),
  ]);
  const backend = path.join(project.tmp, "backend");
  fs.mkdirSync(backend);
  fs.writeFileSync(path.join(project.app, "Pulumi.yaml"), "name: shop\nruntime: nodejs\n");
  fs.writeFileSync(path.join(project.app, "index.js"), PROGRAM);
  env = {
    ...process.env,
    PULUMI_BACKEND_URL: `file://${backend}`,
    PULUMI_CONFIG_PASSPHRASE: "the-teams-own-passphrase",
    PULUMI_SKIP_UPDATE_CHECK: "true",
    PULUMI_DISABLE_AUTOMATIC_PLUGIN_ACQUISITION: "true",
    PATH: [pulumiBinDir(), path.dirname(process.execPath), process.env.PATH].join(path.delimiter),
  };
  const init = await run(path.join(pulumiBinDir(), "pulumi"), ["stack", "init", "team", "--non-interactive"]);
  expect([init.code, init.err]).toEqual([0, expect.stringContaining("Created stack")]);
  for (const [key, value, secret] of [
    ["wws:baseUrl", service.url, false],
    ["wws:workspace", WORKSPACE, false],
    ["wws:apiKey", STACK_KEY, true],
    ["dbPassword", "Db-Pw-3x4mple-9", true],
  ] as const)
    expect((await pulumi(["config", "set", ...(secret ? ["--secret"] : []), key, value])).code).toBe(0);
  const up = await pulumi(["up", "--yes", "--skip-preview"]);
  expect([up.code, up.err]).toEqual([0, expect.any(String)]);
  // Another writer's workload in the same workspace.
  const other = new WorkspaceClient({ baseUrl: service.url, workspace: WORKSPACE, apiKey: OTHER_KEY });
  await other.upsertWorkload("pod", { id: "shared", image: "nginx:1.27" } as never);
  await other.close();

  stateFile = path.join(backend, ".pulumi/stacks/shop/team.json");
  before.state = fs.readFileSync(stateFile);
  before.stackYaml = fs.readFileSync(path.join(project.app, "Pulumi.team.yaml"));
  before.mutating = (await control().counters()).requests.mutating;
  const [clean, apply, capacity, conflict, direct, preview] = await Promise.all([
    rehearse("clean", ["--json", "--destroy", "--markdown", path.join(project.tmp, "comment.md")]),
    rehearse("apply", ["--json"]),
    rehearse("capacity", ["--json"]),
    rehearse("conflict", ["--json"]),
    rehearse("direct"),
    pulumi(["preview"], { REHEARSAL_CASE: "apply" }),
  ]);
  Object.assign(runs, { clean, apply, capacity, conflict, direct, preview });
});

afterAll(async () => {
  await service?.close();
  project?.cleanup();
});

it("should rehearse a clean change and its destroy: exit 0, every resource with its time, the database replacement and delete marked as losing data", () => {
  expect([runs.clean.code, runs.clean.err.includes("could not")]).toEqual([0, false]);
  const report = reportOf("clean");
  expect(report.verdict).toBe("would work");
  const rows = Object.fromEntries(report.resources.filter((r) => r.step === "up").map((r) => [r.name, r]));
  expect(rows.api).toMatchObject({ op: "create", result: "done", losesData: false });
  expect(rows.db).toMatchObject({ op: "replace", result: "done", losesData: true });
  expect(rows.web).toMatchObject({ op: "same" });
  for (const r of [rows.api, rows.db]) expect(typeof r.ms).toBe("number");
  expect(report.steps.map((s) => [s.step, s.ok])).toEqual([
    ["copy", true],
    ["preview", true],
    ["up", true],
    ["second preview", true],
    ["destroy", true],
  ]);
  const destroyed = report.resources.filter((r) => r.step === "destroy");
  expect(destroyed.map((r) => [r.name, r.op, r.result, r.losesData]).sort()).toEqual([
    ["api", "delete", "done", false],
    ["db", "delete", "done", true],
    ["web", "delete", "done", false],
  ]);
  const markdown = fs.readFileSync(path.join(project.tmp, "comment.md"), "utf8");
  expect(markdown).toContain("Rehearsal of `team`: would work");
  expect(markdown).toMatch(/\| up \| `db` \| replace \| done \| [0-9.]+ s \| \*\*loses data\*\* \|/);
});

it("should fail a program whose apply throws on the real endpoint, naming the resource and the program's error, where preview passes", () => {
  expect(runs.preview.code).toBe(0);
  expect(runs.apply.code).toBe(1);
  const report = reportOf("apply");
  expect(report.firstFailure).toMatch(/^api \(create\): never sent: the program failed: TypeError: .*Invalid URL/);
  expect(report.firstFailure).toContain("index.js:");
});

it("should fail two VMs that fit the region's free total but not its hosts, naming the refusal", () => {
  expect(runs.capacity.code).toBe(1);
  const report = reportOf("capacity");
  const refused = report.resources.filter((r) => r.failure === "capacity");
  expect(refused).toHaveLength(1);
  expect(refused[0].error).toMatch(/no host of us-east has room for 40 CPUs/);
  expect(report.firstFailure).toMatch(/^big-[12] \(create, capacity\): .*no host of us-east has room/);
});

it("should copy another stack's workloads and show the conflict with them", () => {
  expect(runs.conflict.code).toBe(1);
  const report = reportOf("conflict");
  for (const r of [report, reportOf("clean")]) expect(r.othersWorkloads).toEqual(["shared"]);
  expect(report.resources.find((r) => r.name === "shared")).toMatchObject({ failure: "conflict", result: "failed" });
  expect(report.firstFailure).toMatch(/^shared \(check, conflict\): .*already exists in workspace team/);
});

it("should refuse, and say so, a program that names the real service itself rather than through the stack config", () => {
  expect(runs.direct.code).toBe(2);
  expect(runs.direct.out).toMatch(
    /could not rehearse: the program reaches 127\.0\.0\.1:[0-9]+ other than through the stack config .*nothing was sent/,
  );
});

it("should send the real service no mutating request and leave the stack's files byte-identical", async () => {
  expect((await control().counters()).requests.mutating).toBe(before.mutating);
  expect(fs.readFileSync(stateFile).equals(before.state!)).toBe(true);
  expect(fs.readFileSync(path.join(project.app, "Pulumi.team.yaml")).equals(before.stackYaml!)).toBe(true);
  // The user's project dir gained nothing either (the copy's stack file lives in the copy).
  expect(fs.readdirSync(project.app).sort()).toEqual(
    ["Pulumi.team.yaml", "Pulumi.yaml", "index.js", "node_modules", "package-lock.json", "package.json"].sort(),
  );
});
