/**
 * The programs under examples/ run as they are (imported from "pulumi-wws", configured from the
 * stack config) through the real `pulumi` CLI: `up`, then a second run changes nothing, then
 * `destroy` empties the workspace. They run inline (the example module evaluated afresh per
 * operation), so this needs no language host; `scripts/demo.sh` runs the quickstart through the
 * CLI project path.
 */
import * as path from "node:path";
import { E2E_TIMEOUT_MS, newStack, password, ROOT, serviceForFile } from "./harness";

jest.setTimeout(E2E_TIMEOUT_MS);

const service = serviceForFile();

/**
 * The example's index.ts as an inline program: its exports are the stack outputs. Evaluated in a
 * fresh module registry each time (it declares its resources when it loads), sharing this file's
 * `@pulumi/pulumi`: a second copy would build requests the engine connection cannot serialize.
 */
const exampleProgram = (name: string) => async (): Promise<Record<string, unknown>> => {
  let exports: Record<string, unknown> = {};
  const sdk: unknown = jest.requireActual("@pulumi/pulumi");
  jest.isolateModules(() => {
    jest.doMock("@pulumi/pulumi", () => sdk);
    exports = { ...jest.requireActual<Record<string, unknown>>(path.join(ROOT, "examples", name, "index.ts")) };
  });
  return exports;
};

async function runExample(name: string, project: string, secretConfig: Record<string, string>) {
  const ws = service.workspace();
  const config: Record<string, { value: string; secret?: boolean }> = {
    "wws:baseUrl": { value: service.url },
    "wws:workspace": { value: ws.name },
    "wws:apiKey": { value: ws.apiKey, secret: true },
  };
  for (const [k, v] of Object.entries(secretConfig)) config[k] = { value: v, secret: true };
  const s = await newStack({
    program: exampleProgram(name),
    projectName: project,
    config,
    secrets: [ws.apiKey, ...Object.values(secretConfig)],
  });
  service.keep(s);
  const client = service.client(ws.name);

  const up = await s.up();
  expect(up.summary.result).toBe("succeeded");
  const outputs = Object.fromEntries(Object.entries(up.outputs).map(([k, v]) => [k, v.value]));
  const second = await s.preview();
  expect(Object.keys(second.changeSummary)).toEqual(["same"]);
  const spec = await client.getSpec();
  const templates = await client.listTemplates();

  const destroy = await s.destroy();
  expect(destroy.summary.result).toBe("succeeded");
  expect((await client.getSpec()).workloads).toEqual([]);
  expect(await client.listTemplates()).toEqual([]);
  return { ws: ws.name, outputs, spec, templates, created: up.summary.resourceChanges?.create };
}

it("should run examples/quickstart", async () => {
  const r = await runExample("quickstart", "wws-quickstart", {
    "wws-quickstart:vmPassword": password("vm"),
    "wws-quickstart:dbPassword": password("db"),
  });
  expect(r.outputs.phases).toEqual({
    web: "Running",
    browser: "Running",
    controller: "Running",
    vm: "Running",
    db: "Running",
  });
  expect(r.outputs.dbConnectionUri).toBe(
    `postgresql://app@db.${r.ws}.workloads.localhost:5432/postgres?sslmode=require`,
  );
  expect(r.outputs.dbAdminUrl).toBe(`https://db-admin-${r.ws}.workloads.localhost`);
  expect(r.outputs.dbAdminReady).toBe(true);
  expect(r.outputs.webEndpoint).toBe(`web.${r.ws}.workloads.localhost:80`);
  expect(r.templates.map((t) => t.id)).toEqual([r.outputs.templateId]);
  expect(r.spec.workloads.map((w) => w.type).sort()).toEqual(["browser", "controller", "pod", "storage", "vm-ubuntu"]);
});

it("should run examples/templates", async () => {
  const r = await runExample("templates", "wws-templates", {});
  const kinds = ["vm-ubuntu", "vm-ubuntu-desktop", "vm-windows", "pod", "browser", "controller", "storage"];
  expect(Object.keys(r.outputs.templateIds as object).sort()).toEqual([...kinds].sort());
  expect(r.templates.map((t) => t.kind).sort()).toEqual([...kinds].sort());
  expect(r.outputs.sitePhase).toBe("Running");
});

it("should run examples/placement", async () => {
  const r = await runExample("placement", "wws-placement", { "wws-placement:vmPassword": password("vm") });
  // The default fleet: eu-central has the most hosts; its biggest host by capacity, by name.
  expect(r.outputs.chosenRegion).toBe("eu-central");
  expect(r.outputs.pinnedHost).toBe("eu-central-1");
  expect(r.outputs.phases).toEqual({ anywhere: "Running", regional: "Running", pinned: "Running" });
  const placement = Object.fromEntries(r.spec.workloads.map((w) => [w.id, w.spec.placement]));
  expect(placement).toEqual({
    anywhere: undefined,
    regional: { region: "eu-central" },
    pinned: { host: "eu-central-1" },
  });
});
