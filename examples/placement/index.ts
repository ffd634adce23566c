/**
 * Placement. By default the service places a VM on the best host by itself: leave `placement`
 * out unless you need locality. This program shows the three choices side by side:
 *   - `anywhere`: automatic placement (the default);
 *   - `regional`: any host of one region;
 *   - `pinned`: one particular host.
 * The region and the host come from `getFleetHosts()` (`GET /v1/fleet/hosts`: regions, hosts and
 * their live capacity), or from the stack config `region` / `host` when set. The choice uses the
 * hosts' total capacity, never their free capacity: free capacity changes as VMs come and go, and
 * a choice made from it would move the VM (an update) on the next run.
 *
 * Stack config: wws:baseUrl, wws:workspace, wws:apiKey (secret), vmPassword (secret),
 * optionally region and host.
 */
import * as pulumi from "@pulumi/pulumi";
import * as wws from "pulumi-wws";

const config = new pulumi.Config();
const credentials = { username: "ubuntu", password: config.requireSecret("vmPassword") };
const workspace = new wws.Workspace("workspace", { name: new pulumi.Config("wws").require("workspace") });

const fleet = wws.getFleetHostsOutput();

/** `4Gi` → 4096 (MiB). */
function mebibytes(quantity: string): number {
  const m = /^([0-9]+)(Mi|Gi|Ti)$/.exec(quantity);
  return m ? Number(m[1]) * { Mi: 1, Gi: 1024, Ti: 1024 * 1024 }[m[2] as "Mi" | "Gi" | "Ti"] : 0;
}

// The region: config `region`, else the one with the most hosts (then by name).
const region: pulumi.Output<string> = pulumi.output(
  config.get("region") ||
    fleet.apply(
      (f) => [...f.regions].sort((a, b) => b.hosts.length - a.hosts.length || a.name.localeCompare(b.name))[0].name,
    ),
);

// The host: config `host`, else the biggest host of that region (by CPUs, then memory, then name).
const host: pulumi.Output<string> = pulumi.output(
  config.get("host") ||
    pulumi.all([fleet, region]).apply(([f, r]) => {
      const hosts = f.regions.find((x) => x.name === r)?.hosts ?? [];
      if (hosts.length === 0)
        throw new Error(`region ${r} has no hosts; regions: ${f.regions.map((x) => x.name).join(", ")}`);
      return [...hosts].sort(
        (a, b) =>
          b.capacity.cpus - a.capacity.cpus ||
          mebibytes(b.capacity.memory) - mebibytes(a.capacity.memory) ||
          a.name.localeCompare(b.name),
      )[0].name;
    }),
);

const anywhere = new wws.VirtualMachine("anywhere", { workspace, os: "ubuntu", cpus: 1, memory: "2Gi", credentials });
const regional = new wws.VirtualMachine("regional", {
  workspace,
  os: "ubuntu",
  cpus: 2,
  memory: "4Gi",
  credentials,
  placement: { region },
});
const pinned = new wws.VirtualMachine("pinned", {
  workspace,
  os: "ubuntu",
  cpus: 8,
  memory: "32Gi",
  credentials,
  placement: { host },
});

export const chosenRegion = region;
export const pinnedHost = host;
export const phases = { anywhere: anywhere.phase, regional: regional.phase, pinned: pinned.phase };
/** The fleet as seen on this run: free CPUs and memory per host (live, so it changes between runs). */
export const fleetFree = fleet.apply((f) =>
  Object.fromEntries(
    f.regions.flatMap((r) =>
      r.hosts.map((h) => [
        `${r.name}/${h.name}`,
        `${h.free.cpus}/${h.capacity.cpus} CPUs, ${h.free.memory}/${h.capacity.memory} free`,
      ]),
    ),
  ),
);
