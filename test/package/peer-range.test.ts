/**
 * The peer range of `@pulumi/pulumi`, told true: its floor is a published version, and the packed
 * package works at both ends of it. For the lowest version the range admits and for the newest,
 * each installed by npm from the registry with this checkout's tarball into a project of its own:
 * `pulumi up` and `destroy` of one pod through the real CLI against the local service. The install
 * prints no install-scripts notice for pulumi-wws (it builds in `prepack`, which installs never run).
 */
import { execFile } from "node:child_process";
import { randomBytes } from "node:crypto";
import * as fs from "node:fs";
import * as os from "node:os";
import * as path from "node:path";
import { promisify } from "node:util";
import { LocalWorkspace } from "@pulumi/pulumi/automation";
import { pulumiBinDir, pulumiCommand, ROOT, serviceForFile } from "../e2e/harness";
import { buildIfStale } from "./build";

jest.setTimeout(300_000);

const execFileAsync = promisify(execFile);
const npm = (args: string[], cwd: string) =>
  execFileAsync("npm", [...args, "--no-audit", "--no-fund"], {
    cwd,
    env: { ...process.env, PATH: `${path.dirname(process.execPath)}${path.delimiter}${process.env.PATH}` },
    maxBuffer: 16 * 1024 * 1024,
  });

const RANGE: string = JSON.parse(fs.readFileSync(path.join(ROOT, "package.json"), "utf8")).peerDependencies[
  "@pulumi/pulumi"
];
const FLOOR = /^>=(\d+\.\d+\.\d+) /.exec(RANGE)?.[1];

const byVersion = (a: string, b: string): number => {
  const [x, y] = [a, b].map((v) => v.split(".").map(Number));
  return x[0] - y[0] || x[1] - y[1] || x[2] - y[2];
};

/** Every published version the range admits, oldest first. */
async function publishedInRange(): Promise<string[]> {
  const { stdout } = await npm(["view", `@pulumi/pulumi@${RANGE}`, "version", "--json"], os.tmpdir());
  const parsed: unknown = JSON.parse(stdout);
  return (Array.isArray(parsed) ? (parsed as string[]) : [String(parsed)]).sort(byVersion);
}

const PROGRAM = `const wws = require("pulumi-wws");
const web = new wws.Pod("web", { image: "nginx:1.27", ports: [{ name: "http", port: 80 }] });
exports.phase = web.phase;
exports.sdkVersion = require("@pulumi/pulumi/package.json").version;
`;

const service = serviceForFile();
let tmp: string;
let tarball: string;
let ends: { lowest: string; newest: string };
/** Each end's project, installed once in `beforeAll` (both at once), with what npm printed. */
const installs = new Map<string, Promise<Installed>>();

interface Installed {
  dir: string;
  /** What npm printed on stderr: its warnings and notices. */
  stderr: string;
  ms: number;
}

async function install(version: string): Promise<Installed> {
  const started = Date.now();
  const dir = path.join(tmp, `app-${version}`);
  fs.mkdirSync(dir);
  fs.writeFileSync(path.join(dir, "package.json"), JSON.stringify({ name: "peer-smoke", private: true }));
  const { stderr } = await npm(
    ["install", "--prefer-offline", "--loglevel=warn", tarball, `@pulumi/pulumi@${version}`],
    dir,
  );
  return { dir, stderr, ms: Date.now() - started };
}

beforeAll(async () => {
  buildIfStale();
  tmp = fs.mkdtempSync(path.join(os.tmpdir(), "wws-peer-range-"));
  const packed = await npm(["pack", "--ignore-scripts", "--json", "--pack-destination", tmp], ROOT);
  tarball = path.join(tmp, (JSON.parse(packed.stdout) as Array<{ filename: string }>)[0].filename);
  const published = await publishedInRange();
  ends = { lowest: published[0], newest: published[published.length - 1] };
  for (const v of new Set(Object.values(ends))) {
    const p = install(v);
    p.catch(() => undefined); // awaited by its test
    installs.set(v, p);
  }
});

afterAll(() => {
  if (tmp) fs.rmSync(tmp, { recursive: true, force: true });
});

it("should have a published version as the peer range's floor", () => {
  expect(FLOOR).toBeDefined();
  expect(ends.lowest).toBe(FLOOR);
});

describe.each(["lowest", "newest"] as const)("@pulumi/pulumi at the range's %s version", (end) => {
  it("should install without an install-scripts notice for pulumi-wws, then up and destroy a pod", async () => {
    const version = ends[end];
    const { dir, stderr, ms } = await (installs.get(version) as Promise<Installed>);
    expect(stderr).not.toMatch(/pulumi-wws@/);
    expect(stderr).not.toMatch(/EBADENGINE/);
    const waited = Date.now();

    fs.writeFileSync(path.join(dir, "index.js"), PROGRAM);
    fs.writeFileSync(
      path.join(dir, "Pulumi.yaml"),
      "name: peer-smoke\nruntime:\n  name: nodejs\n  options:\n    typescript: false\n",
    );
    const backend = path.join(dir, ".backend");
    fs.mkdirSync(backend);
    const stack = await LocalWorkspace.createOrSelectStack(
      { stackName: "smoke", workDir: dir },
      {
        pulumiCommand: await pulumiCommand(),
        envVars: {
          PULUMI_BACKEND_URL: `file://${backend}`,
          PULUMI_CONFIG_PASSPHRASE: randomBytes(12).toString("hex"),
          PULUMI_SKIP_UPDATE_CHECK: "true",
          PULUMI_DISABLE_AUTOMATIC_PLUGIN_ACQUISITION: "true",
          PATH: [pulumiBinDir(), path.dirname(process.execPath), process.env.PATH].join(path.delimiter),
        },
      },
    );
    const ws = service.workspace();
    await stack.setAllConfig({
      "wws:baseUrl": { value: service.url },
      "wws:workspace": { value: ws.name },
      "wws:apiKey": { value: ws.apiKey, secret: true },
    });
    const client = service.client(ws.name);

    const up = await stack.up();
    expect(up.summary.result).toBe("succeeded");
    expect(up.outputs.sdkVersion.value).toBe(version);
    expect(up.outputs.phase.value).toBe("Running");
    expect((await client.getSpec()).workloads.map((w) => `${w.id}:${w.type}`)).toEqual(["web:pod"]);

    const destroy = await stack.destroy();
    expect(destroy.summary.result).toBe("succeeded");
    expect((await client.getSpec()).workloads).toEqual([]);
    console.log(
      `@pulumi/pulumi ${version} (${end} of ${RANGE}): installed in ${(ms / 1000).toFixed(1)} s (both ends at once), up and destroy in ${((Date.now() - waited) / 1000).toFixed(1)} s`,
    );
  });
});
