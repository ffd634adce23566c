/**
 * Bad input through `pulumi preview` (the real CLI): every entry of the bad-input corpus that the
 * sdk's zod schema refuses, written as arguments of the resource classes a user writes in a stack
 * (`VirtualMachine`, `Pod`, `Browser`, `Controller`, `Database`, `Template`; `Workload` for a field
 * the typed class does not have), plus connection settings missing or wrong, templates holding a
 * password or over 64 KB, and values nested thousands of levels deep. Each preview fails naming
 * the field, echoes no password or key, and the service receives no request at all: every refusal
 * is made before `check` reads anything from it.
 *
 * One invalid resource per preview: the engine stops a preview at the first resource whose check
 * fails (measured below), so several per program would leave the others untested.
 */
import * as wws from "../../index";
import { configuredStack, ensureBuilt, newStack, type E2eStack } from "../e2e/harness";
import { CORPUS, SEED, type BadInput } from "./corpus";
import {
  fileProgramStack,
  runOp,
  startRestartableService,
  type OpOutcome,
  type RestartableService,
} from "./cli-helpers";

jest.setTimeout(120_000);
const PREVIEW_TIMEOUT_MS = 60_000;

type Args = Record<string, unknown>;
type Body = Record<string, unknown>;

/** The arguments each typed class takes for spec fields (`id` is `workloadId` everywhere). */
const TYPED_ARGS: Record<string, readonly string[]> = {
  vm: ["cpus", "memory", "storageSize", "credentials", "ports", "placement", "aiDaemon"],
  pod: ["image", "command", "cpu", "memory", "ports", "source"],
  browser: ["cpu", "memory"],
  controller: ["autodiscover"],
  storage: [
    "engine",
    "version",
    "instances",
    "storageSize",
    "cpu",
    "memory",
    "tls",
    "adminConsole",
    "network",
    "credentials",
    "backup",
  ],
};
const TEMPLATE_ARGS = ["name", "description", "kind", "config"];

interface CliInput {
  /** `<kind> with <what is wrong>` */
  title: string;
  /** The property the preview must name, as the provider writes it. */
  field: string;
  /** More properties it must name. */
  also?: string[];
  /** Class used, for the figures. */
  via: string;
  /** Registers the one invalid resource (name `bad`) in an inline program. */
  build?: () => void;
  /**
   * Or: the program as the source of a file (`index.js`), for an error thrown by the resource's
   * constructor as the program runs (an inline program that throws upsets the test process).
   */
  source?: string;
  /** Stack without any wws config (the connection tests). */
  noConfig?: boolean;
  /** Strings that must not appear in the preview's output (passwords, keys, URL credentials). */
  quiet: string[];
}

const asAny = (args: Args): never => args as never;

/**
 * `index.js` of a file program declaring `new wws.<className>("bad", args)`; the arguments travel
 * as JSON text (an object literal 3,000 levels deep would not even parse).
 */
function fileProgram(className: string, args: unknown): string {
  return `const wws = require("pulumi-wws");\nnew wws.${className}("bad", JSON.parse(${JSON.stringify(JSON.stringify(args))}));\n`;
}

/** Every `password` value of a body (8 characters or more): none may be printed. Iterative: the corpus nests 3,000 levels. */
function passwordsOf(value: unknown): string[] {
  const found: string[] = [];
  const stack: unknown[] = [value];
  while (stack.length > 0) {
    const v = stack.pop();
    if (typeof v !== "object" || v === null) continue;
    for (const [k, child] of Object.entries(v)) {
      if (k === "password" && typeof child === "string" && child.length >= 8) found.push(child);
      else stack.push(child);
    }
  }
  return found;
}

