/**
 * Ownership is proven or said, never guessed, through the real `pulumi` CLI against the real local
 * service: a team's second week. A move into a component or a rename without `aliases`, and a
 * second stack declaring the first one's ids, fail preview and send nothing; `aliases` moves with
 * no request; `adopt: true` on a moved resource keeps the workload through the old resource's
 * delete; a killed `up` is recovered by `pulumi cancel`, `pulumi-wws recover` and `pulumi up`
 * from the engine's own pending creates, creating nothing twice.
 */
import { LocalWorkspace, type Stack } from "@pulumi/pulumi/automation";
import { password, pulumiCommand, serviceForFile } from "../e2e/harness";
import {
  errorLines,
  fileProgramStack,
  ownPulumiChildren,
  pulumiWws,
  runOp,
  sleep,
  type OpOutcome,
} from "./cli-helpers";
import { descendantsOf, killLeftovers } from "./process-tree";

jest.setTimeout(5 * 60_000);
const OP_TIMEOUT_MS = 120_000;

const service = serviceForFile({ reconcileMs: 20 });

/** A row of one of our resources that was created, deleted or replaced. */
const WWS_ROW_CHANGED = /dynamic\/wws:\w+ \S+ (created|deleted|replaced)/;
const said = (o: OpOutcome): string => errorLines(o, 20).join("\n");
const counters = async () => (await service.ctl.counters()).requests;
const deletes = (byRoute: Record<string, number>): number =>
  Object.entries(byRoute)
    .filter(([route]) => route.startsWith("DELETE "))
    .reduce((n, [, c]) => n + c, 0);

/** A file-program stack on a workspace of its own, with the connection and a database password in its config. */
async function newStack(project: string) {
  const ws = service.workspace();
  const file = service.keep(await fileProgramStack(project));
  const config = {
    "wws:baseUrl": { value: service.url },
    "wws:workspace": { value: ws.name },
    "wws:apiKey": { value: ws.apiKey, secret: true },
    [`${project}:dbPassword`]: { value: password("db"), secret: true },
  };
  await file.stack.setAllConfig(config);
  return { ...file, ws, config, client: service.client(ws.name) };
}

async function ok(stack: Stack, kind: "up" | "preview" | "destroy"): Promise<OpOutcome> {
  const o = await runOp(stack, kind, OP_TIMEOUT_MS);
  expect({ ok: o.ok, error: said(o) }).toEqual({ ok: true, error: "" });
  return o;
}

/** A database and a pod, at the stack's root or inside a component `App` (with `childOptions` for both). */
function dbAndPod(where: "root" | "component", childOptions = ""): string {
  const declare = (parent: string) =>
    `new wws.Database("rf-db", { engine: "postgres", credentials: { password: cfg.requireSecret("dbPassword") }${childOptions} }, ${parent});\n` +
    `    new wws.Pod("rf-web", { image: "nginx:1.27"${childOptions} }, ${parent});\n`;
  const head = `const pulumi = require("@pulumi/pulumi");\nconst wws = require("pulumi-wws");\nconst cfg = new pulumi.Config();\n`;
  if (where === "root") return `${head}${declare("{}")}`;
  return (
    `${head}class App extends pulumi.ComponentResource {\n  constructor(name) {\n    super("app:index:App", name);\n` +
    `    ${declare("{ parent: this, aliases: ALIASES }")}    this.registerOutputs({});\n  }\n}\nnew App("app");\n`
  );
}
const inComponent = (aliases: string, childOptions = ""): string =>
  dbAndPod("component", childOptions).replace(/ALIASES/g, aliases);

