/**
 * A team's shared state: Pulumi's PostgreSQL DIY backend (`pulumi login postgres://…`) on a real
 * PostgreSQL of the test's own, two checkouts of one project (two CI runners), one workspace:
 * two stacks `up` at the same time; a second `up` of a stack that is being updated refused by the
 * backend's lock; a runner killed mid-`up` and the stack recovered from the other checkout with
 * the commands provider/README.md documents ("Interrupted runs"). No row of the database holds
 * the API key or a password in plain text.
 */
import { spawn } from "node:child_process";
import * as fs from "node:fs";
import * as path from "node:path";
import { secretHits } from "../reliability/cli-helpers";
import { newStackDir, type StackDir } from "../support/stack-dir";
import { startPostgres, type Postgres } from "../../bench/postgres";
import { ensureBuilt, password, pulumiBinDir, serviceForFile, until } from "./harness";

jest.setTimeout(5 * 60_000);

const PROGRAM = `const pulumi = require("@pulumi/pulumi");
const wws = require("pulumi-wws");
const cfg = new pulumi.Config();
const prefix = cfg.require("prefix");
const image = cfg.get("image") ?? "nginx:1.27";
for (let i = 1; i <= 3; i++) new wws.Pod("web" + i, { workloadId: prefix + "-web" + i, image, readyTimeoutSeconds: 120 });
new wws.Database("db", { workloadId: prefix + "-db", engine: "postgres", credentials: { password: cfg.requireSecret("dbPassword") } });
`;

interface Run {
  code: number | null;
  out: string;
  ms: number;
}

const service = serviceForFile({ reconcileMs: 300 });
let ws: { name: string; apiKey: string };
const DB_PASSWORD = password("db");
let pg: Postgres;
let checkouts: StackDir[];
const figures: string[] = [];

/** `pulumi <args> --non-interactive` in checkout `i`, against the shared backend. */
function pulumi(i: number, args: string[]): { done: Promise<Run>; kill(): void } {
  const c = checkouts[i];
  const started = Date.now();
  const child = spawn("pulumi", [...args, "--non-interactive"], {
    cwd: c.workDir,
    env: { ...process.env, ...c.envVars, PULUMI_BACKEND_URL: pg.url },
  });
  let out = "";
  child.stdout.on("data", (d: Buffer) => (out += d.toString()));
  child.stderr.on("data", (d: Buffer) => (out += d.toString()));
  const done = new Promise<Run>((resolve) =>
    child.on("close", (code) => resolve({ code, out, ms: Date.now() - started })),
  );
  return { done, kill: () => child.kill("SIGKILL") };
}

const ok = async (i: number, args: string[]): Promise<Run> => {
  const r = await pulumi(i, args).done;
  if (r.code !== 0) throw new Error(`pulumi ${args.join(" ")} failed (${r.code}):\n${r.out.slice(-3000)}`);
  return r;
};

const podImages = async (prefix: string): Promise<Record<string, unknown>> => {
  const spec = await service.client(ws.name).getSpec();
  return Object.fromEntries(
    spec.workloads.filter((w) => w.id.startsWith(`${prefix}-`)).map((w) => [w.id, w.spec.image ?? w.type]),
  );
};

beforeAll(async () => {
  ensureBuilt();
  ws = service.workspace();
  pg = await startPostgres();
  // One passphrase for the team: both checkouts decrypt the stacks' secrets.
  const passphrase = password("passphrase");
  checkouts = [0, 1].map(() => newStackDir("wws-shared-", pulumiBinDir(), passphrase));
  for (const c of checkouts) {
    fs.writeFileSync(
      path.join(c.workDir, "Pulumi.yaml"),
      "name: wws-shared\nruntime:\n  name: nodejs\n  options:\n    typescript: false\n",
    );
    fs.writeFileSync(
      path.join(c.workDir, "package.json"),
      JSON.stringify({ name: "wws-shared", private: true, main: "index.js" }),
    );
    fs.writeFileSync(path.join(c.workDir, "index.js"), PROGRAM);
  }
  for (const stack of ["dev", "staging"]) {
    await ok(0, ["stack", "init", stack]);
    await ok(0, ["config", "set", "--stack", stack, "wws:baseUrl", service.url]);
    await ok(0, ["config", "set", "--stack", stack, "wws:workspace", ws.name]);
    await ok(0, ["config", "set", "--stack", stack, "--secret", "wws:apiKey", ws.apiKey]);
    await ok(0, ["config", "set", "--stack", stack, "--secret", "dbPassword", DB_PASSWORD]);
    await ok(0, ["config", "set", "--stack", stack, "prefix", stack]);
  }
  // The other checkout has the stack config files as a clone of the repository would.
  for (const f of fs.readdirSync(checkouts[0].workDir).filter((f) => /^Pulumi\..+\.yaml$/.test(f)))
    fs.copyFileSync(path.join(checkouts[0].workDir, f), path.join(checkouts[1].workDir, f));
});