/** A corpus entry as a resource of a stack, or why it cannot be written as one. */
function fromCorpus(entry: BadInput): CliInput | { skip: string; title: string } {
  const title = `${entry.kind} with ${entry.name}`;
  const body = entry.body as Body;
  const quiet = passwordsOf(body);
  if (entry.kind === "template") {
    const extra = Object.keys(body).filter((k) => !TEMPLATE_ARGS.includes(k));
    if (extra.length > 0)
      return {
        title,
        skip: `Template takes no argument ${extra.join(", ")} (TypeScript refuses it; the class never passes it on)`,
      };
    // Deeper than the service accepts (32 levels): refused by the constructor, as the program runs.
    if (/nested [0-9,]+ levels deep/.test(entry.name))
      return { title, field: entry.field, via: "Template", quiet, source: fileProgram("Template", body) };
    return { title, field: entry.field, via: "Template", quiet, build: () => new wws.Template("bad", asAny(body)) };
  }
  if (!("id" in body))
    return { title, skip: "workloadId defaults to the resource name: a workload resource always has an id" };
  const { id, ...fields } = body;
  const field = entry.field === "id" ? "workloadId" : entry.field;
  const group = entry.kind.startsWith("vm-") ? "vm" : entry.kind;
  const typed = Object.keys(fields).every((k) => TYPED_ARGS[group].includes(k));
  if (!typed) {
    const { credentials, ...spec } = fields;
    return {
      title,
      field,
      via: "Workload",
      quiet,
      build: () =>
        new wws.Workload(
          "bad",
          asAny({ kind: entry.kind, workloadId: id, spec, ...(credentials !== undefined ? { credentials } : {}) }),
        ),
    };
  }
  const args = { workloadId: id, ...fields };
  switch (group) {
    case "vm":
      return {
        title,
        field,
        via: "VirtualMachine",
        quiet,
        build: () => new wws.VirtualMachine("bad", asAny({ os: entry.kind.slice(3), ...args })),
      };
    case "pod":
      return { title, field, via: "Pod", quiet, build: () => new wws.Pod("bad", asAny(args)) };
    case "browser":
      return { title, field, via: "Browser", quiet, build: () => new wws.Browser("bad", asAny(args)) };
    case "controller":
      return { title, field, via: "Controller", quiet, build: () => new wws.Controller("bad", asAny(args)) };
    default:
      return { title, field, via: "Database", quiet, build: () => new wws.Database("bad", asAny(args)) };
  }
}

const URL_PASSWORD = "url-Pw-5c1d9e";
const KEY_WITH_SPACE = "spaced Key-77ab31";
const TPL_PASSWORD = "tpl-Pw-8e2f40aa";
const deepArray = (levels: number): unknown => JSON.parse(`${"[".repeat(levels)}${"]".repeat(levels)}`);

/** Inputs beyond the corpus: the connection, and templates that must not be saved. */
const EXTRA: CliInput[] = [
  {
    title: "no connection anywhere (no argument, stack config or environment)",
    field: "baseUrl",
    also: ["workspace", "apiKey"],
    via: "Pod",
    noConfig: true,
    quiet: [],
    build: () => new wws.Pod("bad", { image: "nginx" }),
  },
  {
    title: "no API key anywhere",
    field: "apiKey",
    via: "Pod",
    noConfig: true,
    quiet: [],
    build: () => new wws.Pod("bad", { image: "nginx", baseUrl: "http://127.0.0.1:9", workspace: "relbad-1" }),
  },
  {
    title: "a base URL carrying credentials",
    field: "baseUrl",
    via: "Controller",
    quiet: [URL_PASSWORD],
    build: () => new wws.Controller("bad", { baseUrl: `http://user:${URL_PASSWORD}@127.0.0.1:9` }),
  },
  {
    title: "an API key with a space",
    field: "apiKey",
    via: "Browser",
    quiet: [KEY_WITH_SPACE],
    build: () => new wws.Browser("bad", { apiKey: KEY_WITH_SPACE }),
  },
  {
    title: "a workspace that is not a DNS label",
    field: "workspace",
    via: "Browser",
    quiet: [],
    build: () => new wws.Browser("bad", { workspace: "Team_A" }),
  },
  {
    title: "template with a password in its VM credentials",
    field: "config.vm.credentials.password",
    via: "Template",
    quiet: [TPL_PASSWORD],
    build: () =>
      new wws.Template("bad", {
        name: "dev box",
        kind: "vm-ubuntu",
        config: { vm: { cpus: 2, credentials: { username: "dev", password: TPL_PASSWORD } } },
      }),
  },
  {
    title: "template with a password at the top of its config",
    field: "config.password",
    via: "Template",
    quiet: [TPL_PASSWORD],
    build: () =>
      new wws.Template("bad", {
        name: "db",
        kind: "storage",
        config: { storage: { engine: "postgres" }, password: TPL_PASSWORD },
      }),
  },
  {
    title: "template over 64 KB (a 70,000-character browser blueprint)",
    field: "config",
    via: "Template",
    quiet: [],
    build: () =>
      new wws.Template("bad", { name: "big", kind: "browser", config: { browser: { notes: "n".repeat(70_000) } } }),
  },
  {
    title: "workload spec field nested 3,000 levels deep",
    field: "command",
    via: "Workload",
    quiet: [],
    source: fileProgram("Workload", { kind: "pod", spec: { image: "nginx", command: deepArray(3000) } }),
  },
];

