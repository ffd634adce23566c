/**
 * examples/policy through the real `pulumi` CLI: `pulumi preview --policy-pack` blocks a pod
 * without cpu (a `Pod`, and a `Workload` of kind pod) and a database without TLS, and passes a
 * stack that follows both rules. A second pack records what a policy sees of each resource: the
 * inputs `WwsMocks` give (test/examples/policy-rules.test.ts runs the pack's rules on those), a
 * password's digest and never the password.
 *
 * Policy packs run through the language host's RunPlugin, which only Pulumi's official Node.js
 * host implements: run this file with it, `bash scripts/with-language-host.sh <its binary> npx jest
 * test/e2e/policy-pack.test.ts`. With our stand-in host (scripts/language-host/) it is skipped.
 */
import * as fs from "node:fs";
import * as os from "node:os";
import * as path from "node:path";
import * as pulumi from "@pulumi/pulumi";
import * as wws from "../../provider";
import { WwsMocks } from "../../testing";
import { fileProgramStack, runOp } from "../reliability/cli-helpers";
import { ROOT, pulumiBinDir, serviceForFile } from "./harness";

jest.setTimeout(240_000);
const OP_TIMEOUT_MS = 150_000;
const PROJECT = "wws-policy";
const PASSWORD = "policy-Pass-1";

/** Why this file cannot run here, if it cannot: the language host beside the CLI is our stand-in. */
function skipReason(): string | undefined {
  const host = path.join(pulumiBinDir(), "pulumi-language-nodejs");
  if (!fs.readFileSync(host).includes("pulumi-wws's own Node.js language host")) return undefined;
  return (
    `test/e2e/policy-pack.test.ts skipped: the pulumi CLI's language host (${host}) is pulumi-wws's stand-in, ` +
    "which cannot run policy packs (no RunPlugin). Run it with Pulumi's official host: " +
    "bash scripts/with-language-host.sh <path to pulumi-language-nodejs> npx jest test/e2e/policy-pack.test.ts"
  );
}
const reason = skipReason();
if (reason) console.log(reason);
const describeWithOfficialHost = reason ? describe.skip : describe;

/** A directory holding `files`, where `pulumi-wws` (this checkout's dist/) and `@pulumi/*` resolve. */
function packDir(files: Record<string, string>): string {
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), "wws-policy-pack-"));
  fs.mkdirSync(path.join(dir, "node_modules"));
  fs.symlinkSync(ROOT, path.join(dir, "node_modules/pulumi-wws"), "dir");
  fs.symlinkSync(path.join(ROOT, "node_modules/@pulumi"), path.join(dir, "node_modules/@pulumi"), "dir");
  for (const [name, text] of Object.entries(files)) fs.writeFileSync(path.join(dir, name), text);
  return dir;
}

/** A pack whose one advisory policy appends what it is shown of each resource to `seen.jsonl`. */
const PROBE = {
  "PulumiPolicy.yaml": "runtime: nodejs\n",
  "package.json": JSON.stringify({ name: "probe", version: "0.0.1", main: "index.js" }),
  "index.js": `const fs = require("node:fs");
const path = require("node:path");
const { PolicyPack } = require("@pulumi/policy");
new PolicyPack("probe", {
  policies: [{
    name: "probe", description: "records what a policy sees", enforcementLevel: "advisory",
    validateResource: (args) => fs.appendFileSync(path.join(__dirname, "seen.jsonl"),
      JSON.stringify({ type: args.type, name: args.name, props: args.props }) + "\\n"),
  }],
});
`,
};

const BAD = `
new wws.Pod("web", { image: "nginx:1.27" });
new wws.Workload("generic", { kind: "pod", spec: { image: "nginx:1.27" } });
new wws.Database("db", { engine: "postgres", credentials: { password: "${PASSWORD}" } });`;
const GOOD = `
new wws.Pod("web", { image: "nginx:1.27", cpu: "500m" });
new wws.Workload("generic", { kind: "pod", spec: { image: "nginx:1.27", cpu: "1" } });
new wws.Database("db", { engine: "postgres", tls: true, credentials: { username: "ann", password: "${PASSWORD}" } });`;

