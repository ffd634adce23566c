/**
 * The lifecycle a user drives with the real `pulumi` CLI: up of every kind, a preview with no
 * changes, in-place updates, replacements, restarts and destroy, each checked from what the
 * engine reports (per-resource operations and change summaries), the stack outputs and the
 * service's own state. After every operation, no password and no API key is found in plaintext in
 * the exported state, the backend's files, the stack config or the CLI's output.
 */
import { execFileSync } from "node:child_process";
import * as path from "node:path";
import * as wws from "../../index";
import {
  configuredStack as configuredStackOn,
  E2E_TIMEOUT_MS,
  newStack,
  password,
  PULUMI_VERSION,
  pulumiBinDir,
  pulumiCommand,
  serviceForFile,
  type E2eStack,
  type Program,
} from "./harness";

jest.setTimeout(E2E_TIMEOUT_MS);

const service = serviceForFile();

beforeAll(async () => {
  const version = execFileSync(path.join(pulumiBinDir(), "pulumi"), ["version"], { encoding: "utf8" }).trim();
  console.log(`pulumi version: ${version} (${path.join(pulumiBinDir(), "pulumi")})`);
  expect(version).toBe(`v${PULUMI_VERSION}`);
  expect((await pulumiCommand()).version?.toString()).toBe(PULUMI_VERSION);
});

async function configuredStack(program: Program, secrets: string[] = []) {
  return service.keep(await configuredStackOn(service, program, secrets));
}

