/**
 * Pulumi's own ways to keep, adopt and rename, through the real `pulumi` CLI against the real
 * local service, one stack walked through them: `ignoreChanges` on credentials (a new password
 * previews and applies with nothing sent), the `import` resource option (a live workload joins with
 * nothing sent, and previews clean with or without the option), a rename with `aliases` and
 * `pulumi state rename` (the workload stays: an unset id follows the state), and
 * `refresh --run-program` (no change shown where there is none). What the service received is
 * counted: mutating requests, generations, and the workspace's audit rows. (`pulumi import --file`
 * of `pulumi-wws import`'s file: test/cli/import.test.ts.)
 */
import { execFile } from "node:child_process";
import type { Stack } from "@pulumi/pulumi/automation";
import { password, serviceForFile, until } from "./harness";
import { errorLines, fileProgramStack, runOp, type OpOutcome } from "../reliability/cli-helpers";

jest.setTimeout(8 * 60_000);
const OP_TIMEOUT_MS = 120_000;

const service = serviceForFile({ reconcileMs: 20 });

const said = (o: OpOutcome): string => errorLines(o, 20).join("\n");
const mutating = async (): Promise<number> => (await service.ctl.counters()).requests.mutating;

async function ok(stack: Stack, kind: "up" | "preview"): Promise<OpOutcome> {
  const o = await runOp(stack, kind, OP_TIMEOUT_MS);
  expect({ ok: o.ok, error: said(o) }).toEqual({ ok: true, error: "" });
  return o;
}

/** The run's summary counts only unchanged resources: no row created, updated, replaced or deleted. */
function expectNoChanges(o: OpOutcome, resources: number): void {
  expect(o.stdout).toMatch(new RegExp(`Resources:\\s+${resources} unchanged\\s*(Duration|$)`));
  expect(o.stdout).not.toMatch(/^\s+[+~-] |\+-/m);
}

/** `pulumi <args>` in the stack's project, as a user types it. */
function pulumi(stack: Stack, args: string[]): Promise<{ code: number; out: string }> {
  const { workDir, envVars } = stack.workspace;
  return new Promise((resolve) => {
    execFile(
      "pulumi",
      [...args, "--stack", "local", "--non-interactive"],
      { cwd: workDir, env: { ...process.env, ...envVars }, timeout: OP_TIMEOUT_MS },
      (err, stdout, stderr) => resolve({ code: err ? 1 : 0, out: `${stdout}\n${stderr}` }),
    );
  });
}

const program = (body: string): string =>
  `const pulumi = require("@pulumi/pulumi");\nconst wws = require("pulumi-wws");\nconst cfg = new pulumi.Config();\n${body}`;
const DB =
  `new wws.Database("db", { engine: "postgres", credentials: { password: cfg.requireSecret("dbPassword") } }, ` +
  `{ ignoreChanges: ["credentials"] });\n`;
const VM =
  `new wws.VirtualMachine("vm", { os: "ubuntu", cpus: 1, credentials: { password: cfg.requireSecret("vmPassword") } }, ` +
  `{ ignoreChanges: ["credentials.password"] });\n`;
const pod = (name: string, args = "", opts = "{}") =>
  `new wws.Pod(${JSON.stringify(name)}, { image: "nginx:1.27"${args} }, ${opts});\n`;
const legacy = (image: string, opts = "{}") => `new wws.Pod("legacy", { image: "${image}" }, ${opts});\n`;