/**
 * One corpus entry per kind (the VM kinds as one) and top-level field: each field's reason is
 * checked for the whole corpus by test/provider/inputs/check.test.ts; through the CLI, one entry per
 * field shows that the engine reports it, named, and that nothing reaches the service.
 */
function onePerField(entries: readonly BadInput[]): BadInput[] {
  const seen = new Set<string>();
  return entries.filter((e) => {
    const key = `${e.kind.startsWith("vm") ? "vm" : e.kind}:${e.field.split(/[.[]/)[0]}`;
    if (seen.has(key)) return false;
    seen.add(key);
    return true;
  });
}

const mapped = onePerField(CORPUS.filter((e) => e.schema !== false)).map(fromCorpus);
const CORPUS_INPUTS = mapped.filter((m): m is CliInput => !("skip" in m));
const SKIPPED = mapped.filter((m): m is { skip: string; title: string } => "skip" in m);
const INPUTS: CliInput[] = [...CORPUS_INPUTS, ...EXTRA];
const SEED_PASSWORDS = SEED.flatMap((s) => passwordsOf(s.body));

let service: RestartableService;
let configured: E2eStack & { ws: { name: string; apiKey: string } };
let bare: E2eStack;
let file: Awaited<ReturnType<typeof fileProgramStack>>;
let current: () => void = () => undefined;
const refused = new Map<string, OpOutcome>();

beforeAll(async () => {
  ensureBuilt();
  for (const k of ["WWS_BASE_URL", "WWS_WORKSPACE", "WWS_API_KEY"]) delete process.env[k]; // the CLI and the provider inherit this environment
  service = await startRestartableService({ prefix: "relbad", count: 1 });
  // The connection comes from the stack config (`wws:apiKey` a secret), as in a real stack.
  configured = await configuredStack(service, async () => void current());
  bare = await newStack({ program: async () => void current(), projectName: "wws-bad-bare", secrets: [] });
  file = await fileProgramStack("wws-bad-file");
  await file.stack.setAllConfig({
    "wws:baseUrl": { value: service.url },
    "wws:workspace": { value: configured.ws.name },
    "wws:apiKey": { value: configured.ws.apiKey, secret: true },
  });
  await service.ctl.resetCounters();
});

afterAll(async () => {
  configured?.cleanup();
  bare?.cleanup();
  file?.cleanup();
  await service?.close();
});

/** Runs one preview of `input`'s program: inline, or from a file. */
async function preview(input: Pick<CliInput, "build" | "source" | "noConfig">): Promise<OpOutcome> {
  if (input.source !== undefined) {
    file.setProgram(input.source);
    return runOp(file.stack, "preview", PREVIEW_TIMEOUT_MS);
  }
  current = input.build ?? (() => undefined);
  return runOp(input.noConfig ? bare.stack : configured.stack, "preview", PREVIEW_TIMEOUT_MS);
}

const escape = (s: string): string => s.replace(/[.*+?^${}()|[\]\\]/g, "\\$&");

/** The diagnostic lines of a failed preview that name `field` for resource `bad`. */
function naming(o: OpOutcome, field: string): string[] {
  const f = escape(field);
  const patterns = [
    new RegExp(`resource 'bad': property ${f} value `), // a check failure with a property
    // a check failure whose property is kept quiet (credentials, apiKey, config) or nested (with what was given)
    new RegExp(`resource 'bad' has a problem: ${f}(?: \\((?:not set|set[^)]*)\\))?: `),
    new RegExp(`Error: \\w+ bad: ${f} nests objects and arrays`), // the resource's constructor, as the program ran
  ];
  return o.stdout.split("\n").filter((l) => patterns.some((p) => p.test(l)));
}

