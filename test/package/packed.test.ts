/**
 * The package as a team installs it: `npm pack` of this checkout, the tarball and
 * `@pulumi/pulumi` installed by npm into a fresh project outside the checkout, the local service
 * started with the package's own `wws-local` command, and the real `pulumi` CLI running
 * `up`, `preview` (no changes), `refresh` and `destroy` of a stack that uses every resource; then
 * examples/testing's test (`node --test`, `pulumi-wws/testing`) in the same install.
 */
import { execFile, execFileSync, spawn, type ChildProcessWithoutNullStreams } from "node:child_process";
import { randomBytes } from "node:crypto";
import * as fs from "node:fs";
import * as os from "node:os";
import * as path from "node:path";
import { promisify } from "node:util";
import { LocalWorkspace } from "@pulumi/pulumi/automation";
import { WorkspaceClient } from "../../sdk";
import { PULUMI_VERSION, ROOT, pulumiBinDir, pulumiCommand, until } from "../e2e/harness";
import { buildIfStale } from "./build";

jest.setTimeout(300_000);

const execFileAsync = promisify(execFile);
const npm = (args: string[], cwd: string) =>
  execFileAsync("npm", [...args, "--no-audit", "--no-fund", "--loglevel=error"], {
    cwd,
    env: { ...process.env, PATH: `${path.dirname(process.execPath)}${path.delimiter}${process.env.PATH}` },
    maxBuffer: 16 * 1024 * 1024,
  });

let tmp: string;
let tarball: string;
let app: string;
let service: ChildProcessWithoutNullStreams | undefined;
let serviceExit: Promise<number | null>;
let baseUrl: string;
const workspace = "team";
const apiKey = `packed-key-${randomBytes(12).toString("hex")}`;

beforeAll(async () => {
  buildIfStale();
  tmp = fs.mkdtempSync(path.join(os.tmpdir(), "wws-packed-"));
  app = path.join(tmp, "app");
  fs.mkdirSync(app);
  const packed = await npm(["pack", "--ignore-scripts", "--json", "--pack-destination", tmp], ROOT);
  tarball = path.join(tmp, (JSON.parse(packed.stdout) as Array<{ filename: string }>)[0].filename);
  fs.writeFileSync(
    path.join(app, "package.json"),
    JSON.stringify({ name: "a-team-stack", private: true, main: "index.js" }),
  );
  await npm(["install", "--prefer-offline", "--ignore-scripts", tarball, `@pulumi/pulumi@${PULUMI_VERSION}`], app);
});

afterAll(async () => {
  if (service && service.exitCode === null) {
    service.kill("SIGKILL");
    await serviceExit;
  }
  if (tmp) fs.rmSync(tmp, { recursive: true, force: true });
});

it("should ship the built package, its two commands and no sources or tests", () => {
  const pkg = path.join(app, "node_modules/pulumi-wws");
  expect(fs.realpathSync(pkg).startsWith(fs.realpathSync(app))).toBe(true); // a copy, not a link into the checkout
  for (const f of [
    "dist/index.js",
    "dist/index.d.ts",
    "dist/testing/index.js",
    "dist/watch/index.js",
    "dist/cli/main.js",
    "dist/server/cli.js",
    "openapi/openapi.json",
  ])
    expect([f, fs.existsSync(path.join(pkg, f))]).toEqual([f, true]);
  for (const f of ["test", "provider/index.ts", "sdk", "dist/bench", "index.ts"])
    expect([f, fs.existsSync(path.join(pkg, f))]).toEqual([f, false]);
  const help = execFileSync(path.join(app, "node_modules/.bin/wws-local"), ["--help"], { encoding: "utf8" });
  expect(help).toContain("Usage: wws-local [options]");
  expect(help).toContain("--reconcile-ms MS");
  const importHelp = execFileSync(path.join(app, "node_modules/.bin/pulumi-wws"), ["import", "--help"], {
    encoding: "utf8",
  });
  expect(importHelp).toContain("Usage: pulumi-wws import --workspace NAME --out DIR");
  const recoverHelp = execFileSync(path.join(app, "node_modules/.bin/pulumi-wws"), ["recover", "--help"], {
    encoding: "utf8",
  });
  expect(recoverHelp).toContain("Usage: pulumi-wws recover [--yes] [--stack NAME] [--clear-unproven]");
});