describe("every kind", () => {
  const ws = { name: "", apiKey: "" };
  const vmPassword = password("vm");
  const dbPassword = password("pg");
  const redisPassword = password("redis");
  let s: E2eStack;

  // The API key is given as a plain argument here: the package makes it a secret.
  const program = async () => {
    const workspace = new wws.Workspace("ws", { name: ws.name, baseUrl: service.url, apiKey: ws.apiKey });
    const login = { username: "ops", password: vmPassword };
    const ubuntu = new wws.VirtualMachine("ubuntu", {
      workspace,
      os: "ubuntu",
      cpus: 2,
      memory: "4Gi",
      storageSize: "40Gi",
      credentials: login,
      ports: [{ name: "ssh", port: 22 }],
    });
    const desktop = new wws.VirtualMachine("desktop", {
      workspace,
      os: "ubuntu-desktop",
      credentials: login,
      aiDaemon: { enabled: true, provider: "anthropic", model: "claude" },
    });
    const windows = new wws.VirtualMachine("windows", {
      workspace,
      os: "windows",
      cpus: 4,
      memory: "8Gi",
      credentials: { username: "admin", password: vmPassword },
    });
    const web = new wws.Pod("web", {
      workspace,
      image: "nginx:1.27",
      cpu: "250m",
      memory: "256Mi",
      ports: [{ name: "http", port: 80 }],
    });
    const built = new wws.Pod("built", {
      workspace,
      source: { repo: "https://github.com/example/app", ref: "main" },
      command: ["npm", "start"],
    });
    const browser = new wws.Browser("browser", { workspace, cpu: "1", memory: "2Gi" });
    const controller = new wws.Controller("controller", { workspace, autodiscover: true });
    const pg = new wws.Database("pg", {
      workspace,
      engine: "postgres",
      version: "16",
      instances: 2,
      storageSize: "10Gi",
      adminConsole: true,
      waitForAdminConsole: true,
      network: { exposed: true },
      credentials: { password: dbPassword },
      backup: { enabled: true, schedule: "0 3 * * *", retentionDays: 7 },
    });
    const redis = new wws.Database("cache", {
      workspace,
      engine: "redis",
      network: { exposed: true },
      credentials: { password: redisPassword },
    });
    const generic = new wws.Workload("generic", { workspace, kind: "browser", spec: { memory: "1Gi" } });
    const template = new wws.Template("tpl", {
      workspace,
      name: "ubuntu dev box",
      kind: "vm-ubuntu",
      config: { vm: { cpus: 2, memory: "4Gi" } },
    });
    const all = { ubuntu, desktop, windows, web, built, browser, controller, pg, cache: redis, generic };
    return {
      phases: Object.fromEntries(Object.entries(all).map(([k, r]) => [k, r.phase])),
      types: Object.fromEntries(Object.entries(all).map(([k, r]) => [k, r.type])),
      webEndpoint: web.endpoint,
      pgUri: pg.connectionUri,
      pgAdminUrl: pg.adminUrl,
      pgAdminReady: pg.adminReady,
      redisUri: redis.connectionUri,
      templateId: template.templateId,
    };
  };
  const KINDS = {
    ubuntu: "vm-ubuntu",
    desktop: "vm-ubuntu-desktop",
    windows: "vm-windows",
    web: "pod",
    built: "pod",
    browser: "browser",
    controller: "controller",
    pg: "storage",
    cache: "storage",
    generic: "browser",
  };

  beforeAll(async () => {
    Object.assign(ws, service.workspace());
    s = await newStack({ program, secrets: [ws.apiKey, vmPassword, dbPassword, redisPassword] });
    service.keep(s);
  });

  it("should create a workload of every kind and a template with `pulumi up`, each Running", async () => {
    const up = await s.up();
    expect(up.summary.result).toBe("succeeded");
    expect(up.summary.resourceChanges).toEqual({ create: 13 }); // stack, workspace, 10 workloads, template
    for (const name of [...Object.keys(KINDS), "tpl"]) expect([name, up.ops.get(name)]).toEqual([name, ["create"]]);

    const out = Object.fromEntries(Object.entries(up.outputs).map(([k, v]) => [k, v.value]));
    expect(out.phases).toEqual(Object.fromEntries(Object.keys(KINDS).map((k) => [k, "Running"])));
    expect(out.types).toEqual(KINDS);
    expect(out.webEndpoint).toBe(`web.${ws.name}.workloads.localhost:80`);
    expect(out.pgUri).toBe(`postgresql://app@pg.${ws.name}.workloads.localhost:5432/postgres?sslmode=require`);
    expect(out.pgAdminUrl).toBe(`https://pg-admin-${ws.name}.workloads.localhost`);
    expect(out.pgAdminReady).toBe(true);
    expect(out.redisUri).toBe(`rediss://app@cache.${ws.name}.workloads.localhost:6380`);
    expect(out.templateId).toMatch(/^tpl_[0-9a-f]+$/);

    // The service's view: every workload with its declared spec, the template, the credentials stored.
    const client = service.client(ws.name);
    const spec = await client.getSpec();
    expect(Object.fromEntries(spec.workloads.map((w) => [w.id, w.type]))).toEqual(KINDS);
    expect(spec.workloads.find((w) => w.id === "pg")?.spec).toMatchObject({
      engine: "postgres",
      adminConsole: true,
      network: { exposed: true },
      instances: 2,
    });
    expect(spec.workloads.find((w) => w.id === "desktop")?.spec).toMatchObject({ aiDaemon: { enabled: true } });
    const templates = await client.listTemplates();
    expect(templates.map((t) => [t.id, t.name, t.kind])).toEqual([[out.templateId, "ubuntu dev box", "vm-ubuntu"]]);
    expect((await client.listSecrets()).map((x) => x.path).sort()).toEqual(
      ["cache", "desktop", "pg", "ubuntu", "windows"].map((id) => `workloads/${id}/credentials`),
    );

    // Ids in state are `<workspace>/<id>`, the ids `import` would take.
    const ids = (await s.resources()).filter((r) => r.id).map((r) => r.id);
    expect(ids).toEqual(expect.arrayContaining(Object.keys(KINDS).map((k) => `${ws.name}/${k}`)));
  });

  it("should preview no changes on a second run", async () => {
    const preview = await s.preview();
    expect(preview.changeSummary).toEqual({ same: 13 });
    for (const [name, ops] of preview.ops) expect([name, ops]).toEqual([name, ["same"]]);
  });

  it("should leave the workspace empty after `pulumi destroy`", async () => {
    const destroy = await s.destroy();
    expect(destroy.summary.resourceChanges).toEqual({ delete: 13 });
    const client = service.client(ws.name);
    expect((await client.getSpec()).workloads).toEqual([]);
    expect(await client.listTemplates()).toEqual([]);
    expect(await client.listSecrets()).toEqual([]);
    expect(await s.resources()).toEqual([]);
  });
});

it("should notice a value that is stored in plaintext (a control of the secrets scan every test relies on)", async () => {
  const canary = `canary-${Date.now().toString(36)}`;
  // An image reference is not secret: it is in the state in plaintext, so the scan must fail.
  const s = await configuredStack(async () => {
    new wws.Pod("canary", { image: `registry.example/${canary}:1` });
  }, [canary]);
  await expect(s.up()).rejects.toThrow(/pulumi stack export[\s\S]*history[\s\S]*stacks\/wws-e2e\/e2e\.json/);
  await s.stack.destroy(); // directly: the scan would fail again
  expect((await s.client.getSpec()).workloads).toEqual([]);
});