describe("the inputs", () => {
  it("should be at least 45, covering every class, the connection and templates", () => {
    console.log(
      `bad input through \`pulumi preview\`: ${INPUTS.length} inputs (${CORPUS_INPUTS.length} of the ${CORPUS.filter((e) => e.schema !== false).length} corpus entries ` +
        `the schema refuses, ${EXTRA.length} more); by class: ${JSON.stringify(Object.fromEntries([...new Set(INPUTS.map((i) => i.via))].map((v) => [v, INPUTS.filter((i) => i.via === v).length])))}; ` +
        `not expressible as resource arguments: ${SKIPPED.map((s) => `${s.title} (${s.skip})`).join("; ")}`,
    );
    expect(INPUTS.length).toBeGreaterThanOrEqual(45);
    expect(new Set(INPUTS.map((i) => i.via))).toEqual(
      new Set(["VirtualMachine", "Pod", "Browser", "Controller", "Database", "Workload", "Template"]),
    );
    expect(SKIPPED.length).toBeLessThanOrEqual(3);
  });
});

describe("the engine", () => {
  it("should stop a preview at the first resource whose check fails (so each input gets a preview of its own)", async () => {
    const o = await preview({
      build: () => {
        new wws.Pod("bad", { image: "" });
        new wws.Browser("bad-2", { memory: "2GB" });
        new wws.Controller("bad-3", { autodiscover: "yes" as never });
      },
    });
    expect(o.ok).toBe(false);
    // What the user reads: one resource's check failure, naming its field, and the summary's
    // `1 errored`; the other two are not mentioned. Which one is first is the order the
    // registrations reached the engine, so any of the three may be the one.
    const fieldOf: Record<string, string> = { bad: "image", "bad-2": "memory", "bad-3": "autodiscover" };
    const reported = Object.keys(fieldOf).filter((n) => new RegExp(`(?<![\\w-])${n}(?![\\w-])`).test(o.stdout));
    console.log(`a preview of 3 invalid resources reported ${reported.length}: ${reported.join(", ")}`);
    expect(reported).toHaveLength(1);
    const [name] = reported;
    expect(o.stdout).toMatch(new RegExp(`error: .*resource '${name}': property ${fieldOf[name]} value `));
    expect(o.stdout).toMatch(/^\s+1 errored$/m);
  });
});

describe("`pulumi preview`, given bad input", () => {
  it.each(INPUTS.map((i) => [i.title, i.field, i] as const))(
    "should refuse %s, naming %s",
    async (_title, field, input) => {
      const o = await preview(input);
      expect(o.ok).toBe(false);
      for (const f of [field, ...(input.also ?? [])]) {
        if (naming(o, f).length === 0) throw new Error(`the preview did not name ${f}:\n${o.stdout.slice(-3000)}`);
      }
      refused.set(input.title, o);
      // Nothing secret, nothing of the program's passwords, in anything the CLI printed.
      const printed = `${o.stdout}\n${o.stderr}\n${o.error}\n${o.events.join("\n")}`;
      for (const s of [...input.quiet, ...SEED_PASSWORDS, configured.ws.apiKey])
        expect([input.title, printed.includes(s)]).toEqual([input.title, false]);
    },
  );
});

describe("the service", () => {
  // A preview never creates, updates or deletes, so "no mutating request" would hold whatever
  // `check` did. What can fail: a `check` that passes a valid resource reads the service (the
  // connection, a new id), so a bad input that got past the local rules would show up here as a
  // read. Every refusal must come before the service hears of the resource at all.
  it("should have received no request at all across every preview, and hold nothing", async () => {
    const c = await service.ctl.counters();
    expect(c.requests.byRoute).toEqual({});
    expect(c.requests.total).toBe(0);
    expect(refused.size).toBe(INPUTS.length);
    const client = service.client(configured.ws.name);
    expect((await client.getSpec()).workloads).toEqual([]);
    expect(await client.listTemplates()).toEqual([]);
    const ms = [...refused.values()].map((o) => o.ms);
    console.log(
      `bad input: ${INPUTS.length} inputs tried, ${refused.size} refused by \`pulumi preview\` naming the field; ` +
        `requests to the service: ${c.requests.total} (${c.requests.mutating} mutating); preview wall time ${Math.min(...ms)}-${Math.max(...ms)} ms, ` +
        `${(ms.reduce((a, b) => a + b, 0) / 1000).toFixed(1)} s in all`,
    );
  });
});