describe("ignoreChanges, import, aliases and state rename through pulumi", () => {
  it("should keep, import and rename workloads as Pulumi documents, sending nothing, and refresh --run-program without phantom changes", async () => {
    const ws = service.workspace();
    const client = service.client(ws.name);
    const s = service.keep(await fileProgramStack("wws-import-rename"));
    await s.stack.setAllConfig({
      "wws:baseUrl": { value: service.url },
      "wws:workspace": { value: ws.name },
      "wws:apiKey": { value: ws.apiKey, secret: true },
      "wws-import-rename:dbPassword": { value: password("db"), secret: true },
      "wws-import-rename:vmPassword": { value: password("vm"), secret: true },
    });
    s.setProgram(program(DB + VM + pod("web")));
    await ok(s.stack, "up");
    await client.upsertWorkload("pod", { id: "legacy", image: "busybox:1.36" }); // made outside Pulumi
    await until("legacy runs", async () => (await client.getStatus("legacy")).phase === "Running");
    const ids = ["db", "vm", "web", "legacy"];
    const generations = async () =>
      Object.fromEntries(await Promise.all(ids.map(async (id) => [id, (await client.getStatus(id)).generation])));
    const sentNothing = { mutating: await mutating(), generations: await generations() };
    const lastRow = Number((await client.listActivity({ limit: 1 })).at(-1)?.id ?? 0);

    // 1. ignoreChanges on credentials: previews pass with the password as it was, then changed; up sends nothing.
    expectNoChanges(await ok(s.stack, "preview"), 4);
    await s.stack.setConfig("wws-import-rename:dbPassword", { value: password("db2"), secret: true });
    await s.stack.setConfig("wws-import-rename:vmPassword", { value: password("vm2"), secret: true });
    expectNoChanges(await ok(s.stack, "preview"), 4);
    expectNoChanges(await ok(s.stack, "up"), 4);

    // 2. The import option: refused at preview when the workload runs another spec (Pulumi's rule:
    // an import takes it as it is); otherwise it joins the stack with nothing sent, and the
    // preview is clean with the option and without it, as Pulumi's docs tell users to remove it.
    const importing = `{ import: "${ws.name}/legacy" }`;
    s.setProgram(program(DB + VM + pod("web") + legacy("busybox:1.37", importing)));
    const differs = await runOp(s.stack, "preview", OP_TIMEOUT_MS);
    expect(said(differs)).toMatch(
      /the import resource option takes pod legacy of workspace \S+ as it runs, and it runs another spec than this declaration \(it differs in image\)/,
    );
    s.setProgram(program(DB + VM + pod("web") + legacy("busybox:1.36", importing)));
    const imported = await ok(s.stack, "up");
    expect(imported.stdout).toMatch(/Resources:\s+\+ 1 created\s+4 unchanged/);
    expectNoChanges(await ok(s.stack, "preview"), 5);
    s.setProgram(program(DB + VM + pod("web") + legacy("busybox:1.36")));
    expectNoChanges(await ok(s.stack, "preview"), 5);

    // 3. A rename with aliases keeps the workload (its unset id follows the state); so does `pulumi state rename`.
    const rest = DB + VM + legacy("busybox:1.36");
    s.setProgram(program(rest + pod("frontend", "", '{ aliases: [{ name: "web" }] }')));
    expectNoChanges(await ok(s.stack, "up"), 5);
    const resource = async (name: string) =>
      ((await s.stack.exportStack()).deployment.resources as Array<{ urn: string; id?: string }>).find((r) =>
        r.urn.endsWith(`::${name}`),
      );
    expect((await resource("frontend"))?.id).toBe(`${ws.name}/web`);
    const renamed = await pulumi(s.stack, [
      "state",
      "rename",
      String((await resource("frontend"))?.urn),
      "site",
      "--yes",
    ]);
    expect(renamed).toMatchObject({ code: 0 });
    s.setProgram(program(rest + pod("site")));
    expectNoChanges(await ok(s.stack, "up"), 5);
    expect((await resource("site"))?.id).toBe(`${ws.name}/web`);

    // 4. `refresh --run-program`: no change on any row, as its summary says; twice, the second
    // against the inputs the first recorded. The renamed pod pins its id (the docs' way): a program
    // knows only its resource name, which its row would show beside the id the state keeps.
    s.setProgram(program(rest + pod("site", ', workloadId: "web"')));
    expectNoChanges(await ok(s.stack, "preview"), 5);
    for (let i = 0; i < 2; i++) {
      const refreshed = await pulumi(s.stack, ["refresh", "--run-program", "--yes"]);
      expect(refreshed).toMatchObject({ code: 0, out: expect.stringMatching(/Resources:\s+5 unchanged/) });
      expect(refreshed.out).not.toMatch(/\[diff:/);
    }

    // Nothing reached the service but reads: no mutating request, no new generation, no audit row of a change.
    expect({ mutating: await mutating(), generations: await generations() }).toEqual(sentNothing);
    const changes = (rows: Array<{ action?: string }>) =>
      rows.filter((r) => /^workload\.(created|updated|restarted|deleted)$/.test(String(r.action)));
    expect(changes(await client.listActivity({ limit: 1000 })).length).toBeGreaterThan(0); // the first up's creates
    expect(changes(await client.listActivity({ after: lastRow, limit: 1000 }))).toEqual([]);
  });
});
