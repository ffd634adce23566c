/**
 * Upgrading through the real `pulumi` CLI, from package 0.1.0 (the first release's state layout,
 * `test/fixtures/upgrade-0.1.0`) and from the previous landed release (commit bb5c2b3, the layout
 * with the one-line provider and password digests, `test/fixtures/upgrade-previous`), both written
 * by `make-fixture.ts` run at that commit: the state is imported into a fresh file backend, its
 * workloads and template are recreated on a local service, and the same program with the current
 * package previews no changes, then `up` sends nothing, and `refresh` and `destroy` work. Also the
 * size of a Pod in `pulumi stack export`, 0.1.0 against now.
 */
import * as fs from "node:fs";
import * as path from "node:path";
import { randomBytes } from "node:crypto";
import { ControlClient, startService, type RunningService } from "../../server";
import { WorkspaceClient } from "../../sdk";
import { declaredBodyOf } from "../../provider/dynamic/workloads/body";
import { PROVIDER_TEXT } from "../../provider/hosted-resource";
import * as wws from "../../index";
import { revealed, type StateResource } from "../../cli/recover/pending-creates";
import { E2E_TIMEOUT_MS, ensureBuilt, newStack, until, type E2eStack } from "./harness";
import {
  BASE_URL_PLACEHOLDER,
  FIXTURE_PASSPHRASE,
  FIXTURE_PROJECT,
  FIXTURE_RESOURCE_COUNT,
  FIXTURE_STACK,
  FIXTURE_WORKSPACE,
  upgradeProgram,
} from "../fixtures/upgrade-0.1.0/program";

jest.setTimeout(E2E_TIMEOUT_MS);

/** A release's state and the stack's `Pulumi.e2e.yaml` as its run left them (encryption salt, encrypted config secrets). */
function fixture(dir: string): { state: string; config: string } {
  const at = path.join(__dirname, "../fixtures", dir);
  return {
    state: fs.readFileSync(path.join(at, "stack-export.json"), "utf8"),
    config: fs.readFileSync(path.join(at, "stack-config.yaml"), "utf8"),
  };
}
const RELEASES = [
  // 0.1.0 stored a serialized closure as each resource's provider.
  { name: "0.1.0", ...fixture("upgrade-0.1.0"), provider: expect.stringContaining("exports.handler = __f0;") },
  { name: "the previous landed release (bb5c2b3)", ...fixture("upgrade-previous"), provider: PROVIDER_TEXT.workload },
];
const fixtureText = RELEASES[0].state;

const resourcesOf = (deployment: unknown): StateResource[] =>
  (deployment as { deployment: { resources: StateResource[] } }).deployment.resources ?? [];
const isWorkload = (r: StateResource): boolean =>
  r.type.startsWith("pulumi-nodejs:dynamic/wws:") && r.type !== "pulumi-nodejs:dynamic/wws:Template";
/**
 * The bytes of a resource in `pulumi stack export` as the CLI prints it (4-space indent), the
 * resource at the top level: the measure of the 6,400 bytes per Pod. In the file, the
 * nesting adds 12 spaces per line (about 20% more; also printed).
 */
const exportBytes = (r: StateResource, nested = false): number =>
  Buffer.byteLength(JSON.stringify(r, null, 4).replace(/\n/g, nested ? "\n            " : "\n"));

let svc: RunningService;
let client: WorkspaceClient;
let ctl: ControlClient;
const apiKey = `upgrade-key-${randomBytes(12).toString("hex")}`;
const controlToken = `upgrade-control-${randomBytes(6).toString("hex")}`;

beforeAll(async () => {
  ensureBuilt();
  svc = await startService({
    port: 0,
    reconcileMs: 50,
    heartbeatMs: 60_000,
    keys: { [FIXTURE_WORKSPACE]: apiKey },
    controlToken,
  });
  client = new WorkspaceClient({ baseUrl: svc.url, workspace: FIXTURE_WORKSPACE, apiKey });
  ctl = new ControlClient(svc.url, controlToken);
});

afterAll(async () => {
  await client?.close();
  await svc?.close();
});

