/**
 * A new team's first week, through the real `pulumi` CLI against the real local service: the
 * ordinary mistakes that used to lose data, time or the target (a duplicate id, a changed password,
 * a new engine, a workspace named twice, a typo in the URL, a wrong key, an unknown region, an id
 * somebody else uses) each fail `pulumi preview` naming the field and the fix, and nothing on the
 * service changes. The README's first example runs as written.
 */
import * as fs from "node:fs";
import * as path from "node:path";
import { ROOT, password, serviceForFile } from "../e2e/harness";
import { closedPort } from "../support/ports";
import { errorLines, fileProgramStack, runOp, type OpOutcome } from "./cli-helpers";
import { keyFingerprint } from "../../provider/dynamic/service/recorded-settings";

jest.setTimeout(180_000);
const OP_TIMEOUT_MS = 120_000;
const PROJECT = "wws-first-week";

/** The README's first TypeScript block, as CommonJS: the program a newcomer copies. */
function readmeExample(): string {
  const readme = fs.readFileSync(path.join(ROOT, "README.md"), "utf8");
  const ts = /```ts\n([\s\S]*?)```/.exec(readme)?.[1];
  if (!ts) throw new Error("README.md has no ts block");
  return ts
    .replace(/^import \* as (\w+) from "([^"]+)";$/gm, 'const $1 = require("$2");')
    .replace(/^export const (\w+) =/gm, "exports.$1 =");
}

const service = serviceForFile();
let file: Awaited<ReturnType<typeof fileProgramStack>>;
let ws: { name: string; apiKey: string };
const dbPassword = password("db");
let example: string;

/** The text a user reads of a failed operation: its error lines. */
const said = (o: OpOutcome): string => errorLines(o, 20).join("\n");

async function preview(): Promise<OpOutcome> {
  return runOp(file.stack, "preview", OP_TIMEOUT_MS);
}

async function setConfig(key: string, value: string, secret = false): Promise<void> {
  await file.stack.setConfig(key, { value, secret });
}

/** Runs `body` with `program`, then puts the README's example back. */
async function withProgram(program: string, body: () => Promise<void>): Promise<void> {
  file.setProgram(program);
  try {
    await body();
  } finally {
    file.setProgram(example);
  }
}

/** Expects `o` failed with none of the secrets in what it printed, and the service got no mutating request. */
async function expectRefusedWithoutChange(o: OpOutcome, mutatingBefore: number): Promise<void> {
  expect(o.ok).toBe(false);
  for (const secret of [dbPassword, ws.apiKey]) expect(`${o.stdout}${o.stderr}${o.error}`).not.toContain(secret);
  expect((await service.ctl.counters()).requests.mutating).toBe(mutatingBefore);
}

const mutating = async (): Promise<number> => (await service.ctl.counters()).requests.mutating;

beforeAll(async () => {
  ws = service.workspace();
  file = service.keep(await fileProgramStack(PROJECT));
  example = readmeExample();
  file.setProgram(example);
  await setConfig("wws:baseUrl", service.url);
  await setConfig("wws:workspace", ws.name);
  await setConfig("wws:apiKey", ws.apiKey, true);
  await setConfig(`${PROJECT}:dbPassword`, dbPassword, true);
});

