/**
 * `pulumi-wws import` against a live workspace of 20 workloads and 3 templates, then the written
 * project through the real `pulumi` CLI (its language host, ts-node, as a user runs it): the first
 * `up` takes everything over without sending a single upsert, and the next `preview` shows no changes.
 */
import { execFile } from "node:child_process";
import { randomBytes } from "node:crypto";
import * as fs from "node:fs";
import * as os from "node:os";
import * as path from "node:path";
import { promisify } from "node:util";
import { LocalWorkspace, type Stack } from "@pulumi/pulumi/automation";
import { main } from "../../cli/main";
import { E2E_TIMEOUT_MS, pulumiBinDir, pulumiCommand, ROOT, serviceForFile } from "../e2e/harness";
import { DB_PASSWORDS, SEEDED_WORKLOADS, VM_PASSWORD, seedWorkspace } from "./seed-workspace";

jest.setTimeout(E2E_TIMEOUT_MS * 2);
const execFileAsync = promisify(execFile);

const service = serviceForFile();
let tmp: string;

beforeAll(() => {
  tmp = fs.mkdtempSync(path.join(os.tmpdir(), "wws-import-"));
});

afterAll(() => {
  if (tmp) fs.rmSync(tmp, { recursive: true, force: true });
});

async function runMain(argv: string[], env: NodeJS.ProcessEnv): Promise<{ code: number; out: string; err: string }> {
  let out = "";
  let err = "";
  const code = await main(argv, env, { out: (l) => (out += l + "\n"), err: (l) => (err += l + "\n") });
  return { code, out, err };
}

/** node_modules of the written project: this checkout as `pulumi-wws`, and the TypeScript toolchain its package.json lists. */
function linkDependencies(dir: string): void {
  fs.mkdirSync(path.join(dir, "node_modules"));
  fs.symlinkSync(ROOT, path.join(dir, "node_modules/pulumi-wws"), "dir");
  for (const dep of ["@pulumi", "@types", "typescript", "ts-node"])
    fs.symlinkSync(path.join(ROOT, "node_modules", dep), path.join(dir, "node_modules", dep), "dir");
}

it("should refuse to run without a workspace, or with the key as a flag, saying what to do", async () => {
  const r = await runMain(["import", "--out", path.join(tmp, "x")], {
    WWS_BASE_URL: "http://127.0.0.1:1",
    WWS_API_KEY: "k",
  });
  expect(r.code).toBe(2);
  expect(r.err).toContain("pass --workspace NAME or set WWS_WORKSPACE");
  const flag = await runMain(["import", "--workspace", "w", "--api-key", "k", "--out", path.join(tmp, "x")], {
    WWS_BASE_URL: "http://127.0.0.1:1",
  });
  expect(flag.code).toBe(2);
  expect(flag.err).toContain("--api-key: not a flag, so that the key stays out of shell history; set WWS_API_KEY");
});

