/**
 * Preview's verdict on capacity is `up`'s result, through the real `pulumi` CLI against the local
 * service refusing a VM no host has room for (`refuseWithoutRoom`, `--refuse-without-room`), on a
 * fleet of the test's own. One stack, in sequence: a VM bigger than every host; a plan that fits
 * and fills a region; a same-size replacement there; a replacement that grows there (refused
 * before anything is deleted); VMs that fit the sum of free figures but not the hosts, and a VM
 * pinned to a host meeting one placed in its region.
 */
import { cliProject, type CliProject } from "./cli-project";
import type { JsonPreview } from "./cli-json";
import { password, serviceForFile } from "./harness";

jest.setTimeout(5 * 60_000);

const service = serviceForFile({
  reconcileMs: 20,
  refuseWithoutRoom: true,
  fleet: {
    regions: [
      {
        name: "lab",
        hosts: [
          { name: "lab-1", capacity: { cpus: 8, memory: "32Gi" } },
          { name: "lab-2", capacity: { cpus: 8, memory: "32Gi" } },
        ],
      },
      {
        name: "east",
        hosts: [
          { name: "east-1", capacity: { cpus: 64, memory: "256Gi" } },
          { name: "east-2", capacity: { cpus: 32, memory: "128Gi" } },
        ],
      },
      {
        name: "west",
        hosts: [
          { name: "west-1", capacity: { cpus: 64, memory: "256Gi" } },
          { name: "west-2", capacity: { cpus: 32, memory: "128Gi" } },
        ],
      },
    ],
  },
});

interface Vm {
  os?: string;
  cpus: number;
  placement: { region?: string; host?: string };
}

const program = (vms: Record<string, Vm>, pw: string): string =>
  `const wws = require("pulumi-wws");\n` +
  Object.entries(vms)
    .map(
      ([id, vm]) =>
        `new wws.VirtualMachine(${JSON.stringify(id)}, { os: ${JSON.stringify(vm.os ?? "ubuntu")}, cpus: ${vm.cpus}, memory: "8Gi", placement: ${JSON.stringify(vm.placement)}, credentials: { username: "ops", password: ${JSON.stringify(pw)} } });`,
    )
    .join("\n");

async function run(p: CliProject, args: string[]): Promise<{ code: number; out: string }> {
  const r = await p.pulumi(args);
  return { code: r.code, out: `${r.stdout}\n${r.stderr}` };
}

/** `pulumi preview --json`: the capacity warnings by resource name. */
async function previewWarnings(p: CliProject): Promise<Record<string, string>> {
  const r = await p.pulumi(["preview", "--json"]);
  expect({ code: r.code, stderr: r.code === 0 ? "" : r.stderr }).toEqual({ code: 0, stderr: "" });
  const { diagnostics = [] } = JSON.parse(r.stdout) as JsonPreview;
  return Object.fromEntries(
    diagnostics
      .filter((d) => d.message.includes("cannot be placed"))
      .map((d) => [(d.urn ?? "").split("::").pop()!, d.message.trim()]),
  );
}

const lab = { region: "lab" };

