/**
 * Every program snippet of the READMEs runs as written: each `ts`/`js` block that declares resources
 * is previewed through the real `pulumi` CLI against the local service, one after another in one
 * project (a preview records nothing, so the stack stays empty). The other blocks are named below
 * with the test that runs them, so a new snippet cannot go unrun. The first stack and the next
 * steps also run from the packed package, `up` and all: test/package/packed.test.ts.
 */
import * as fs from "node:fs";
import * as path from "node:path";
import { ROOT, password, serviceForFile } from "./harness";
import { errorLines, fileProgramStack, runOp } from "../reliability/cli-helpers";

jest.setTimeout(180_000);
const PROJECT = "wws-snippets";
const DOCS = ["README.md", "provider/README.md", "examples/README.md", "server/README.md", "docs/contributing.md"];

/** Blocks that are not programs to preview, by a line of theirs, and what runs them. */
const RUN_ELSEWHERE: Record<string, string> = {
  'import { WwsMocks } from "pulumi-wws/testing";': "a jest test: test/testing/mocks.test.ts runs the same calls",
  'const { LocalWorkspace } = require("@pulumi/pulumi/automation");': "the portal: test/e2e/portal.test.ts runs it",
  'import { PolicyPack, validateResourceOfType } from "@pulumi/policy";':
    "a policy pack, the rules of examples/policy/policies.ts: test/e2e/policy-pack.test.ts runs them",
  'exports.handler = () => require("pulumi-wws/provider/dynamic").workload;':
    "the provider text each resource's state records: test/provider/resources/serialize.test.ts",
  'import { startService, ControlClient } from "pulumi-wws/server";':
    "the service started in a process: test/server/options.test.ts",
  'const { createHmac, timingSafeEqual } = require("node:crypto");':
    "a webhook receiver's check of the signature: test/watch/deliver/rules.test.ts runs it on the signature cases",
  'const db = wws.Database.get("shared-db", "team/orders-db");':
    "a read of what another stack manages: test/e2e/reads.test.ts runs get and every function on two stacks",
};

interface Snippet {
  where: string;
  text: string;
}

/** Every `ts`/`js` block of the docs, with the file and line it starts at. */
function snippets(): Snippet[] {
  return DOCS.flatMap((file) => {
    const text = fs.readFileSync(path.join(ROOT, file), "utf8");
    return [...text.matchAll(/^( *)```(ts|js)\n([\s\S]*?)^ *```$/gm)].map((m) => ({
      where: `${file}:${text.slice(0, m.index).split("\n").length}`,
      text: m[3].replace(new RegExp(`^${m[1]}`, "gm"), ""),
    }));
  });
}

/** A TypeScript snippet as the CommonJS the project runs: its imports and exports, nothing else, changed. */
const asCommonJs = (source: string): string =>
  source
    .replace(/^import \* as (\w+) from "([^"]+)";$/gm, 'const $1 = require("$2");')
    .replace(/^export const (\w+) =/gm, "exports.$1 =");

const service = serviceForFile();
const all = snippets();
const programs = all.filter((s) => !Object.keys(RUN_ELSEWHERE).some((line) => s.text.includes(line)));

it("should find the READMEs' snippets, each a program to preview or named with what runs it", () => {
  expect(programs.length).toBeGreaterThanOrEqual(4);
  for (const line of Object.keys(RUN_ELSEWHERE))
    expect([line, all.some((s) => s.text.includes(line))]).toEqual([line, true]);
  for (const p of programs) expect([p.where, /new wws\.\w+\(/.test(p.text)]).toEqual([p.where, true]);
});

it("should preview every program snippet as written against the local service, with no error", async () => {
  const started = Date.now();
  const ws = service.workspace();
  const file = service.keep(await fileProgramStack(PROJECT));
  await file.stack.setAllConfig({
    "wws:baseUrl": { value: service.url },
    "wws:workspace": { value: ws.name },
    "wws:apiKey": { value: ws.apiKey, secret: true },
    [`${PROJECT}:dbPassword`]: { value: password("db"), secret: true },
    [`${PROJECT}:vmPassword`]: { value: password("vm"), secret: true },
  });
  const failed: string[] = [];
  for (const p of programs) {
    file.setProgram(asCommonJs(p.text));
    const preview = await runOp(file.stack, "preview", 120_000);
    if (!preview.ok) failed.push(`${p.where}: ${errorLines(preview, 4).join(" | ") || preview.error.slice(0, 400)}`);
  }
  console.log(`${programs.length} README snippets previewed in ${((Date.now() - started) / 1000).toFixed(1)} s`);
  expect(failed).toEqual([]);
});
