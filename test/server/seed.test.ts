import * as fs from "node:fs";
import * as os from "node:os";
import * as path from "node:path";
import { WorkspaceClient, HttpError } from "../../sdk";
import { parseCliArgs } from "../../server/cli-args";
import { writeSeedDataDir, type SeedSnapshot } from "../../server/seed";
import type { RunningService } from "../../server";
import { startTestService } from "../support/service";

const KEY = `seed-key-${Date.now()}`;
const FLEET = {
  regions: [
    {
      name: "r1",
      hosts: [
        { name: "h1", capacity: { cpus: 8, memory: "16Gi" } },
        { name: "h2", capacity: { cpus: 8, memory: "16Gi" } },
      ],
    },
  ],
};
const SEED: SeedSnapshot = {
  version: 1,
  workspaces: {
    team: {
      workloads: [
        { id: "web", type: "pod", spec: { image: "nginx:1.27" }, phase: "Running" },
        { id: "vm", type: "vm-ubuntu", spec: { os: "ubuntu", cpus: 2 }, phase: "Failed" },
      ],
      templates: [{ id: "tpl_0a1b", name: "small", kind: "pod", config: { pod: { image: "nginx:1.27" } } }],
    },
  },
  held: [
    { host: "h1", cpus: 6, memory: "4Gi" },
    { host: "h2", cpus: 5, memory: "1Gi" },
  ],
};

describe("a service seeded from a snapshot", () => {
  let tmp: string;
  let svc: RunningService;
  let client: WorkspaceClient;
  beforeAll(async () => {
    tmp = fs.mkdtempSync(path.join(os.tmpdir(), "wws-seed-"));
    writeSeedDataDir(path.join(tmp, "data"), SEED);
    svc = await startTestService({
      keys: { team: KEY },
      controlToken: "t",
      dataDir: path.join(tmp, "data"),
      fleet: FLEET,
      refuseWithoutRoom: true,
    });
    client = new WorkspaceClient({ baseUrl: svc.url, workspace: "team", apiKey: KEY });
  });
  afterAll(async () => {
    await client.close();
    await svc.close();
    fs.rmSync(tmp, { recursive: true, force: true });
  });

  it("should hold the snapshot's workloads with their ids, specs and phases, and its templates with their ids", async () => {
    const spec = await client.getSpec();
    expect(spec.workloads.map((w) => [w.id, w.type, w.spec])).toEqual([
      ["web", "pod", { image: "nginx:1.27" }],
      ["vm", "vm-ubuntu", { os: "ubuntu", cpus: 2 }],
    ]);
    expect((await client.getStatus("web")).phase).toBe("Running");
    expect((await client.getStatus("vm")).phase).toBe("Failed");
    expect((await client.getTemplate("tpl_0a1b")).name).toBe("small");
  });

  it("should show what others hold on each host as taken, and refuse a VM that fits the sum but no host", async () => {
    const hosts = (await client.getFleetHosts()).regions[0].hosts;
    expect(hosts.map((h) => [h.name, h.free.cpus, h.free.memory])).toEqual([
      ["h1", 2, "12Gi"],
      ["h2", 3, "15Gi"],
    ]);
    // 4 CPUs: the region has 5 free, no host has 4.
    const refused = await client
      .upsertWorkload("vm-ubuntu", { id: "big", cpus: 4, credentials: { password: "pw-123456" } } as never)
      .catch((e: unknown) => e);
    expect(refused).toBeInstanceOf(HttpError);
    expect((refused as HttpError).status).toBe(409);
    expect((refused as Error).message).toMatch(/no host of the fleet has room for 4 CPUs/);
  });
});

describe("wws-local --seed and --fleet", () => {
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), "wws-seed-args-"));
  afterAll(() => fs.rmSync(dir, { recursive: true, force: true }));
  const file = (name: string, value: unknown): string => {
    const p = path.join(dir, name);
    fs.writeFileSync(p, typeof value === "string" ? value : JSON.stringify(value));
    return p;
  };

  it("should read both files", () => {
    const args = parseCliArgs(["--seed", file("seed.json", SEED), `--fleet=${file("fleet.json", FLEET)}`]);
    expect(args.seed).toEqual(SEED);
    expect(args.options.fleet).toEqual(FLEET);
  });

  it.each([
    ["--seed", "bad.json", "{", /--seed .*bad\.json: .*JSON/],
    ["--seed", "v2.json", { version: 2, workspaces: {} }, /--seed .*v2\.json: must be \{version: 1/],
    ["--fleet", "nofleet.json", { regions: [] }, /--fleet .*nofleet\.json: must have at least one region/],
  ])("should refuse %s %s, naming the flag, the file and the problem", (flag, name, value, message) => {
    expect(() => parseCliArgs([flag, file(name, value)])).toThrow(message);
  });
});