describe("changes", () => {
  it("should preview and apply a spec change as an in-place update (and rotate a VM's password the same way)", async () => {
    const first = password("vm1");
    const second = password("vm2");
    let memory = "256Mi";
    let vmPassword = first;
    const s = await configuredStack(async () => {
      const web = new wws.Pod("web", { image: "nginx:1.27", memory, ports: [{ name: "http", port: 80 }] });
      const vm = new wws.VirtualMachine("vm", { os: "ubuntu", credentials: { password: vmPassword } });
      return { webGeneration: web.generation, vmGeneration: vm.generation };
    }, [first, second]);
    const up1 = await s.up();
    expect(up1.outputs.webGeneration.value).toBe(1);

    memory = "512Mi";
    vmPassword = second;
    const preview = await s.preview();
    expect(preview.changeSummary).toEqual({ same: 1, update: 2 });
    expect(preview.ops.get("web")).toEqual(["update"]);
    expect(preview.diffs.get("web")).toEqual(["memory"]);
    // A secret's change is masked in what the engine shows; the operation says it all.
    expect(preview.ops.get("vm")).toEqual(["update"]);
    expect((await s.client.getSpec()).workloads.find((w) => w.id === "web")?.spec.memory).toBe("256Mi"); // preview sends nothing

    const up2 = await s.up();
    expect(up2.summary.resourceChanges).toEqual({ same: 1, update: 2 });
    expect(up2.outputs.webGeneration.value).toBe(2);
    expect(up2.outputs.vmGeneration.value).toBe(2);
    const status = await s.client.getStatus("web");
    expect(status).toMatchObject({ phase: "Running", generation: 2, observedGeneration: 2 });
    expect((await s.client.getSpec()).workloads.find((w) => w.id === "web")?.spec.memory).toBe("512Mi");
    // The new password was stored (secret-changed), still never echoed.
    expect((await s.client.listSecrets()).map((x) => x.path)).toContain("workloads/vm/credentials");
    expect((await s.preview()).changeSummary).toEqual({ same: 3 });
    await s.destroy();
  });

  it("should preview a change of kind as a replacement and apply it (the id is reused)", async () => {
    let kind: "browser" | "controller" = "browser";
    const s = await configuredStack(async () => {
      const w = new wws.Workload("worker", { kind, workloadId: "worker" });
      return { type: w.type };
    });
    await s.up();
    expect((await s.client.getStatus("worker")).type).toBe("browser");

    kind = "controller";
    const preview = await s.preview();
    expect(preview.changeSummary).toMatchObject({ replace: 1 });
    expect(preview.ops.get("worker")).toContain("replace");
    expect(preview.diffs.get("worker")).toEqual(["type"]);
    expect(preview.replaceKeys.get("worker")).toEqual(["type"]);

    const up = await s.up();
    expect(up.summary.resourceChanges).toMatchObject({ replace: 1 });
    expect(up.outputs.type.value).toBe("controller");
    expect(await s.client.getStatus("worker")).toMatchObject({ type: "controller", phase: "Running" });
    expect((await s.resources()).map((r) => r.id)).toEqual([`${s.ws.name}/worker`]);
    await s.destroy();
  });

  it("should restart a workload when its restartTrigger changes, without replacing it", async () => {
    let trigger = "deploy-1";
    const s = await configuredStack(async () => {
      const web = new wws.Pod("web", { image: "nginx:1.27", restartTrigger: trigger });
      return { restartCount: web.restartCount, phase: web.phase };
    });
    const up1 = await s.up();
    expect(up1.outputs.restartCount.value).toBe(0);

    trigger = "deploy-2";
    const preview = await s.preview();
    expect(preview.ops.get("web")).toEqual(["update"]);
    expect(preview.diffs.get("web")).toEqual(["restartTrigger"]);

    const up2 = await s.up();
    expect(up2.summary.resourceChanges).toEqual({ same: 1, update: 1 });
    expect(up2.ops.get("web")).toEqual(["update"]);
    expect(up2.outputs).toMatchObject({ restartCount: { value: 1 }, phase: { value: "Running" } });
    expect(await s.client.getStatus("web")).toMatchObject({ restartCount: 1, phase: "Running" });
    const phases = (await service.ctl.transitions(s.ws.name, "web")).map((t) => t.phase);
    expect(phases).toContain("Restarting");
    expect(phases).not.toContain("Deleting");
    await s.destroy();
  });
});