describe("ownership through pulumi", () => {
  it("should refuse a move into a component without aliases at preview, move with aliases sending nothing, and keep the workload when adopt moves it back", async () => {
    const s = await newStack("wws-own-refactor");
    s.setProgram(dbAndPod("root"));
    await ok(s.stack, "up");
    const before = await counters();

    s.setProgram(inComponent("[]"));
    const p = await runOp(s.stack, "preview", OP_TIMEOUT_MS);
    expect(p.ok).toBe(false);
    // The engine stops at the first check that fails: the database's or the pod's, whichever it checked first.
    expect(said(p)).toMatch(/workload (rf-db|rf-web) already exists in workspace \S+ \((storage|pod), phase Running\)/);
    expect(p.stdout).toMatch(/`aliases` resource option.*aliases: \[\{ parent: pulumi\.rootStackResource \}\]/);
    expect((await counters()).mutating).toBe(before.mutating);

    s.setProgram(inComponent("[{ parent: pulumi.rootStackResource }]"));
    const moved = await ok(s.stack, "up");
    expect(moved.stdout).not.toMatch(WWS_ROW_CHANGED);
    expect((await counters()).mutating).toBe(before.mutating);

    // Back to the root without aliases, saying adopt: the old resources' deletes leave the workloads.
    s.setProgram(dbAndPod("root", ", adopt: true"));
    const adopted = await ok(s.stack, "up");
    expect(adopted.stdout).toMatch(/is now held by Database "rf-db".*its workload is not deleted/);
    const after = await counters();
    expect(deletes(after.byRoute)).toBe(deletes(before.byRoute));
    expect(after.mutating).toBe(before.mutating);
    expect((await s.client.getStatus("rf-db")).phase).toBe("Running");
    const state = (await s.stack.exportStack()).deployment.resources as Array<{ urn: string; id?: string }>;
    expect(state.filter((r) => r.id === `${s.ws.name}/rf-db`).map((r) => r.urn)).toEqual([
      expect.stringMatching(/::pulumi-nodejs:dynamic\/wws:Database::rf-db$/),
    ]);
    await ok(s.stack, "destroy");
    expect((await s.client.getSpec()).workloads).toEqual([]);
  });

  it("should refuse a renamed resource without aliases at preview, sending nothing", async () => {
    const s = await newStack("wws-own-rename");
    s.setProgram(`const wws = require("pulumi-wws");\nnew wws.Pod("web", { image: "nginx:1.27" });\n`);
    await ok(s.stack, "up");
    const before = await counters();
    s.setProgram(
      `const wws = require("pulumi-wws");\nnew wws.Pod("frontend", { workloadId: "web", image: "nginx:1.27" });\n`,
    );
    const p = await runOp(s.stack, "preview", OP_TIMEOUT_MS);
    expect(p.ok).toBe(false);
    expect(p.stdout).toMatch(
      /workload web already exists.*nothing proves it is Pod "frontend"[\s\S]*aliases: \[\{ name: "<old name>" \}\]/,
    );
    expect((await counters()).mutating).toBe(before.mutating);
    await ok(s.stack, "destroy");
  });

  it("should refuse a second stack declaring the first one's ids, and leave the first stack's workloads through its destroy", async () => {
    const dv = await newStack("wws-own-two");
    dv.setProgram(`const wws = require("pulumi-wws");\nnew wws.Pod("shared", { image: "nginx:1.27" });\n`);
    await ok(dv.stack, "up");
    const workDir = dv.stack.workspace.workDir;
    const sg = await LocalWorkspace.createOrSelectStack(
      { stackName: "sg", workDir },
      { workDir, pulumiCommand: await pulumiCommand(), envVars: dv.stack.workspace.envVars },
    );
    await sg.setAllConfig(dv.config);
    const before = await counters();
    const p = await runOp(sg, "preview", OP_TIMEOUT_MS);
    expect(p.ok).toBe(false);
    expect(p.stdout).toMatch(/workload shared already exists[\s\S]*another stack's workload.*another workloadId/);
    const u = await runOp(sg, "up", OP_TIMEOUT_MS);
    expect(u.ok).toBe(false);
    await ok(sg, "destroy");
    const after = await counters();
    expect(after.mutating).toBe(before.mutating);
    expect(await dv.client.getStatus("shared")).toMatchObject({ phase: "Running", generation: 1 });
    await ok(dv.stack, "destroy");
  });

  it("should recover an up killed while 10 creates wait with cancel, recover and up: each workload once, at its first generation", async () => {
    const PODS = 10;
    const s = await newStack("wws-own-killed");
    s.setProgram(
      `const wws = require("pulumi-wws");\nfor (let i = 1; i <= ${PODS}; i++) new wws.Pod("p" + i, { image: "nginx:1.27", readyTimeoutSeconds: 120 });\n`,
    );
    await service.ctl.pauseReconciler(); // accepted, then Pending: every create waits at the kill
    try {
      let output = "";
      // Every create in flight at once (the default parallelism is 4 per core).
      const running = s.stack.up({ parallel: PODS, onOutput: (t) => (output += t) }).then(
        () => "finished",
        () => "failed",
      );
      const deadline = Date.now() + 60_000;
      while ((await s.client.getSpec()).workloads.length < PODS) {
        if (Date.now() > deadline)
          throw new Error(`the 10 creates were never all accepted; pulumi up said:\n${output.slice(-3000)}`);
        await sleep(50);
      }
      const [cli] = ownPulumiChildren();
      const leftovers = descendantsOf(cli);
      process.kill(cli, "SIGKILL");
      expect(await running).toBe("failed");
      killLeftovers(leftovers);
    } finally {
      await service.ctl.resumeReconciler();
    }
    const pending = async () => ((await s.stack.exportStack()).deployment.pending_operations ?? []).length;
    expect(await pending()).toBe(PODS);
    await s.stack.cancel();
    const before = await counters();

    // The plain rerun is refused, naming the recovery; it sends nothing and keeps the record.
    const plain = await runOp(s.stack, "up", OP_TIMEOUT_MS);
    expect(plain.ok).toBe(false);
    expect(plain.stdout).toMatch(/workload p\d+ already exists[\s\S]*`pulumi cancel --yes`.*`npx pulumi-wws recover`/);
    expect((await counters()).mutating).toBe(before.mutating);
    expect(await pending()).toBe(PODS);

    const plan = await pulumiWws(s.stack, ["recover"]);
    expect(plan.split("\n").filter((l) => /^ {2}proven {4}Pod "p\d+": workload \S+\/p\d+ exists/.test(l))).toHaveLength(
      PODS,
    );
    expect(plan).toMatch(/Nothing was changed/);
    expect(await pending()).toBe(PODS);
    const applied = await pulumiWws(s.stack, ["recover", "--yes"]);
    expect(applied).toMatch(/Took 10 workloads into the stack's state/);
    console.log(`pulumi-wws recover --yes after a SIGKILL of \`pulumi up\` (10 creates waiting):\n${applied}`);

    const up = await ok(s.stack, "up");
    expect(up.stdout).not.toMatch(WWS_ROW_CHANGED);
    expect(await pending()).toBe(0);
    const spec = await s.client.getSpec();
    expect(spec.workloads.map((w) => w.id).sort()).toEqual(Array.from({ length: PODS }, (_, i) => `p${i + 1}`).sort());
    for (const w of spec.workloads)
      expect(await s.client.getStatus(w.id)).toMatchObject({ phase: "Running", generation: 1 });
    const ids = ((await s.stack.exportStack()).deployment.resources as Array<{ type: string; id?: string }>)
      .filter((r) => r.type.endsWith("wws:Pod"))
      .map((r) => r.id);
    expect(ids).toHaveLength(PODS);
    expect((await counters()).mutating).toBe(before.mutating);
    await ok(s.stack, "destroy");
  });
});
