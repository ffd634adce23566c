/**
 * `WwsMocks` (pulumi-wws/testing) say of a bad program what `pulumi preview` prints for it. Each
 * program runs through the real CLI (a file program, against the local service) and under the
 * mocks (same project, stack and workspace); preview's output holds the mocks' message word for
 * word. test/testing/mocks.test.ts keeps the same texts without a CLI.
 */
import * as pulumi from "@pulumi/pulumi";
import * as wws from "../../provider";
import { WwsMocks } from "../../testing";
import { fileProgramStack, runOp, type OpOutcome } from "../reliability/cli-helpers";
import { serviceForFile } from "./harness";

jest.setTimeout(240_000);
const OP_TIMEOUT_MS = 120_000;
const PROJECT = "wws-mocks-preview";
/** The stack fileProgramStack makes. */
const STACK = "local";

const service = serviceForFile();
let file: Awaited<ReturnType<typeof fileProgramStack>>;
let ws: { name: string; apiKey: string };

beforeAll(async () => {
  ws = service.workspace();
  file = service.keep(await fileProgramStack(PROJECT));
  await file.stack.setConfig("wws:baseUrl", { value: service.url });
  await file.stack.setConfig("wws:workspace", { value: ws.name });
  await file.stack.setConfig("wws:apiKey", { value: ws.apiKey, secret: true });
});

/** `body` of an index.js that has `wws` and `pulumi` at hand. */
const source = (body: string): string =>
  `const wws = require("pulumi-wws");\nconst pulumi = require("@pulumi/pulumi");\n${body}\n`;

/** What the mocks say of `body` run by `mocks` (a new run): the error of the run, or "" when it passed. */
async function mocksSay(body: string, mocks: WwsMocks): Promise<string> {
  try {
    await mocks.install();
    new Function("wws", "pulumi", body)(wws, pulumi);
    await mocks.settled();
    return "";
  } catch (err) {
    return (err as Error).message;
  }
}

const newMocks = (): WwsMocks => new WwsMocks({ project: PROJECT, stack: STACK, config: { "wws:workspace": ws.name } });

async function cli(kind: "preview" | "up" | "destroy", body?: string): Promise<OpOutcome> {
  if (body !== undefined) file.setProgram(source(body));
  return runOp(file.stack, kind, OP_TIMEOUT_MS);
}

it.each([
  ["a pod with no image", `new wws.Pod("web", {});`],
  [
    "a database of engine mysql",
    `new wws.Database("db", { engine: "mysql", credentials: { password: "mock-Pass-1" } });`,
  ],
  ['a pod with cpu "lots"', `new wws.Pod("web", { image: "nginx:1.27", cpu: "lots" });`],
  ["a pod with memroy for memory", `new wws.Pod("web", { image: "nginx:1.27", memroy: "512Mi" });`],
  [
    "two pods with one workload id known later",
    `for (const n of ["a", "b"]) new wws.Pod(n, { image: "nginx:1.27", workloadId: pulumi.output("web") });`,
  ],
  [
    "two pods with one plain workload id",
    `for (const n of ["a", "b"]) new wws.Pod(n, { image: "nginx:1.27", workloadId: "web" });`,
  ],
])("should fail %s with the message pulumi preview prints", async (_title, body) => {
  const said = await mocksSay(body, newMocks());
  expect(said).not.toBe("");
  const preview = await cli("preview", body);
  expect(preview.ok).toBe(false);
  // Of two resources that declare one workload, the engine checks them in the order their inputs
  // resolve: the one it checks second is refused, naming the other, under the mocks as in preview.
  const printed = `${preview.stdout}\n${preview.error}`;
  expect(printed).toContain(printed.includes(said) ? said : withPodsSwapped(said));
});

/** `text` with resources "a" and "b" (by name and in URNs) trading places. */
const withPodsSwapped = (text: string): string =>
  text.replace(
    /(Pod "|resource '|::)([ab])(?=["')])/g,
    (_m, lead: string, name: string) => lead + (name === "a" ? "b" : "a"),
  );

it("should refuse a new database password with the message pulumi preview prints, after an up", async () => {
  const db = (password: string) =>
    `new wws.Database("db", { engine: "postgres", credentials: { password: "${password}" } });`;
  const mocks = newMocks();
  expect(await mocksSay(db("first-Pass-1"), mocks)).toBe("");
  const said = await mocksSay(db("second-Pass-2"), mocks);
  expect(said).toMatch(/^database db in workspace \S+: credentials changed/);
  try {
    expect((await cli("up", db("first-Pass-1"))).ok).toBe(true);
    const preview = await cli("preview", db("second-Pass-2"));
    expect(preview.ok).toBe(false);
    expect(`${preview.stdout}\n${preview.error}`).toContain(said);
  } finally {
    expect((await cli("destroy")).ok).toBe(true);
  }
});
