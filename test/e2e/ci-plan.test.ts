/**
 * The scripts the example CI workflows run (`examples/ci/plan.mjs`), on the JSON of real
 * `pulumi preview --json` runs through the CLI: a plan with a create, an update, a replace and a
 * delete; the database gate on a deleted and on a replaced database; the drift check's count on a
 * refresh that found an edit made outside Pulumi; and a failed preview, which no gate passes.
 */
import { spawnSync } from "node:child_process";
import * as fs from "node:fs";
import * as os from "node:os";
import * as path from "node:path";
import { ROOT, password, serviceForFile, until } from "./harness";
import { deployedCliStack, programOf, type CliStack } from "./cli-json";

jest.setTimeout(240_000);

const PLAN = path.join(ROOT, "examples/ci/plan.mjs");
const DB_PW = password("db");
type Res = { cls: string; name: string; args: Record<string, unknown> };
const V1: Res[] = [
  { cls: "VirtualMachine", name: "vm", args: { os: "ubuntu", cpus: 1, credentials: { password: password("vm") } } },
  { cls: "Pod", name: "web", args: { image: "nginx:1.27" } },
  { cls: "Database", name: "db", args: { engine: "postgres", credentials: { password: DB_PW } } },
];
const vm = V1[0];
const web = V1[1];
const db = V1[2];

const service = serviceForFile();
let s: CliStack;
let dir: string;

beforeAll(async () => {
  dir = fs.mkdtempSync(path.join(os.tmpdir(), "wws-ci-plan-"));
  s = service.keep(await deployedCliStack(service, "wws-ci-plan", programOf(V1)));
});
afterAll(() => fs.rmSync(dir, { recursive: true, force: true }));

/** `pulumi preview --json` (with `args`) of `program`, as the workflow writes it to a file. */
async function previewFile(resources: Res[], args: string[] = []): Promise<string> {
  s.setProgram(programOf(resources));
  const run = await s.cli(["preview", "--json", ...args]);
  const file = path.join(dir, `preview-${Date.now()}.json`);
  fs.writeFileSync(file, run.stdout);
  return file;
}

/** `node examples/ci/plan.mjs <command> <file>`, as the workflow's step runs it. */
function plan(command: string, file: string): { code: number | null; out: string } {
  const r = spawnSync(process.execPath, [PLAN, command, file], { encoding: "utf8" });
  return { code: r.status, out: r.stdout + r.stderr };
}

describe("examples/ci/plan.mjs on real pulumi preview --json", () => {
  it("lists every create, update, replace and delete with its properties, and the gate refuses the deleted database", async () => {
    const file = await previewFile([
      { ...vm, args: { ...vm.args, cpus: 2 } },
      { ...web, args: { ...web.args, workloadId: "web-2" } },
      { cls: "Browser", name: "browser2", args: {} },
    ]);
    const summary = plan("summary", file);
    expect(summary.code).toBe(0);
    expect(summary.out.split("\n")).toEqual([
      "### pulumi preview: 1 to create, 1 to update, 1 to replace, 1 to delete",
      "",
      "| change | resource | properties |",
      "|---|---|---|",
      expect.stringMatching(/^\| create \| Browser browser2 \| /),
      "| update | VirtualMachine vm | cpus: update |",
      "| replace | Pod web | workloadId: update-replace |",
      "| delete | Database db |  |",
      "",
    ]);
    const gate = plan("gate-databases", file);
    expect(gate).toEqual({
      code: 1,
      out: "::error::Database db would be deleted: its data would be lost (removed from the program)\n",
    });
  });

  it("refuses a replaced database, and passes a plan that keeps every database", async () => {
    const replaced = await previewFile([
      vm,
      web,
      { ...db, args: { ...db.args, engine: "redis", allowDataLoss: true } },
    ]);
    expect(plan("gate-databases", replaced)).toEqual({
      code: 1,
      out: expect.stringMatching(
        /^::error::Database db would be replaced: its data would be lost \(.*engine: update-replace/,
      ),
    });
    const kept = await previewFile([{ ...vm, args: { ...vm.args, cpus: 2 } }, web, db]);
    expect(plan("gate-databases", kept)).toEqual({ code: 0, out: "no Database is replaced or deleted\n" });
    expect(plan("count", kept)).toEqual({ code: 0, out: "1\n" });
  });

  it("counts the drift a refresh finds, and none on a stack that runs as declared", async () => {
    expect(plan("count", await previewFile(V1, ["--refresh"]))).toEqual({ code: 0, out: "0\n" });
    const client = service.client(s.ws.name);
    await client.upsertWorkload("pod", { id: "web", image: "nginx:1.26" });
    await until("web at its new generation", async () => (await client.getStatus("web")).observedGeneration === 2);
    const drifted = await previewFile(V1, ["--refresh"]);
    expect(plan("count", drifted)).toEqual({ code: 0, out: "1\n" });
    expect(plan("summary", drifted).out).toContain("| update | Pod web | image: update |");
  });

  it("passes no gate and counts no drift on a preview that failed, and shows its error", async () => {
    const failed = await previewFile([{ ...web, args: { ...web.args, memory: "lots" } }]);
    for (const command of ["summary", "gate-databases", "count"]) {
      const r = plan(command, failed);
      expect([command, r.code]).toEqual([command, 2]);
      expect(r.out).toMatch(/^### pulumi preview failed\n[\s\S]*memory/);
    }
  });
});

describe("the example workflows", () => {
  it("run plan.mjs only with commands it has, from the installed package", () => {
    for (const workflow of ["pulumi-preview.yml", "pulumi-drift.yml"]) {
      const text = fs.readFileSync(path.join(ROOT, "examples/ci", workflow), "utf8");
      expect(text).toContain("PLAN: node_modules/pulumi-wws/examples/ci/plan.mjs");
      const commands = [...text.matchAll(/node "\$PLAN" ([a-z-]+)/g)].map((m) => m[1]);
      expect(commands.length).toBeGreaterThan(0);
      for (const c of commands) expect(["summary", "gate-databases", "count"]).toContain(c);
      // One preview per run: its JSON is what every later step reads.
      expect(text.match(/^\s+run: pulumi preview /gm)).toHaveLength(1);
    }
  });
});