describeWithOfficialHost("the example policy pack through pulumi preview", () => {
  const service = serviceForFile();
  const dirs: string[] = [];
  let file: Awaited<ReturnType<typeof fileProgramStack>>;
  let workspace: string;
  let example: string;

  beforeAll(async () => {
    const ws = service.workspace();
    workspace = ws.name;
    file = service.keep(await fileProgramStack(PROJECT));
    await file.stack.setConfig("wws:baseUrl", { value: service.url });
    await file.stack.setConfig("wws:workspace", { value: ws.name });
    await file.stack.setConfig("wws:apiKey", { value: ws.apiKey, secret: true });
    const source = path.join(ROOT, "examples/policy");
    example = packDir(
      Object.fromEntries(
        ["PulumiPolicy.yaml", "package.json", "index.ts", "policies.ts"].map((f) => [
          f,
          fs.readFileSync(path.join(source, f), "utf8"),
        ]),
      ),
    );
    dirs.push(example);
  });

  afterAll(() => {
    for (const d of dirs) fs.rmSync(d, { recursive: true, force: true });
  });

  const preview = async (body: string, packs: string[]) => {
    file.setProgram(`const wws = require("pulumi-wws");\n${body}\n`);
    return runOp(file.stack, "preview", OP_TIMEOUT_MS, { policyPacks: packs });
  };

  it("should block a pod without cpu, a Workload of kind pod too, and a database without tls", async () => {
    const p = await preview(BAD, [example]);
    console.log(`pulumi preview --policy-pack examples/policy:\n${p.stdout.slice(p.stdout.indexOf("Policies:"))}`);
    expect(p.ok).toBe(false);
    const lines = p.stdout.split("\n").map((l) => l.trim());
    for (const violation of [
      "- [mandatory]  wws-pod-cpu-limit  (pulumi-nodejs:dynamic/wws:Pod: web)",
      "- [mandatory]  wws-pod-cpu-limit  (pulumi-nodejs:dynamic/wws:Workload: generic)",
      "- [mandatory]  wws-database-tls  (pulumi-nodejs:dynamic/wws:Database: db)",
    ])
      expect(lines).toContain(violation);
    expect(`${p.stdout}${p.stderr}${p.error}`).not.toContain(PASSWORD);
  });

  it("should pass a stack that follows both rules, and show a policy what WwsMocks give, a digest for the password", async () => {
    const probe = packDir(PROBE);
    dirs.push(probe);
    const p = await preview(GOOD, [example, probe]);
    expect({ ok: p.ok, error: p.ok ? "" : p.stdout }).toEqual({ ok: true, error: "" });
    const seen = fs
      .readFileSync(path.join(probe, "seen.jsonl"), "utf8")
      .trim()
      .split("\n")
      .map((l) => JSON.parse(l) as { type: string; name: string; props: Record<string, unknown> })
      .filter((r) => r.type.startsWith("pulumi-nodejs:dynamic/wws:"));

    const mocks = new WwsMocks({ config: { "wws:workspace": workspace, "wws:baseUrl": service.url } });
    await mocks.install();
    new Function("wws", "pulumi", GOOD)(wws, pulumi);
    const mocked = (await mocks.settled()).map((r) => ({ type: r.type, name: r.name, props: r.inputs }));
    const byName = <T extends { name: string }>(rs: T[]): T[] => [...rs].sort((a, b) => a.name.localeCompare(b.name));
    expect(byName(seen)).toEqual(byName(mocked));
    expect(seen.find((r) => r.name === "db")?.props.credentials).toEqual({
      username: "ann",
      digest: expect.stringMatching(/^scrypt2:/),
    });
    expect(fs.readFileSync(path.join(probe, "seen.jsonl"), "utf8")).not.toContain(PASSWORD);
  });
});
