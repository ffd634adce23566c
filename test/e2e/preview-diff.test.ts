/**
 * `pulumi preview --json` through the real CLI, as a CI reviewer or bot reads it: for a table of
 * changes covering every input of every resource kind, each changed property appears in
 * `detailedDiff` with its kind (update, add, delete, or *-replace for what replaces the
 * resource), in `diffReasons`, and the replacing ones in `replaceReasons`. `replaceOnChanges` and
 * `ignoreChanges` work on our resources; a restart-only change says so in one line.
 */
import { password, serviceForFile } from "./harness";
import { deployedCliStack, programOf, type CliStack, type PreviewStep } from "./cli-json";

jest.setTimeout(240_000);

const VM_PW = password("vm");
const DB_PW = password("db");

type Res = { cls: string; name: string; args: Record<string, unknown>; opts?: Record<string, unknown> };

/** What `pulumi up` creates first: every kind, with some fields set so that they can change or go. */
const V1: Res[] = [
  {
    cls: "VirtualMachine",
    name: "vm",
    args: {
      os: "ubuntu",
      cpus: 1,
      storageSize: "10Gi",
      credentials: { password: VM_PW },
      ports: [{ port: 22 }],
      aiDaemon: { enabled: false },
      restartTrigger: "1",
    },
  },
  { cls: "Pod", name: "pod", args: { image: "nginx:1.26", ports: [{ name: "http", port: 80 }] } },
  { cls: "Browser", name: "browser", args: { cpu: "500m", memory: "1Gi" } },
  { cls: "Controller", name: "ctl", args: {} },
  { cls: "Database", name: "db", args: { engine: "postgres", instances: 1, credentials: { password: DB_PW } } },
  { cls: "Workload", name: "wl", args: { kind: "controller", spec: { autodiscover: false } } },
  { cls: "Template", name: "tpl", args: { name: "t1", kind: "pod", config: { pod: { image: "nginx" } } } },
];

const over = (
  name: string,
  args: Record<string, unknown>,
  opts?: Record<string, unknown>,
  drop: string[] = [],
): Res => {
  const r = V1.find((x) => x.name === name)!;
  const merged = { ...r.args, ...args };
  for (const k of drop) delete merged[k];
  return { ...r, args: merged, opts };
};

/** In-place changes of every spec field and option (plus user `replaceOnChanges`/`ignoreChanges`). */
const IN_PLACE: Res[] = [
  over(
    "vm",
    {
      cpus: 2,
      memory: "2Gi",
      credentials: { password: `${VM_PW}-2` },
      ports: [{ port: 22 }, { port: 80 }],
      placement: { region: "eu-central" },
      aiDaemon: { enabled: true },
      restartTrigger: "2",
      readyTimeoutSeconds: 300,
    },
    { customTimeouts: { create: "5m" } },
    ["storageSize"],
  ),
  over("pod", {
    image: "nginx:1.27",
    command: ["nginx"],
    cpu: "1",
    memory: "512Mi",
    ports: [{ name: "http", port: 8080 }],
    source: { repo: "https://example.test/app.git" },
    waitForReady: false,
    waitForDeletion: false,
  }),
  over("browser", { cpu: "1", memory: "4Gi" }, { ignoreChanges: ["memory"] }),
  over("ctl", { autodiscover: true, adopt: true }, { replaceOnChanges: ["autodiscover"] }),
  over("db", {
    version: "16",
    instances: 2,
    storageSize: "20Gi",
    cpu: "2",
    memory: "4Gi",
    tls: true,
    adminConsole: true,
    network: { exposed: true },
    backup: { enabled: true },
    waitForAdminConsole: true,
  }),
  over("wl", { spec: { autodiscover: true } }),
  over("tpl", { description: "now described" }),
];

/** Changes that replace: identity, VM os, database engine and credentials, template fields. */
const REPLACING: Res[] = [
  over("vm", { os: "windows" }),
  over("pod", { workloadId: "pod-2" }),
  // A workspace other than the stack config's is refused at check (cli-first-week.test.ts): a new id instead.
  over("browser", { workloadId: "browser-2" }),
  over("ctl", {}), // unchanged: no step
  over("db", { engine: "redis", credentials: { password: `${DB_PW}-2` }, allowDataLoss: true }),
  over("wl", { kind: "browser", spec: {} }),
  over("tpl", { name: "t2", kind: "browser", config: { browser: {} } }),
];