afterAll(async () => {
  for (const c of checkouts ?? []) c.cleanup();
  pg?.stop();
  console.log(`shared PostgreSQL backend:\n${figures.join("\n")}`);
});

describe("stacks on a shared PostgreSQL backend", () => {
  it("updates two stacks of one project in one workspace at the same time, from two checkouts", async () => {
    const [dev, staging] = await Promise.all([
      ok(0, ["up", "--yes", "--skip-preview", "--stack", "dev"]),
      ok(1, ["up", "--yes", "--skip-preview", "--stack", "staging"]),
    ]);
    figures.push(
      `  two concurrent ups (4 workloads each): dev ${(dev.ms / 1000).toFixed(1)} s, staging ${(staging.ms / 1000).toFixed(1)} s`,
    );
    expect(await podImages("dev")).toEqual({
      "dev-web1": "nginx:1.27",
      "dev-web2": "nginx:1.27",
      "dev-web3": "nginx:1.27",
      "dev-db": "storage",
    });
    expect(Object.keys(await podImages("staging")).sort()).toEqual([
      "staging-db",
      "staging-web1",
      "staging-web2",
      "staging-web3",
    ]);
    // Each checkout sees both stacks.
    expect((await ok(1, ["stack", "ls"])).out).toMatch(/dev[\s\S]*staging|staging[\s\S]*dev/);
  });

  it("refuses a second up of a stack while one runs, with the lock's message, and the first completes", async () => {
    await ok(0, ["config", "set", "--stack", "dev", "image", "nginx:1.28"]);
    fs.copyFileSync(
      path.join(checkouts[0].workDir, "Pulumi.dev.yaml"),
      path.join(checkouts[1].workDir, "Pulumi.dev.yaml"),
    );
    const first = pulumi(0, ["up", "--yes", "--skip-preview", "--stack", "dev"]);
    await until(
      "the first up's lock",
      async () => pg.query("SELECT count(*) FROM pulumi_state WHERE key LIKE '%locks/%'").trim() !== "0",
    );
    const second = await pulumi(1, ["up", "--yes", "--skip-preview", "--stack", "dev"]).done;
    expect(second.code).not.toBe(0);
    const message = /the stack is currently locked by 1 lock\(s\)[^\n]*/.exec(second.out)?.[0];
    expect(message).toMatch(
      /Either wait for the other process\(es\) to end or delete the lock file with `pulumi cancel`/,
    );
    figures.push(
      `  a second up of dev while one ran: exit ${second.code} after ${(second.ms / 1000).toFixed(1)} s, "${message}"`,
    );
    expect((await first.done).code).toBe(0);
    expect(Object.values(await podImages("dev")).filter((v) => v === "nginx:1.28")).toHaveLength(3);
  });

  it("recovers a stack whose runner was killed mid-up, from the other checkout, with pulumi cancel and up", async () => {
    await ok(1, ["config", "set", "--stack", "staging", "image", "nginx:1.28"]);
    const killed = pulumi(1, ["up", "--yes", "--skip-preview", "--stack", "staging"]);
    // Killed once the service accepted an update: the waits are in flight.
    await until("an update accepted", async () => Object.values(await podImages("staging")).includes("nginx:1.28"));
    killed.kill();
    await killed.done;
    const locked = await pulumi(0, ["up", "--yes", "--skip-preview", "--stack", "staging"]).done;
    expect(locked.out).toMatch(/the stack is currently locked/);
    // The other runner: its checkout has the new config once the change is merged.
    fs.copyFileSync(
      path.join(checkouts[1].workDir, "Pulumi.staging.yaml"),
      path.join(checkouts[0].workDir, "Pulumi.staging.yaml"),
    );
    const started = Date.now();
    await ok(0, ["cancel", "--yes", "--stack", "staging"]);
    await ok(0, ["up", "--yes", "--skip-preview", "--stack", "staging"]);
    figures.push(
      `  killed runner: pulumi cancel + up from the other checkout converged in ${((Date.now() - started) / 1000).toFixed(1)} s`,
    );
    expect(await podImages("staging")).toEqual({
      "staging-web1": "nginx:1.28",
      "staging-web2": "nginx:1.28",
      "staging-web3": "nginx:1.28",
      "staging-db": "storage",
    });
    expect((await ok(0, ["preview", "--stack", "staging", "--expect-no-changes"])).code).toBe(0);
  });

  it("keeps the API key and the passwords out of the database's rows", () => {
    const rows = pg.query("SELECT key || ' ' || data::text FROM pulumi_state");
    expect(rows).toMatch(/stacks\/wws-shared\/dev/);
    expect(secretHits("pulumi_state", rows, { apiKey: ws.apiKey, dbPassword: DB_PASSWORD })).toEqual([]);
  });
});
