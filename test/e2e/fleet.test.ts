/**
 * examples/fleet as it ships (its program, and its driver fleet.js run as a user runs it), on a
 * real PostgreSQL backend of the test's own: three stacks of five pods deployed at the same time;
 * a stack set to hold more pods would take its neighbour's and is refused at preview with nothing
 * sent; a fourth stack grows the fleet while the gate previews the three unchanged; one stack's
 * destroy leaves the others' workloads as they were, and their preview unchanged. No timing is
 * asserted: the sizes are the bench's (scenario 8).
 */
import { spawnSync } from "node:child_process";
import * as fs from "node:fs";
import * as path from "node:path";
import { spawnDriver, type DriverOutput } from "../../bench/fleet";
import { startPostgres, type Postgres } from "../../bench/postgres";
import { newStackDir, type StackDir } from "../support/stack-dir";
import { ROOT, ensureBuilt, pulumiBinDir, serviceForFile } from "./harness";

type Stack = DriverOutput["stacks"][number];

jest.setTimeout(5 * 60_000);

const service = serviceForFile({ reconcileMs: 300 });
let ws: { name: string; apiKey: string };
let pg: Postgres;
let project: StackDir;

const env = (): NodeJS.ProcessEnv => ({
  ...process.env,
  ...project.envVars,
  PULUMI_BACKEND_URL: pg.url,
  WWS_BASE_URL: service.url,
  WWS_WORKSPACE: ws.name,
  WWS_API_KEY: ws.apiKey,
});

/** `node examples/fleet/fleet.js <args> --json` on the test's project: its exit code, output and stacks. */
async function fleet(args: string[]): Promise<{ code: number | null; out: string; stacks: Stack[] }> {
  const run = await spawnDriver(ROOT, [...args, `--dir=${project.workDir}`], env(), 5 * 60_000);
  return { code: run.code, out: run.out, stacks: run.result?.stacks ?? [] };
}

const ok = async (args: string[]): Promise<Stack[]> => {
  const r = await fleet(args);
  if (r.code !== 0) throw new Error(`fleet.js ${args.join(" ")} exited ${r.code}:\n${r.out.slice(-3000)}`);
  return r.stacks;
};

/** The workspace's workloads: id → generation. */
const workloads = async (): Promise<Record<string, number | undefined>> => {
  const spec = await service.client(ws.name).getSpec();
  const generations = await Promise.all(
    spec.workloads.map(async (w) => [w.id, (await service.client(ws.name).getStatus(w.id)).generation] as const),
  );
  return Object.fromEntries(generations);
};

const ids = (from: number, to: number): string[] => Array.from({ length: to - from }, (_, i) => `fleet-${from + i}`);

beforeAll(async () => {
  ensureBuilt();
  ws = service.workspace();
  pg = await startPostgres();
  project = newStackDir("wws-fleet-", pulumiBinDir());
  for (const f of ["Pulumi.yaml", "index.js"])
    fs.copyFileSync(path.join(ROOT, "examples/fleet", f), path.join(project.workDir, f));
});

afterAll(() => {
  // The workloads are the test's own service's, which stops with the file: nothing to destroy.
  project?.cleanup();
  pg?.stop();
});

describe("examples/fleet on a shared PostgreSQL backend", () => {
  it("deploys three stacks of five pods at the same time, each its own slice of ids", async () => {
    const stacks = await ok(["up", "--stacks=3", "--pods=5"]);
    expect(stacks.map((s) => [s.name, s.plan, s.changes])).toEqual(
      ["slice-0", "slice-1", "slice-2"].map((name) => [name, { create: 5 }, { create: 6 }]),
    );
    // Every stack's up began before any ended.
    const starts = stacks.map((s) => s.appliedAt![0]);
    const ends = stacks.map((s) => s.appliedAt![1]);
    expect(Math.max(...starts)).toBeLessThan(Math.min(...ends));
    expect(Object.keys(await workloads()).sort()).toEqual(ids(0, 15).sort());
  });

  it("refuses at preview a slice that would take another slice's workloads, with nothing sent", async () => {
    const before = await workloads();
    const set = (n: string) =>
      spawnSync("pulumi", ["config", "set", "podsPerSlice", n, "--stack", "slice-0"], {
        cwd: project.workDir,
        env: env(),
        encoding: "utf8",
      });
    expect(set("10").status).toBe(0);
    const r = await fleet(["up", "--slices=0"]);
    expect(set("5").status).toBe(0);
    expect(r.code).toBe(2);
    expect(r.out).toMatch(/workload fleet-[5-9] already exists in workspace \S+ \(pod, phase Running\)/);
    expect(r.out).toMatch(/No change was sent/);
    expect(r.out).toContain("the gate stopped the up: no stack was changed");
    expect(await workloads()).toEqual(before);
  });

  it("grows the fleet by adding a stack, the gate previewing the others unchanged", async () => {
    const before = await workloads();
    const stacks = await ok(["up", "--stacks=4", "--pods=5"]);
    expect(stacks.map((s) => s.plan)).toEqual([{}, {}, {}, { create: 5 }]);
    expect(await workloads()).toEqual({ ...before, ...Object.fromEntries(ids(15, 20).map((id) => [id, 1])) });
  });

  it("destroys one stack and leaves the other stacks' workloads as they were", async () => {
    const before = await workloads();
    const [gone] = await ok(["destroy", "--slices=1", "--remove"]);
    expect(gone.changes).toEqual({ delete: 6 });
    const rest = Object.fromEntries(Object.entries(before).filter(([id]) => !ids(5, 10).includes(id)));
    expect(await workloads()).toEqual(rest);
    const stacks = await ok(["preview", "--slices=0,2,3"]);
    expect(stacks.map((s) => s.plan)).toEqual([{}, {}, {}]);
  });
});