describe("a new team's first week through pulumi", () => {
  it("should run the README's first example as written, in the workspace of the stack config", async () => {
    const up = await runOp(file.stack, "up", OP_TIMEOUT_MS);
    expect({ ok: up.ok, error: said(up), out: up.ok ? "" : up.stdout }).toEqual({ ok: true, error: "", out: "" });
    const spec = await service.client(ws.name).getSpec();
    expect(spec.workloads.map((w) => w.id).sort()).toEqual(["db", "web"]);
    expect(String(up.outputs.connectionUri)).toMatch(/^postgresql:\/\/app@/);
  });

  it("should refuse a changed database password at preview and at up, saying it cannot be changed, deleting nothing", async () => {
    const before = await mutating();
    const created = (await service.client(ws.name).getStatus("db")).phase;
    await setConfig(`${PROJECT}:dbPassword`, `${dbPassword}-rotated`, true);
    try {
      const p = await preview();
      expect(said(p)).toMatch(
        /database db in workspace \S+: credentials changed, but the service sets a database's login once and cannot change it.*delete it with all its data.*Nothing was changed.*put back the password.*`allowDataLoss: true`/,
      );
      await expectRefusedWithoutChange(p, before);
      // Once on the Database's row and once under Diagnostics: not echoed on the Stack row, no stack trace.
      const refusal = "credentials changed, but the service sets a database's login once";
      expect(p.stdout.split(refusal).length - 1).toBe(2);
      expect(p.stdout).not.toMatch(/^\s+at |data-loss\.js|Error: database db/m);
      const up = await runOp(file.stack, "up", OP_TIMEOUT_MS);
      expect(said(up)).toMatch(/cannot change it/);
      expect(up.stdout.split(refusal).length - 1).toBe(2);
      await expectRefusedWithoutChange(up, before);
      expect((await service.client(ws.name).getStatus("db")).phase).toBe(created);
    } finally {
      await setConfig(`${PROJECT}:dbPassword`, dbPassword, true);
    }
  });

  it("should refuse a new engine unless allowDataLoss is set, and then warn that the data is lost", async () => {
    const before = await mutating();
    const redis = example.replace('engine: "postgres"', 'engine: "redis"');
    await withProgram(redis, async () => {
      const p = await preview();
      expect(said(p)).toMatch(/engine changed from postgres to redis\. Applying this would replace the database/);
      await expectRefusedWithoutChange(p, before);
    });
    await withProgram(redis.replace('engine: "redis"', 'engine: "redis", allowDataLoss: true'), async () => {
      const p = await preview();
      expect({ ok: p.ok, error: said(p) }).toEqual({ ok: true, error: "" });
      expect(p.stdout).toMatch(
        /database db in workspace \S+ will be replaced \(engine changed from postgres to redis\): deleted with all its data/,
      );
      expect(p.stdout).toMatch(/\+-\s+.*Database\s+db\s+replace/);
    });
  });

  it("should refuse a workspace named in the program that differs from the stack config, naming both", async () => {
    const before = await mutating();
    await withProgram(
      example.replace('new wws.Workspace("team", {})', 'new wws.Workspace("team", { name: "team" })'),
      async () => {
        const p = await preview();
        expect(said(p)).toMatch(
          new RegExp(`program names workspace team but the stack config wws:workspace names ${ws.name}`),
        );
        await expectRefusedWithoutChange(p, before);
      },
    );
  });

  it("should refuse two resources naming one workload id, naming both, before anything is sent", async () => {
    const before = await mutating();
    const canary = `${example}\nnew wws.Pod("api-canary", { workspace: ws, workloadId: "web", image: "nginx:1.28" });\n`;
    await withProgram(canary, async () => {
      const p = await preview();
      expect(said(p)).toMatch(
        /Pod "api-canary": workload web of the stack's workspace is also declared by Pod "web": .*Give Pod "api-canary" a workloadId of its own/,
      );
      await expectRefusedWithoutChange(p, before);
    });
  });

  it("should refuse at preview an id that another owner's workload has, saying what adopt would do", async () => {
    const client = service.client(ws.name);
    await client.upsertWorkload("pod", { id: "legacy", image: "busybox:1.36", ports: [{ name: "api", port: 8080 }] });
    const before = await mutating();
    await withProgram(`${example}\nnew wws.Pod("legacy", { workspace: ws, image: "nginx:1.27" });\n`, async () => {
      const p = await preview();
      // The refusal's first line is on the row; its stories follow it under Diagnostics, once.
      expect(p.stdout).toMatch(
        /workload legacy already exists in workspace \S+ \(pod, phase \w+\)[\s\S]*another workloadId.*`adopt: true`.*: its live spec is then replaced by this declaration.*deletes the workload/,
      );
      expect(said(p)).not.toMatch(/import:/);
      await expectRefusedWithoutChange(p, before);
    });
    expect((await client.getSpec()).workloads.find((w) => w.id === "legacy")?.spec).toMatchObject({
      image: "busybox:1.36",
    });
  });

  it("should fail preview in seconds on a base URL where nothing listens, naming the setting", async () => {
    const before = await mutating();
    await setConfig("wws:baseUrl", `http://127.0.0.1:${await closedPort()}`);
    try {
      const p = await preview();
      expect(said(p)).toMatch(
        /cannot reach the service at http:\/\/127\.0\.0\.1:\d+ \(from the stack config wws:baseUrl\)/,
      );
      expect(said(p)).toMatch(/pulumi config set wws:baseUrl http:\/\/127\.0\.0\.1:<port>/);
      // Loopback: the local service's advice, once, and no https for this machine.
      expect(said(p)).toMatch(
        /check that the service runs on this machine at that port \(`npx wws-local --port \d+`\)/,
      );
      expect(said(p)).not.toMatch(/https|Check the base URL/);
      expect(p.ms).toBeLessThan(60_000);
      await expectRefusedWithoutChange(p, before);
    } finally {
      await setConfig("wws:baseUrl", service.url);
    }
  });

  it("should fail preview on a wrong API key, naming the setting and how to set it", async () => {
    const before = await mutating();
    await setConfig("wws:apiKey", "wrong-key-0000", true);
    try {
      const p = await preview();
      expect(said(p)).toMatch(/the API key \(from the stack config wws:apiKey\) is not valid.*answered 401/);
      expect(said(p)).toMatch(/pulumi config set --secret wws:apiKey/);
      await expectRefusedWithoutChange(p, before);
    } finally {
      await setConfig("wws:apiKey", ws.apiKey, true);
    }
  });

  it("should fail preview on a placement region the fleet does not have, listing the regions", async () => {
    const before = await mutating();
    const vm = `${example}\nnew wws.VirtualMachine("vm", { workspace: ws, os: "ubuntu", credentials: { password: cfg.requireSecret("dbPassword") }, placement: { region: "mars-1" } });\n`;
    await withProgram(vm, async () => {
      const p = await preview();
      expect(said(p)).toMatch(/no region mars-1 in the fleet; the regions are \S+/);
      await expectRefusedWithoutChange(p, before);
    });
  });

  it("should give the range and the given value of an out-of-range field", async () => {
    const vm = `${example}\nnew wws.VirtualMachine("vm", { workspace: ws, os: "ubuntu", cpus: -1, credentials: { password: cfg.requireSecret("dbPassword") } });\n`;
    await withProgram(vm, async () => {
      const p = await preview();
      expect(said(p)).toMatch(/cpus value \{-1\} has a problem: must be a whole number from 1 to 256; got -1/);
      // The engine stopped there: the summary does not tell whether the others were checked, the note does.
      expect(p.stdout).toMatch(
        /Diagnostics:[\s\S]*pulumi stopped at this resource's failed check: the other resources are not all checked/,
      );
    });
  });

  it("should say once on a refresh and a destroy which key they use, by its fingerprint, when the stack config now gives another", async () => {
    await setConfig("wws:apiKey", `${ws.apiKey}-not-this-one`, true);
    const recorded = keyFingerprint(ws.apiKey);
    // The engine's diagnostics (the CLI prints each on its row and again under Diagnostics).
    const notes = (o: OpOutcome, command: string): string[] =>
      o.events
        .map((e) => (JSON.parse(e) as { diagnosticEvent?: { message: string; urn?: string } }).diagnosticEvent)
        .filter((d) => d?.message.includes(`this ${command} uses the API key`))
        // No URN: the engine shows it on the Stack row.
        .map((d) => (d!.urn ? `on ${d!.urn}` : "on the Stack row"));
    try {
      const refresh = await runOp(file.stack, "refresh", OP_TIMEOUT_MS);
      expect(refresh.ok).toBe(true); // the engine's choice, as for destroy
      // Once for the whole refresh (3 resources), on the Stack row, naming the recorded key by its fingerprint.
      expect(notes(refresh, "refresh")).toEqual(["on the Stack row"]);
      expect(refresh.stdout.replace(/\s+/g, " ")).toContain(
        `this refresh uses the API key ${recorded} (the stack config wws:apiKey as recorded at the last \`pulumi up\``,
      );
      expect(refresh.stdout).not.toContain(keyFingerprint(`${ws.apiKey}-not-this-one`));
      const destroy = await runOp(file.stack, "destroy", OP_TIMEOUT_MS);
      expect(destroy.ok).toBe(true); // the engine's choice: the provider is configured with the recorded config
      expect(notes(destroy, "destroy")).toEqual(["on the Stack row"]);
      expect(destroy.stdout.replace(/\s+/g, " ")).toMatch(
        new RegExp(
          `this destroy uses the API key ${recorded} .*To use the config's current key, run \`pulumi up\` first`,
        ),
      );
      const left = (await service.client(ws.name).getSpec()).workloads.map((w) => w.id);
      expect(left.filter((id) => id === "db" || id === "web")).toEqual([]); // "legacy" is another owner's
    } finally {
      await setConfig("wws:apiKey", ws.apiKey, true);
    }
  });
});