it("should ship the reference docs and examples, every relative link resolving inside the package", () => {
  const pkg = path.join(app, "node_modules/pulumi-wws");
  const markdown = (dir: string): string[] =>
    fs.readdirSync(dir, { withFileTypes: true }).flatMap((e) => {
      const p = path.join(dir, e.name);
      if (e.isDirectory()) return e.name === "node_modules" ? [] : markdown(p);
      return e.name.endsWith(".md") ? [p] : [];
    });
  const files = markdown(pkg);
  for (const f of ["README.md", "provider/README.md", "server/README.md", "examples/README.md", "docs/performance.md"])
    expect(files).toContain(path.join(pkg, f));
  const links = files.flatMap((file) =>
    [...fs.readFileSync(file, "utf8").matchAll(/\]\(([^)\s]+)\)/g)]
      .map((m) => m[1])
      .filter((target) => !/^([a-z]+:|#)/.test(target))
      .map((target) => ({ file: path.relative(pkg, file), target })),
  );
  expect(links.length).toBeGreaterThan(15);
  const dead = links.filter(({ file, target }) => {
    const resolved = path.resolve(pkg, path.dirname(file), decodeURI(target.split("#")[0]));
    return !resolved.startsWith(pkg + path.sep) || !fs.existsSync(resolved);
  });
  expect(dead).toEqual([]);

  // Each resource class's doc comment, as an editor shows it from the shipped typings, points at a
  // section of the shipped provider/README.md that exists.
  const anchors = new Set(
    [...fs.readFileSync(path.join(pkg, "provider/README.md"), "utf8").matchAll(/^#{2,3} (.+)$/gm)].map((m) =>
      m[1]
        .toLowerCase()
        .replace(/[^a-z0-9 -]/g, "")
        .replace(/ /g, "-"),
    ),
  );
  const typings = path.join(pkg, "dist/provider/resources");
  const sees = fs
    .readdirSync(typings)
    .filter((f) => f.endsWith(".d.ts"))
    .flatMap((f) =>
      [
        ...fs
          .readFileSync(path.join(typings, f), "utf8")
          .matchAll(/@see pulumi-wws\/provider\/README\.md#([a-z0-9-]+)/g),
      ].map((m) => ({ file: f, anchor: m[1] })),
    );
  expect(new Set(sees.map((s) => s.file)).size).toBeGreaterThanOrEqual(8);
  expect(sees.filter((s) => !anchors.has(s.anchor))).toEqual([]);
});

it("should run up, preview, refresh and destroy of every resource against `wws-local`", async () => {
  service = spawn(
    path.join(app, "node_modules/.bin/wws-local"),
    ["--port", "0", "--reconcile-ms", "20", "--key", `${workspace}=${apiKey}`, "--quiet"],
    { cwd: app },
  );
  serviceExit = new Promise((resolve) => service?.on("exit", (code) => resolve(code)));
  let out = "";
  service.stdout.on("data", (d) => (out += d));
  baseUrl = await until(
    "wws-local to print its listening line",
    async () => out.match(/listening on (http:\/\/127\.0\.0\.1:\d+)/)?.[1],
  );

  fs.copyFileSync(path.join(__dirname, "every-resource.js"), path.join(app, "index.js"));
  fs.writeFileSync(
    path.join(app, "Pulumi.yaml"),
    "name: a-team-stack\nruntime:\n  name: nodejs\n  options:\n    typescript: false\n",
  );
  const backend = path.join(tmp, "backend");
  fs.mkdirSync(backend);
  const envVars = {
    PULUMI_BACKEND_URL: `file://${backend}`,
    PULUMI_CONFIG_PASSPHRASE: randomBytes(12).toString("hex"),
    PULUMI_SKIP_UPDATE_CHECK: "true",
    PULUMI_DISABLE_AUTOMATIC_PLUGIN_ACQUISITION: "true",
    PATH: [pulumiBinDir(), path.dirname(process.execPath), process.env.PATH].join(path.delimiter),
  };
  const stack = await LocalWorkspace.createOrSelectStack(
    { stackName: "ci", workDir: app },
    { pulumiCommand: await pulumiCommand(), envVars },
  );
  await stack.setAllConfig({
    "wws:baseUrl": { value: baseUrl },
    "wws:workspace": { value: workspace },
    "wws:apiKey": { value: apiKey, secret: true },
    "a-team-stack:vmPassword": { value: `Vm-${randomBytes(8).toString("hex")}`, secret: true },
    "a-team-stack:dbPassword": { value: `Db-${randomBytes(8).toString("hex")}`, secret: true },
  });
  const client = new WorkspaceClient({ baseUrl, workspace, apiKey });
  try {
    const up = await stack.up();
    expect(up.summary.result).toBe("succeeded");
    expect(up.outputs.vmPhase.value).toBe("Running");
    expect(up.outputs.webStatus.value).toBe("Running");
    expect(up.outputs.region.value).toBe("eu-central");
    expect(up.outputs.dbConnectionUri.value).toBe(
      `postgresql://app@db.${workspace}.workloads.localhost:5432/postgres?sslmode=require`,
    );
    expect((await client.getSpec()).workloads.map((w) => `${w.id}:${w.type}`).sort()).toEqual([
      "browser:browser",
      "cache:storage",
      "controller:controller",
      "db:storage",
      "vm:vm-ubuntu",
      "web:pod",
    ]);
    expect((await client.listTemplates()).map((t) => t.id)).toEqual([up.outputs.templateId.value]);

    const preview = await stack.preview();
    expect(Object.keys(preview.changeSummary)).toEqual(["same"]);
    const refresh = await stack.refresh();
    expect(refresh.summary.result).toBe("succeeded");
    expect(Object.keys(refresh.summary.resourceChanges ?? {})).toEqual(["same"]);
    const destroy = await stack.destroy();
    expect(destroy.summary.result).toBe("succeeded");
    expect((await client.getSpec()).workloads).toEqual([]);
    expect(await client.listTemplates()).toEqual([]);
  } finally {
    await client.close();
  }

  // SIGTERM: the command closes the service and exits 0.
  service.kill("SIGTERM");
  expect(await serviceExit).toBe(0);
  expect(out).toContain("SIGTERM, closing");
});

it("should pass examples/testing's own test (pulumi-wws/testing, node --test) in the installed project", async () => {
  const dir = path.join(app, "testing-example");
  fs.mkdirSync(dir);
  for (const f of ["Pulumi.yaml", "index.js", "stack.test.js"])
    fs.copyFileSync(path.join(ROOT, "examples/testing", f), path.join(dir, f));
  const r = await execFileAsync(process.execPath, ["--test", "stack.test.js"], {
    cwd: dir,
    env: {
      ...process.env,
      PATH: [pulumiBinDir(), path.dirname(process.execPath), process.env.PATH].join(path.delimiter),
      PULUMI_SKIP_UPDATE_CHECK: "true",
    },
  }).catch((err: { stdout?: string; stderr?: string }) => {
    throw new Error(`node --test failed:\n${err.stdout}\n${err.stderr}`);
  });
  expect(r.stdout).toMatch(/# pass 2\n/);
  expect(r.stdout).toMatch(/# fail 0\n/);
});

/** The README's "Your first stack": its files and its three shell blocks, in order. */
function firstStack(): { setup: string; files: Map<string, string>; service: string; commands: string[] } {
  const readme = fs.readFileSync(path.join(ROOT, "README.md"), "utf8");
  const start = readme.indexOf("\n## Your first stack\n");
  const section = readme.slice(start, readme.indexOf("\n## ", start + 1));
  const blocks = [...section.matchAll(/([^\n]*)\n\n```(\w+)\n([\s\S]*?)```/g)].map((m) => ({
    before: m[1],
    lang: m[2],
    text: m[3],
  }));
  const shell = blocks.filter((b) => b.lang === "sh").map((b) => b.text);
  const files = new Map(
    blocks.flatMap((b) => {
      const name = /^Write `([^`]+)`:$/.exec(b.before)?.[1];
      return name ? [[name, b.text] as [string, string]] : [];
    }),
  );
  expect([shell.length, [...files.keys()]]).toEqual([3, ["Pulumi.yaml", "index.js"]]);
  const commands = shell[2]
    .split("\n")
    .map((line) => line.replace(/\s+#.*$/, "").trim())
    .filter((line) => line !== "");
  return { setup: shell[0], files, service: shell[1].trim(), commands };
}

/** A step of the README's "Next steps", in its order: a file to write, an edit, shell commands, output to expect. */
type Step =
  | { kind: "file"; name: string; text: string }
  | { kind: "edit"; file: string; from: string; to: string }
  | { kind: "sh"; commands: string[] }
  | { kind: "shows"; lines: string[] };

/** The README's "Next steps", as steps: each block, after what the sentence before it says to do. */
function nextSteps(): Step[] {
  const readme = fs.readFileSync(path.join(ROOT, "README.md"), "utf8");
  const start = readme.indexOf("\n## Next steps\n");
  const section = readme.slice(start, readme.indexOf("\n## ", start + 1));
  return [...section.matchAll(/([^\n]*)\n\n```(\w+)\n([\s\S]*?)```/g)].flatMap(([, before, lang, text]): Step[] => {
    const file = /^Write `([^`]+)`/.exec(before)?.[1];
    if (file) return [{ kind: "file", name: file, text }];
    if (lang === "text") return [{ kind: "shows", lines: text.split("\n").filter((l) => l.trim() !== "") }];
    const edit = /^In `([^`]+)`, change `([^`]+)` to `([^`]+)`/.exec(before);
    const sh: Step = { kind: "sh", commands: text.split("\n").filter((l) => l.trim() !== "") };
    return edit ? [{ kind: "edit", file: edit[1], from: edit[2], to: edit[3] }, sh] : [sh];
  });
}

it("should take a new repository through the README's first stack and next steps, as written, from the packed package", async () => {
  const started = Date.now();
  const { setup, files, service: serviceCommand, commands } = firstStack();
  const root = path.join(tmp, "first-stack");
  const home = path.join(tmp, "first-home");
  fs.mkdirSync(root);
  fs.mkdirSync(home);
  const env = {
    ...process.env,
    HOME: home,
    PULUMI_HOME: path.join(home, ".pulumi"),
    PULUMI_SKIP_UPDATE_CHECK: "true",
    PATH: [path.dirname(process.execPath), pulumiBinDir(), process.env.PATH].join(path.delimiter),
  };
  // The one departure from the text: the package comes from this checkout's tarball, and
  // @pulumi/pulumi at the version the CLI here is.
  const install = "npm install pulumi-wws @pulumi/pulumi";
  expect(setup).toContain(install);
  const fromTarball = setup.replace(
    install,
    `npm install --prefer-offline --no-audit --no-fund ${tarball} @pulumi/pulumi@${PULUMI_VERSION}`,
  );
  await execFileAsync("bash", ["-e", "-c", fromTarball], { cwd: root, env });
  const dir = path.join(root, "hello-wws");
  for (const [name, text] of files) fs.writeFileSync(path.join(dir, name), text);

  // Its own process group: `npx` starts the service as a child of its own, which a signal to npx
  // alone would leave running (holding jest's pipes open), so the whole group is signalled.
  const local = spawn("bash", ["-c", `exec ${serviceCommand}`], { cwd: dir, env, detached: true });
  const signalGroup = (signal: NodeJS.Signals): void => {
    try {
      process.kill(-(local.pid as number), signal);
    } catch {
      // already gone
    }
  };
  try {
    let printed = "";
    local.stdout.on("data", (d: Buffer) => (printed += d.toString()));
    const port = await until(
      "the service's address",
      async () => /listening on http:\/\/127\.0\.0\.1:(\d+)/.exec(printed)?.[1],
    );
    // Each command as written (`<port>` filled in), in one shell, its output after a marker line.
    const script = commands.map((c, i) => `echo "::step ${i}"\n${c.replace("<port>", port)}`).join("\n");
    const run = await execFileAsync("bash", ["-e", "-c", script], { cwd: dir, env, maxBuffer: 16 * 1024 * 1024 }).catch(
      (err: { stdout?: string; stderr?: string }) => {
        throw new Error(`the README's commands failed:\n${err.stdout}\n${err.stderr}`);
      },
    );
    const outputs = run.stdout.split(/^::step \d+\n/m).slice(1);
    const outputOf = (prefix: string): string => outputs[commands.findIndex((c) => c.startsWith(prefix))];
    expect(outputs).toHaveLength(commands.length);
    expect(outputOf("pulumi up")).toMatch(/\+ 2 created/);
    expect(outputOf("pulumi stack output endpoint").trim()).toBe("web.team.workloads.localhost:80");
    expect(outputOf("pulumi preview")).toMatch(/2 unchanged/);
    expect(outputOf("pulumi destroy")).toMatch(/- 2 deleted/);
    console.log(
      `README first stack: ${commands.length} commands after the setup, ${((Date.now() - started) / 1000).toFixed(1)} s from an empty directory`,
    );

    // "Next steps", in the same directory and shell: the first stack's exports, then each command.
    const shell = commands.filter((c) => c.startsWith("export ")).join("\n");
    let lastPreview = "";
    let ran = 0;
    for (const step of nextSteps()) {
      if (step.kind === "file") fs.writeFileSync(path.join(dir, step.name), step.text);
      if (step.kind === "edit") {
        const text = fs.readFileSync(path.join(dir, step.file), "utf8");
        expect(text.split(step.from)).toHaveLength(2); // the text to change is there, once
        fs.writeFileSync(path.join(dir, step.file), text.replace(step.from, step.to));
      }
      if (step.kind === "shows") {
        for (const line of step.lines) expect(lastPreview).toContain(line.trim());
        // A refusal the README shows is said once on its row and once under Diagnostics, nothing more.
        if (step.lines.length === 1) expect(lastPreview.split(step.lines[0].trim())).toHaveLength(3);
      }
      if (step.kind !== "sh") continue;
      for (const line of step.commands) {
        const [command, comment = ""] = line.split(/\s+# /);
        const run = await execFileAsync("bash", ["-c", `${shell}\n${command}`], {
          cwd: dir,
          env,
          maxBuffer: 16 * 1024 * 1024,
        })
          .then((r) => ({ code: 0, out: `${r.stdout}${r.stderr}` }))
          .catch((err: { code?: number; stdout?: string; stderr?: string }) => ({
            code: err.code ?? -1,
            out: `${err.stdout}${err.stderr}`,
          }));
        ran++;
        // A command the README says fails must fail, and only that one.
        expect({ command, code: run.code !== 0 }).toEqual({ command, code: comment.startsWith("fails") });
        if (command.startsWith("pulumi preview")) lastPreview = run.out;
        if (command.startsWith("pulumi stack output")) expect(run.out.trim()).toBe(comment.trim());
        if (command.startsWith("pulumi up")) expect(run.out).toMatch(/Resources:\n[\s\S]*(created|updated)/);
        if (command.startsWith("pulumi destroy")) expect(run.out).toMatch(/- 5 deleted/);
      }
    }
    expect(ran).toBeGreaterThanOrEqual(8);
    console.log(`README next steps: ${ran} commands, ${((Date.now() - started) / 1000).toFixed(1)} s from the start`);
  } finally {
    const exited = new Promise((resolve) => local.once("exit", resolve));
    signalGroup("SIGTERM");
    const timer = setTimeout(() => signalGroup("SIGKILL"), 5000);
    await exited;
    clearTimeout(timer);
    signalGroup("SIGKILL"); // whatever of the group outlived npx
  }
});
