import * as path from "node:path";
import * as pulumi from "@pulumi/pulumi";
import { Browser, Controller, Database, Pod, Template, VirtualMachine, Workload, Workspace } from "../../../provider";
import { withoutOwnFrames } from "../../../provider/registration-traces";
import { recordResources, secretOf, settle, valueOf, type Registered } from "../mocks";

const API_KEY = "mock-Api-Key-4242";
const PROVIDER_DIR = path.dirname(require.resolve("../../../provider/hosted-resource"));
const PASSWORD = "mock-Pass-Word-77";

describe("resource classes", () => {
  let registered: Registered[];
  const find = (name: string): Registered => {
    const r = registered.find((x) => x.name === name);
    if (!r) throw new Error(`${name} not registered`);
    return r;
  };

  beforeEach(async () => {
    registered = await recordResources((type) =>
      type.startsWith("pulumi-nodejs:dynamic/wws:") && !type.endsWith("Template")
        ? { phase: "Running", restartCount: 0 }
        : {},
    );
  });

  it("should register each class under its dynamic type token", async () => {
    new VirtualMachine("vm", { workspace: "demo", os: "ubuntu", credentials: { password: PASSWORD } });
    new Pod("pod", { workspace: "demo", image: "nginx" });
    new Browser("browser", { workspace: "demo" });
    new Controller("controller", { workspace: "demo" });
    new Database("db", { workspace: "demo", engine: "postgres", credentials: { password: PASSWORD } });
    new Workload("generic", { workspace: "demo", kind: "browser" });
    new Template("tpl", { workspace: "demo", name: "t", kind: "browser", config: { browser: {} } });
    await settle();
    expect(Object.fromEntries(registered.map((r) => [r.name, r.type]))).toEqual({
      vm: "pulumi-nodejs:dynamic/wws:VirtualMachine",
      pod: "pulumi-nodejs:dynamic/wws:Pod",
      browser: "pulumi-nodejs:dynamic/wws:Browser",
      controller: "pulumi-nodejs:dynamic/wws:Controller",
      db: "pulumi-nodejs:dynamic/wws:Database",
      generic: "pulumi-nodejs:dynamic/wws:Workload",
      tpl: "pulumi-nodejs:dynamic/wws:Template",
    });
    expect(
      [find("pod"), find("browser"), find("controller"), find("db"), find("generic")].map((r) => r.inputs.type),
    ).toEqual(["pod", "browser", "controller", "storage", "browser"]);
  });

  it("should register with no stack traces of its own, the source position at the program's line", async () => {
    const traces: string[][] = [];
    const limit = Error.stackTraceLimit;
    const prepare = Error.prepareStackTrace;
    Error.prepareStackTrace = (err, frames) => {
      traces.push(frames.map((f) => f.getFileName() ?? ""));
      return prepare ? prepare(err, frames) : String(err);
    };
    try {
      new Pod("traced", { workspace: "demo", image: "nginx" });
    } finally {
      Error.prepareStackTrace = prepare;
    }
    await settle();
    expect(Error.stackTraceLimit).toBe(limit);
    expect(traces.length).toBeGreaterThan(60);
    // The SDK's source position is the only trace with frames: past its own and the one class
    // level it skips (HostedResource), the next frame is this file, not a resource class.
    const [position, ...none] = traces.filter((t) => t.length > 0);
    expect(none).toEqual([]);
    const ours = position.filter((f) => f.startsWith(`${PROVIDER_DIR}/`));
    expect(ours).toEqual([path.join(PROVIDER_DIR, "hosted-resource.ts")]);
    expect(position[position.indexOf(ours[0]) + 1]).toBe(__filename);
  });

  it("should leave out of a trace every frame of the package after its first", () => {
    const own = (name: string) => path.join(PROVIDER_DIR, name);
    const frames = ["sdk/resource.js", own("hosted-resource.ts"), own("resources/pod.ts"), "index.ts", own("x.ts")];
    expect(withoutOwnFrames(frames, (f) => f)).toEqual(["sdk/resource.js", own("hosted-resource.ts"), "index.ts"]);
    expect(withoutOwnFrames(["a.js", "b.js"], (f) => f)).toEqual(["a.js", "b.js"]);
  });

  it.each([
    ["ubuntu", "vm-ubuntu"],
    ["ubuntu-desktop", "vm-ubuntu-desktop"],
    ["windows", "vm-windows"],
  ] as const)("should map os %s to type %s", async (os, type) => {
    new VirtualMachine("vm", { workspace: "demo", os: pulumi.output(os), credentials: { password: PASSWORD } });
    await settle();
    expect(find("vm").inputs.type).toBe(type);
  });

  it("should default the workload id to the resource name and send the spec fields flat", async () => {
    new VirtualMachine("web-1", {
      workspace: "demo",
      os: "ubuntu",
      cpus: 2,
      memory: "4Gi",
      placement: { region: "eu" },
      credentials: { password: PASSWORD },
    });
    new Pod("api", { workspace: "demo", workloadId: "api-v2", image: "nginx", ports: [{ name: "http", port: 80 }] });
    await settle();
    expect(find("web-1").inputs).toMatchObject({
      workloadId: "web-1",
      cpus: 2,
      memory: "4Gi",
      placement: { region: "eu" },
    });
    expect(find("api").inputs).toMatchObject({
      workloadId: "api-v2",
      image: "nginx",
      ports: [{ name: "http", port: 80 }],
    });
  });

  it("should make workloads given a Workspace its children, with its connection, unless their parent is set", async () => {
    const ws = new Workspace("prod", { name: "prod-ws", baseUrl: "http://svc:8787", apiKey: API_KEY });
    const vm = new VirtualMachine("vm", { workspace: ws, os: "ubuntu", credentials: { password: PASSWORD } });
    const group = new pulumi.ComponentResource("test:index:Group", "group");
    const pod = new Pod("pod", { workspace: ws, image: "nginx", baseUrl: "http://override" }, { parent: group });
    await settle();
    expect(await valueOf(vm.urn)).toBe(
      "urn:pulumi:stack::project::wws:index:Workspace$pulumi-nodejs:dynamic/wws:VirtualMachine::vm",
    );
    expect(find("vm").inputs).toMatchObject({ workspace: "prod-ws", baseUrl: "http://svc:8787" });
    expect(await valueOf(pod.urn)).toBe(
      "urn:pulumi:stack::project::test:index:Group$pulumi-nodejs:dynamic/wws:Pod::pod",
    );
    expect(find("pod").inputs).toMatchObject({ workspace: "prod-ws", baseUrl: "http://override" });
    expect(await valueOf(ws.name)).toBe("prod-ws");
    expect(await secretOf(ws.apiKey as pulumi.Output<unknown>)).toBe(true);
  });

  it("should send credentials and the API key as secrets even when given as plain strings", async () => {
    const vm = new VirtualMachine("vm", {
      workspace: "demo",
      apiKey: API_KEY,
      os: "ubuntu",
      credentials: { password: PASSWORD },
    });
    const db = new Database("db", {
      workspace: "demo",
      engine: "redis",
      credentials: { username: "u", password: PASSWORD },
    });
    await settle();
    const secret = (v: unknown): boolean => pulumi.runtime.isRpcSecret(v);
    expect(secret(find("vm").inputs.apiKey)).toBe(true);
    expect(secret(find("vm").inputs.credentials)).toBe(true);
    expect(secret(find("db").inputs.credentials)).toBe(true);
    expect(await secretOf((vm as unknown as { credentials: pulumi.Output<unknown> }).credentials)).toBe(true);
    expect(await secretOf((db as unknown as { credentials: pulumi.Output<unknown> }).credentials)).toBe(true);
  });

  it("should keep every secret out of the serialized provider, which is the same for every resource", async () => {
    new VirtualMachine("a", { workspace: "demo", apiKey: API_KEY, os: "ubuntu", credentials: { password: PASSWORD } });
    new Database("b", {
      workspace: "demo",
      apiKey: "other-Key-99",
      engine: "postgres",
      credentials: { password: "x-Pass-123" },
    });
    await settle();
    const a = String(find("a").inputs.__provider);
    expect(a).toBe(String(find("b").inputs.__provider));
    for (const s of [API_KEY, PASSWORD, "other-Key-99", "x-Pass-123", "demo"]) expect(a).not.toContain(s);
    expect(a).toContain('require("pulumi-wws/provider/dynamic")');
  });

  it("should take credentials given inside a generic spec, as a secret, and refuse an id in the spec", async () => {
    new Workload("w", { workspace: "demo", kind: "vm-ubuntu", spec: { cpus: 1, credentials: { password: PASSWORD } } });
    await settle();
    expect(find("w").inputs.cpus).toBe(1);
    expect(pulumi.runtime.isRpcSecret(find("w").inputs.credentials)).toBe(true);
    expect(() => new Workload("bad", { kind: "pod", spec: { id: "x", image: "nginx" } })).toThrow(
      /spec field "id" is not allowed \(set workloadId\)/,
    );
  });

  it("should refuse a second resource with the same workload id under setMocks, which makes no Stack", async () => {
    new Pod("a", { workspace: "demo", workloadId: "web", image: "nginx" });
    new Pod("other-workspace", { workspace: "prod", workloadId: "web", image: "nginx" });
    expect(() => new Pod("b", { workspace: "demo", workloadId: "web", image: "nginx" })).toThrow(
      'Pod "b": workload web of workspace demo is also declared by Pod "a"',
    );
  });

  it("should expose the service's outputs as properties", async () => {
    const db = new Database("db", { workspace: "demo", engine: "postgres", credentials: { password: PASSWORD } });
    expect(await valueOf(db.phase)).toBe("Running");
    expect(await valueOf(db.restartCount)).toBe(0);
    expect(await valueOf(db.type)).toBe("storage");
    expect(await valueOf(db.workloadId)).toBe("db");
  });
});