/** The kind `detailedDiff` gives `key` (its own entry, or the entries under it: `ports[1]`, `credentials.password`). */
function kindsOf(step: PreviewStep | undefined, key: string): string[] {
  const dd = step?.detailedDiff ?? {};
  return [
    ...new Set(
      Object.entries(dd)
        .filter(([p]) => p === key || p.startsWith(`${key}.`) || p.startsWith(`${key}[`))
        .map(([, d]) => d.kind),
    ),
  ].sort();
}

const service = serviceForFile();
let s: CliStack;

beforeAll(async () => {
  s = service.keep(await deployedCliStack(service, "wws-preview-diff", programOf(V1)));
});

describe("pulumi preview --json of our resources", () => {
  it("shows no step for an unchanged stack", async () => {
    const { byName } = await s.previewJson();
    expect([...byName.values()].filter((st) => st.op !== "same").map((st) => st.urn)).toEqual([]);
  });

  it("names every in-place change with its kind, a restart in one line, and honours replaceOnChanges and ignoreChanges", async () => {
    // The connection settings too: a base URL spelt differently (same service), an API key as an argument.
    const connection = { baseUrl: `${service.url}/`, apiKey: s.ws.apiKey };
    s.setProgram(
      programOf(
        IN_PLACE.map((r) => (r.name === "wl" || r.name === "tpl" ? { ...r, args: { ...r.args, ...connection } } : r)),
      ),
    );
    const { run, byName } = await s.previewJson();
    const table: Record<string, Record<string, string[]>> = {};
    for (const [name, props] of Object.entries({
      vm: [
        "cpus",
        "memory",
        "storageSize",
        "credentials",
        "ports",
        "placement",
        "aiDaemon",
        "restartTrigger",
        "readyTimeoutSeconds",
        "customTimeouts",
      ],
      pod: ["image", "command", "cpu", "memory", "ports", "source", "waitForReady", "waitForDeletion"],
      browser: ["cpu", "memory"],
      ctl: ["autodiscover", "adopt"],
      db: [
        "version",
        "instances",
        "storageSize",
        "cpu",
        "memory",
        "tls",
        "adminConsole",
        "network",
        "backup",
        "waitForAdminConsole",
      ],
      wl: ["autodiscover", "baseUrl", "apiKey"],
      tpl: ["description", "baseUrl", "apiKey"],
    })) {
      table[name] = Object.fromEntries(props.map((p) => [p, kindsOf(byName.get(name), p)]));
    }
    expect(table).toEqual({
      vm: {
        cpus: ["update"],
        memory: ["add"],
        storageSize: ["delete"],
        credentials: ["update"],
        ports: ["add"],
        placement: ["add"],
        aiDaemon: ["update"],
        restartTrigger: ["update"],
        readyTimeoutSeconds: ["add"],
        customTimeouts: ["add"],
      },
      pod: {
        image: ["update"],
        command: ["add"],
        cpu: ["add"],
        memory: ["add"],
        ports: ["update"],
        source: ["add"],
        waitForReady: ["add"],
        waitForDeletion: ["add"],
      },
      browser: { cpu: ["update"], memory: [] }, // ignoreChanges: ["memory"]
      ctl: { autodiscover: ["add-replace"], adopt: ["add"] }, // replaceOnChanges: ["autodiscover"]
      db: {
        version: ["add"],
        instances: ["update"],
        storageSize: ["add"],
        cpu: ["add"],
        memory: ["add"],
        tls: ["add"],
        adminConsole: ["add"],
        network: ["add"],
        backup: ["add"],
        waitForAdminConsole: ["add"],
      },
      wl: { autodiscover: ["update"], baseUrl: ["update"], apiKey: ["add"] },
      tpl: { description: ["add-replace"], baseUrl: ["update"], apiKey: ["add"] },
    });
    const ops = Object.fromEntries([...byName].map(([n, st]) => [n, st.op]));
    expect(ops).toMatchObject({
      vm: "update",
      pod: "update",
      browser: "update",
      ctl: "replace",
      db: "update",
      wl: "update",
      tpl: "replace",
    });
    expect(byName.get("vm")?.diffReasons?.sort()).toEqual([
      "aiDaemon",
      "cpus",
      "credentials",
      "customTimeouts",
      "memory",
      "placement",
      "ports",
      "readyTimeoutSeconds",
      "restartTrigger",
      "storageSize",
    ]);
    expect(byName.get("ctl")?.replaceReasons).toEqual(["autodiscover"]);
    expect(`${run.stdout}\n${run.stderr}`).toMatch(/vm-ubuntu vm: restartTrigger changed, so the update restarts it/);
    expect(`${run.stdout}\n${run.stderr}`).not.toContain(VM_PW);

    // `--diff` shows the same properties, with their values (secrets masked).
    const diff = await s.cli(["preview", "--diff"]);
    for (const line of [
      /~ cpus\s*: 1 => 2/,
      /\+ memory\s*: "2Gi"/,
      /- storageSize\s*: "10Gi"/,
      /~ restartTrigger\s*: "1" => "2"/,
      /\+-pulumi-nodejs:dynamic\/wws:Controller: \(replace\)/,
    ]) {
      expect(diff.stdout).toMatch(line);
    }
    expect(diff.stdout).not.toContain(VM_PW);
  });

  it("marks what replaces each kind as *-replace, in replaceReasons too", async () => {
    s.setProgram(programOf(REPLACING));
    const { byName } = await s.previewJson();
    const summary = Object.fromEntries(
      [...byName].map(([n, st]) => [
        n,
        {
          op: st.op,
          replaceReasons: [...(st.replaceReasons ?? [])].sort(),
          kinds: Object.fromEntries((st.replaceReasons ?? []).map((k) => [k, kindsOf(st, k)])),
        },
      ]),
    );
    expect(summary).toEqual({
      vm: { op: "replace", replaceReasons: ["type"], kinds: { type: ["update-replace"] } },
      pod: { op: "replace", replaceReasons: ["workloadId"], kinds: { workloadId: ["update-replace"] } },
      browser: { op: "replace", replaceReasons: ["workloadId"], kinds: { workloadId: ["update-replace"] } },
      db: {
        op: "replace",
        replaceReasons: ["credentials", "engine"],
        kinds: { credentials: ["update-replace"], engine: ["update-replace"] },
      },
      wl: { op: "replace", replaceReasons: ["type"], kinds: { type: ["update-replace"] } },
      // config.pod went, config.browser came
      tpl: {
        op: "replace",
        replaceReasons: ["config", "kind", "name"],
        kinds: { config: ["add-replace", "delete-replace"], kind: ["update-replace"], name: ["update-replace"] },
      },
    });
  });

  it("refuses a JavaScript typo, a field of another kind and a nested typo, naming each with a did-you-mean", async () => {
    s.setProgram(
      programOf([
        ...V1,
        {
          cls: "Pod",
          name: "bad",
          args: { image: "nginx", memroy: "1Gi", cpus: 2, ports: [{ name: "http", prot: 80 }] },
        },
      ]),
    );
    const pod = await s.cli(["preview"]);
    expect(pod.code).not.toBe(0);
    expect(pod.stdout).toMatch(/memroy.*unknown field: did you mean memory\?/);
    expect(pod.stdout).toMatch(/cpus.*unknown field: did you mean cpu\?/);
    expect(pod.stdout).toMatch(
      /ports\[0\]\.prot.*unknown field: did you mean port\? Rename or remove it \(the fields are name, port\)/,
    );

    s.setProgram(
      programOf([
        ...V1,
        {
          cls: "Template",
          name: "bad-tpl",
          args: { name: "t", kind: "pod", config: { pod: { image: "x" } }, descripton: "typo" },
        },
      ]),
    );
    const tpl = await s.cli(["preview"]);
    expect(tpl.code).not.toBe(0);
    expect(tpl.stdout).toMatch(/descripton.*unknown field: did you mean description\?/);
  });
});