it("should write a project that takes over 20 live workloads and 3 templates with no change", async () => {
  const ws = service.workspace();
  const client = service.client(ws.name);
  await seedWorkspace(client);
  const before = await client.getSpec();
  const generations = Object.fromEntries(
    await Promise.all(before.workloads.map(async (w) => [w.id, (await client.getStatus(w.id)).generation] as const)),
  );
  const templatesBefore = await client.listTemplates();

  const dir = path.join(tmp, "stack");
  const r = await runMain(["import", "--workspace", ws.name, "--base-url", service.url, "--out", dir], {
    WWS_API_KEY: ws.apiKey,
  });
  expect(r.err).toBe("");
  expect(r.code).toBe(0);
  expect(r.out).toContain(`${SEEDED_WORKLOADS} workloads, 3 templates of workspace ${ws.name}`);
  const written = fs.readdirSync(dir).sort();
  expect(written).toEqual([
    ".gitignore",
    "Pulumi.yaml",
    "README.md",
    "import.json",
    "index.ts",
    "package.json",
    "tsconfig.json",
  ]);
  for (const f of written) {
    const text = fs.readFileSync(path.join(dir, f), "utf8");
    for (const secret of [ws.apiKey, VM_PASSWORD, ...Object.values(DB_PASSWORDS)])
      expect([f, text.includes(secret)]).toEqual([f, false]);
  }

  linkDependencies(dir);
  const cmd = await pulumiCommand();
  const envVars = {
    PULUMI_BACKEND_URL: `file://${path.join(tmp, "backend")}`,
    PULUMI_CONFIG_PASSPHRASE: randomBytes(12).toString("hex"),
    PULUMI_SKIP_UPDATE_CHECK: "true",
    PULUMI_DISABLE_AUTOMATIC_PLUGIN_ACQUISITION: "true",
    PATH: [pulumiBinDir(), path.dirname(process.execPath), process.env.PATH].join(path.delimiter),
  };
  fs.mkdirSync(path.join(tmp, "backend"));
  const stack: Stack = await LocalWorkspace.createOrSelectStack(
    { stackName: "prod", workDir: dir },
    { pulumiCommand: cmd, envVars },
  );
  // The README's steps: the API key and each database's current password, as secrets.
  const config = {
    "wws:apiKey": { value: ws.apiKey, secret: true },
    ...Object.fromEntries(
      Object.entries(DB_PASSWORDS).map(([id, pw]) => [`password-${id}`, { value: pw, secret: true }]),
    ),
    "password-agent-vm": { value: VM_PASSWORD, secret: true }, // a VM with an AI daemon is declared with its login
  };
  await stack.setAllConfig(config);

  const up = await stack.up();
  expect(up.summary.result).toBe("succeeded");
  expect(up.summary.resourceChanges).toEqual({ create: SEEDED_WORKLOADS + 3 + 1 });

  // Taken over as they were: no upsert reached any workload, the templates are the same ones.
  const after = await client.getSpec();
  expect(after.workloads).toEqual(before.workloads);
  for (const w of after.workloads)
    expect([w.id, (await client.getStatus(w.id)).generation]).toEqual([w.id, generations[w.id]]);
  expect(await client.listTemplates()).toEqual(templatesBefore);

  const preview = await stack.preview({ diff: true });
  expect(preview.changeSummary).toEqual({ same: SEEDED_WORKLOADS + 3 + 1 });

  // Pulumi's own command takes the written import.json as it is, into a second stack: every
  // workload and template recorded with no request, but those declared with a login (the
  // databases, the AI-daemon VM), which the file leaves to index.ts's import option.
  const filed = await LocalWorkspace.createOrSelectStack(
    { stackName: "filed", workDir: dir },
    { pulumiCommand: cmd, envVars },
  );
  await filed.setAllConfig(config);
  const mutating = async () => (await service.ctl.counters()).requests.mutating;
  const quiet = await mutating();
  const logins = Object.keys(DB_PASSWORDS).length + 1;
  const imported = await execFileAsync(
    path.join(pulumiBinDir(), "pulumi"),
    ["import", "--file", "import.json", "--generate-code=false", "--yes", "--stack", "filed", "--non-interactive"],
    { cwd: dir, env: { ...process.env, ...envVars } },
  );
  expect(imported.stdout).toMatch(new RegExp(`= ${SEEDED_WORKLOADS + 3 - logins} imported`));
  expect(imported.stdout).not.toMatch(/warning|error/);
  expect((await filed.preview()).changeSummary).toEqual({ same: SEEDED_WORKLOADS + 3 + 1 - logins, create: logins });
  expect((await filed.up()).summary.resourceChanges).toEqual({
    same: SEEDED_WORKLOADS + 3 + 1 - logins,
    create: logins,
  });
  expect((await filed.preview({ diff: true })).changeSummary).toEqual({ same: SEEDED_WORKLOADS + 3 + 1 });
  expect(await mutating()).toBe(quiet);
  await filed.workspace.removeStack("filed", { force: true }); // its state only: the workloads stay

  // From here on the stack owns them: destroy empties the workspace.
  const destroy = await stack.destroy();
  expect(destroy.summary.result).toBe("succeeded");
  expect((await client.getSpec()).workloads).toEqual([]);
  expect(await client.listTemplates()).toEqual([]);
});