describe.each(RELEASES)("a stack written by $name", (release) => {
  let s: E2eStack;
  const secrets = [apiKey];

  afterAll(() => s?.cleanup());

  it("should import, with its release's layout, and its workloads recreated on the service", async () => {
    const fixture = JSON.parse(release.state) as unknown;
    const oldTemplate = resourcesOf(fixture).find((r) => r.type.endsWith("wws:Template"));
    const oldTemplateId = String(oldTemplate?.outputs?.templateId);
    const oldWeb = resourcesOf(fixture).find((r) => r.urn.endsWith("wws:Pod::web"));
    expect(oldWeb?.outputs?.__provider).toEqual(release.provider);

    // The service's URL stands for the one the release talked to (its port changes every run); template
    // ids are the service's, so the template is created first and the state takes its new id.
    const t = oldTemplate?.outputs as Record<string, unknown>;
    const template = await client.createTemplate({
      name: String(t.name),
      kind: t.kind as never,
      config: t.config as Record<string, unknown>,
    });
    const state = release.state.split(BASE_URL_PLACEHOLDER).join(svc.url).split(oldTemplateId).join(template.id);

    s = await newStack({
      program: upgradeProgram,
      projectName: FIXTURE_PROJECT,
      passphrase: FIXTURE_PASSPHRASE,
      files: { [`Pulumi.${FIXTURE_STACK}.yaml`]: release.config.split(BASE_URL_PLACEHOLDER).join(svc.url) },
      secrets,
    });
    await s.stack.setConfig("wws:apiKey", { value: apiKey, secret: true });
    const passwords: Record<string, string> = {};
    for (const [type, key] of [
      ["vm-ubuntu", "vmPassword"],
      ["storage", "dbPassword"],
    ])
      secrets.push((passwords[type] = (await s.stack.getConfig(key)).value));
    await s.stack.importStack(JSON.parse(state));

    // The live workloads, as the release left them: each one's spec from the (decrypted) state, and
    // its login (0.1.0 kept the password; later releases a digest, so the password is the config's).
    const workloads = resourcesOf(await s.stack.exportStack()).filter(isWorkload);
    expect(workloads).toHaveLength(6);
    for (const w of workloads) {
      const body = declaredBodyOf(revealed(w.outputs) as Record<string, unknown>) as Record<string, unknown>;
      const login = body.credentials as { username?: string; digest?: string } | undefined;
      if (login?.digest !== undefined)
        body.credentials = { username: login.username, password: passwords[String(w.outputs?.type)] };
      await client.upsertWorkload(w.outputs?.type as never, body as never);
    }
    for (const w of workloads)
      await until(
        `${String(w.outputs?.workloadId)} Running`,
        async () => (await client.getStatus(String(w.outputs?.workloadId))).phase === "Running",
      );
    await s.assertNoPlaintext();
  });

  it("should preview no changes with the current package", async () => {
    const preview = await s.preview();
    expect(preview.changeSummary).toEqual({ same: FIXTURE_RESOURCE_COUNT });
    for (const [name, ops] of preview.ops) expect([name, ops]).toEqual([name, ["same"]]);
  });

  it("should `up` with nothing to do and nothing sent, then `refresh` from the live workloads", async () => {
    await ctl.resetCounters();
    const up = await s.up();
    expect(up.summary.resourceChanges).toEqual({ same: FIXTURE_RESOURCE_COUNT });
    expect((await ctl.counters()).requests.mutating).toBe(0);
    expect(up.outputs.phases.value).toEqual({
      vm: "Running",
      web: "Running",
      browser: "Running",
      controller: "Running",
      db: "Running",
      generic: "Running",
    });
    // The inputs take the one-line provider; unchanged resources keep the outputs the release
    // recorded, its `__provider` included: the refresh and destroy below run that text, which
    // loads this package by name.
    const web = resourcesOf(await s.stack.exportStack()).find((r) => r.urn.endsWith("wws:Pod::web"));
    expect(web?.inputs?.__provider).toBe(PROVIDER_TEXT.workload);
    expect(web?.outputs?.__provider).toEqual(release.provider);

    const refresh = await s.refresh();
    expect(refresh.summary.result).toBe("succeeded");
    expect(refresh.summary.resourceChanges?.delete ?? 0).toBe(0);
    expect((await s.preview()).changeSummary).toEqual({ same: FIXTURE_RESOURCE_COUNT });
  });

  it("should `destroy` every workload and the template", async () => {
    const destroy = await s.destroy();
    expect(destroy.summary.resourceChanges).toEqual({ delete: FIXTURE_RESOURCE_COUNT });
    expect((await client.getSpec()).workloads).toEqual([]);
    expect(await client.listTemplates()).toEqual([]);
  });
});

describe("the state of a Pod", () => {
  it("should take at most 3,000 bytes in `pulumi stack export`, 4,000 fewer than with 0.1.0", async () => {
    const podNamed = (deployment: unknown, name: string): StateResource =>
      resourcesOf(deployment).find((r) => r.urn.endsWith(`wws:Pod::${name}`)) as StateResource;
    const s = await newStack({
      program: async () => {
        // The fixture's Pod, in a Workspace, and the benchmark's (`npm run bench`), connected through the stack config.
        new wws.Pod("web", {
          workspace: new wws.Workspace("ws", { name: FIXTURE_WORKSPACE }),
          image: "nginx:1.27",
          cpu: "250m",
          memory: "256Mi",
          ports: [{ name: "http", port: 80 }],
        });
        new wws.Pod("pod-0", { image: "nginx:1.27", readyTimeoutSeconds: 120 });
      },
      config: {
        "wws:baseUrl": { value: svc.url },
        "wws:workspace": { value: FIXTURE_WORKSPACE },
        "wws:apiKey": { value: apiKey, secret: true },
      },
      secrets: [apiKey],
    });
    try {
      await s.up();
      const state = await s.stack.exportStack();
      const [web010, web, bench] = [
        podNamed(JSON.parse(fixtureText), "web"),
        podNamed(state, "web"),
        podNamed(state, "pod-0"),
      ];
      const bytes = { web: { v010: exportBytes(web010), now: exportBytes(web) }, bench: exportBytes(bench) };
      const nested = {
        web: { v010: exportBytes(web010, true), now: exportBytes(web, true) },
        bench: exportBytes(bench, true),
      };
      console.log(
        `bytes per Pod in pulumi stack export: ${JSON.stringify(bytes)}; nested in the file: ${JSON.stringify(nested)}`,
      );
      expect(bytes.bench).toBeLessThanOrEqual(3_000);
      expect(bytes.web.v010 - bytes.web.now).toBeGreaterThan(4_000);
      await s.destroy();
    } finally {
      s.cleanup();
    }
  });
});
