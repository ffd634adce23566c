/**
 * README "Portals": an Automation API inline program run from a directory without `node_modules`
 * (`cd /tmp/… && node /elsewhere/portal.js`, as a systemd unit with WorkingDirectory=/ runs it),
 * through the real `pulumi` CLI. The README's block runs as written: `up`, a `preview` with no
 * changes and `destroy`, its progress on the resource's URN with no empty event. Without its one
 * setting (`main`), the same portal fails from there as platform teams saw it fail.
 */
import { spawn } from "node:child_process";
import { randomBytes } from "node:crypto";
import * as fs from "node:fs";
import * as os from "node:os";
import * as path from "node:path";
import type { RunningService } from "../../server";
import { startTestService } from "../support/service";
import { ROOT, ensureBuilt, pulumiBinDir } from "./harness";

jest.setTimeout(4 * 60_000);
const RUN_TIMEOUT_MS = 150_000;
const KEY = `portal-key-${randomBytes(8).toString("hex")}`;

let service: RunningService;
let tmp: string;

beforeAll(async () => {
  ensureBuilt();
  service = await startTestService({ keys: { portal: KEY }, controlToken: "portal-control", reconcileMs: 50 });
  tmp = fs.mkdtempSync(path.join(os.tmpdir(), "wws-portal-"));
});

afterAll(async () => {
  await service?.close();
  if (tmp) fs.rmSync(tmp, { recursive: true, force: true });
});

/** The README's portal, its one setting optionally left out. */
function readmePortal(): string {
  const readme = fs.readFileSync(path.join(ROOT, "README.md"), "utf8");
  const section = readme.slice(readme.indexOf("## Portals"), readme.indexOf("## API"));
  const block = /```js\n([\s\S]*?)```/.exec(section);
  if (!block) throw new Error("README.md: no js block in the Portals section");
  return block[1];
}

/** `<tmp>/<name>/portal.js` beside a `node_modules` holding the package and `@pulumi/pulumi`, as `npm install` leaves them. */
function installPortal(name: string, source: string): string {
  const dir = path.join(tmp, name);
  fs.mkdirSync(path.join(dir, "node_modules"), { recursive: true });
  fs.symlinkSync(ROOT, path.join(dir, "node_modules/pulumi-wws"), "dir");
  fs.symlinkSync(path.join(ROOT, "node_modules/@pulumi"), path.join(dir, "node_modules/@pulumi"), "dir");
  fs.writeFileSync(path.join(dir, "portal.js"), source);
  return path.join(dir, "portal.js");
}

/** An empty directory with no `node_modules` in it or above it: nothing resolves from there. */
function bareDirectory(name: string): string {
  const dir = path.join(tmp, name);
  fs.mkdirSync(dir);
  for (let d = dir; ; d = path.dirname(d)) {
    expect([d, fs.existsSync(path.join(d, "node_modules"))]).toEqual([d, false]);
    if (path.dirname(d) === d) break;
  }
  return dir;
}

/** `node <portal>` from `cwd`, with a backend of its own; bounded in time. */
function runPortal(portal: string, cwd: string): Promise<{ code: number | null; output: string }> {
  const backend = fs.mkdtempSync(path.join(tmp, "backend-"));
  const env = {
    ...process.env,
    PATH: [pulumiBinDir(), path.dirname(process.execPath), process.env.PATH].join(path.delimiter),
    PULUMI_BACKEND_URL: `file://${backend}`,
    PULUMI_CONFIG_PASSPHRASE: randomBytes(12).toString("hex"),
    PULUMI_SKIP_UPDATE_CHECK: "true",
    PULUMI_DISABLE_AUTOMATIC_PLUGIN_ACQUISITION: "true",
    WWS_BASE_URL: service.url,
    WWS_WORKSPACE: "portal",
    WWS_API_KEY: KEY,
  };
  return new Promise((resolve) => {
    const child = spawn(process.execPath, [portal], { cwd, env, stdio: ["ignore", "pipe", "pipe"] });
    let output = "";
    child.stdout.on("data", (d) => (output += d));
    child.stderr.on("data", (d) => (output += d));
    const timer = setTimeout(() => child.kill("SIGKILL"), RUN_TIMEOUT_MS);
    child.on("exit", (code) => {
      clearTimeout(timer);
      resolve({ code, output });
    });
  });
}

it("should run the README's portal from a directory without node_modules: up, preview with no changes, destroy", async () => {
  const run = await runPortal(installPortal("portal", readmePortal()), bareDirectory("run"));
  console.log(`the README's portal, run from a directory without node_modules:\n${run.output}`);
  expect(run.code).toBe(0);
  const lines = run.output.trim().split("\n");
  expect(lines).toEqual(
    expect.arrayContaining([
      expect.stringMatching(/^web: waiting to be ready: \w+, \d+ s of 10 m$/),
      expect.stringMatching(/^web: ready after \d+ s$/),
      expect.stringMatching(/^up: succeeded, endpoint web\.portal\.workloads\.localhost:80$/),
      'preview: {"same":2}',
      expect.stringMatching(/: (wws: pod web in workspace portal: )?gone after \d+ s$/),
      "destroy: succeeded",
    ]),
  );
  // Every progress event says something: nothing for a portal to filter out.
  expect(lines.filter((l) => /^(web|stack): ?$/.test(l))).toEqual([]);
});

it("should fail from there without the setting, as it did for platform teams", async () => {
  const source = readmePortal().replace(/ \{ projectSettings: [^\n]*\}, \/\/ the one setting/, " {},");
  expect(source).not.toContain("projectSettings");
  const run = await runPortal(installPortal("portal-without-main", source), bareDirectory("run-without-main"));
  expect(run.code).not.toBe(0);
  expect(run.output).toContain("Cannot find module '@pulumi/pulumi/cmd/dynamic-provider'");
});