describe("capacity as the service places it", () => {
  it("should agree with up: a plan that fits, replacements in a full region, and VMs that fit the sum but not the hosts", async () => {
    const p = service.keep(await cliProject(service, "wws-placement"));
    const pw = password("vm");

    // Bigger than every host of its region: check fails, nothing is sent.
    p.setProgram(program({ huge: { cpus: 200, placement: lab } }, pw));
    let mark = await p.mark();
    const huge = await run(p, ["up", "--yes", "--skip-preview"]);
    expect(huge.code).not.toBe(0);
    expect(huge.out).toContain(
      "vm-ubuntu huge needs 200 CPUs and 8Gi, more than any host of region lab holds: the largest, lab-1, has 8 CPUs and 32Gi in all",
    );
    expect(await mark.since()).toEqual({ rows: [], mutating: 0 });

    // A plan that fits, exactly: four 4-CPU VMs on two 8-CPU hosts. Preview is clean, up places them all.
    const full: Record<string, Vm> = Object.fromEntries(
      ["r1", "r2", "r3", "r4"].map((id) => [id, { cpus: 4, placement: lab }]),
    );
    p.setProgram(program(full, pw));
    const fits = await run(p, ["up", "--yes"]);
    expect(fits.out).not.toContain("cannot be placed");
    expect(fits.code).toBe(0);

    // A same-size replacement in the full region: its old room is its own. No warning; up replaces it.
    const sameSize = { ...full, r1: { os: "ubuntu-desktop", cpus: 4, placement: lab } };
    p.setProgram(program(sameSize, pw));
    const replaced = await run(p, ["up", "--yes"]);
    expect(replaced.out).not.toContain("cannot be placed");
    expect(replaced.code).toBe(0);
    expect((await p.client.getStatus("r1")).type).toBe("vm-ubuntu-desktop");

    // A replacement that grows in the full region: preview warns on its row; up refuses before the delete.
    p.setProgram(program({ ...sameSize, r2: { os: "ubuntu-desktop", cpus: 6, placement: lab } }, pw));
    const grows = await previewWarnings(p);
    expect(Object.keys(grows)).toEqual(["r2"]);
    expect(grows.r2).toContain(
      "vm-ubuntu-desktop r2 (6 CPUs and 8Gi) cannot be placed: no host of region lab has room for it",
    );
    expect(grows.r2).toContain(
      "Free now: lab-1 0 CPUs and 16Gi, lab-2 0 CPUs and 16Gi, its old self's 4 CPUs and 8Gi given back first",
    );
    mark = await p.mark();
    const refused = await run(p, ["up", "--yes", "--skip-preview"]);
    expect(refused.code).not.toBe(0);
    expect(refused.out).toContain(
      "vm-ubuntu r2 was not deleted: its replacement, vm-ubuntu-desktop r2, needs 6 CPUs and 8Gi in region lab, and no host of region lab would have room for it once this VM is gone",
    );
    expect(refused.out).toContain("Nothing was deleted");
    expect((await mark.since()).rows).toEqual([]);
    expect(await p.client.getStatus("r2")).toMatchObject({ type: "vm-ubuntu", phase: "Running" });

    // Two 48-CPU VMs in a region of a 64- and a 32-CPU host (96 free in all), and a VM pinned to
    // east-1 beside one in its region: preview warns on the one of each pair that its checks meet
    // second (the engine checks resources side by side); up places one of each.
    p.setProgram(
      program(
        {
          ...sameSize,
          w1: { cpus: 48, placement: { region: "west" } },
          w2: { cpus: 48, placement: { region: "west" } },
          pinned: { cpus: 40, placement: { host: "east-1" } },
          regional: { cpus: 40, placement: { region: "east" } },
        },
        pw,
      ),
    );
    const apart = await previewWarnings(p);
    const warned = Object.keys(apart).sort();
    expect(warned).toHaveLength(2);
    const [west, westFirst] = warned.includes("w1") ? ["w1", "w2"] : ["w2", "w1"];
    expect(apart[west]).toContain(
      `vm-ubuntu ${west} (48 CPUs and 8Gi) cannot be placed: no host of region west has room for it once the plan's vm-ubuntu ${westFirst} is placed`,
    );
    expect(apart[west]).toContain("Free now: west-1 64 CPUs and 256Gi, west-2 32 CPUs and 128Gi");
    const east = warned.includes("regional")
      ? "no host of region east has room for it once the plan's vm-ubuntu pinned is placed"
      : "host east-1 has no room for it once the plan's vm-ubuntu regional is placed";
    expect(apart[warned.includes("regional") ? "regional" : "pinned"]).toContain(east);
    // Both refusals, whichever comes first: without --continue-on-error the engine starts nothing after the first.
    const partly = await run(p, ["up", "--yes", "--skip-preview", "--continue-on-error"]);
    expect(partly.code).not.toBe(0);
    expect(partly.out).toMatch(/no host of west has room for 48 CPUs and 8Gi now/);
    expect(partly.out).toMatch(/no host of east(-1)? has room for 40 CPUs and 8Gi now/);
    const ids = (await p.client.getSpec()).workloads.map((w) => w.id);
    expect(ids.filter((id) => ["w1", "w2"].includes(id))).toHaveLength(1);
    expect(ids.filter((id) => ["pinned", "regional"].includes(id))).toHaveLength(1);
  });
});
