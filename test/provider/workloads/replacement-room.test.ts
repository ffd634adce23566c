/**
 * The guard before a VM is deleted to be replaced, against the real local service on a one-host
 * fleet: the delete is refused, with nothing deleted, when the plan cannot place the replacement
 * (another VM of the run claims the room first) or no host would have room once the VM is gone;
 * a VM the run did not check (a removal, `destroy`) is deleted as asked.
 */
import { createContext } from "../../../provider/dynamic/context";
import { createWorkloadProvider } from "../../../provider/dynamic/workloads/provider";
import { PASSWORD, STUB, startHarness, uid, up, type Harness } from "../harness";

let h: Harness;
beforeAll(async () => {
  h = await startHarness({
    refuseWithoutRoom: true,
    fleet: { regions: [{ name: "lab", hosts: [{ name: "lab-1", capacity: { cpus: 8, memory: "32Gi" } }] }] },
  });
});
afterAll(() => h?.close());

const urnOf = (id: string): string => `urn:pulumi:dev::infra::pulumi-nodejs:dynamic/wws:VirtualMachine::${id}`;
const vm = (id: string, cpus: number, type = "vm-ubuntu") => ({
  workloadId: id,
  type,
  cpus,
  memory: "4Gi",
  placement: { region: "lab" },
  credentials: { password: PASSWORD },
  __wws: { urn: urnOf(id) },
});

/** A provider process of a new deployment against `h`'s service (it reads the fleet as it is now). */
function deployment(on: Harness) {
  const ctx = createContext({ env: on.env, waitTiming: { pollMinMs: 20, pollMaxMs: 200, safetyPollMs: 500 } });
  return { ctx, workload: createWorkloadProvider(ctx) };
}

describe("refuseReplacementWithoutRoom", () => {
  it("should refuse the delete when another VM of the plan takes the room first, and when no host would have room", async () => {
    const a = uid("a");
    const { id: rid, outs } = await up(h.workload, vm(a, 4));
    const { credentials, ...state } = outs;
    void credentials;
    const run = deployment(h);
    try {
      // A new 4-CPU VM, checked first, takes the 4 CPUs left; the replacement of `a` grows to 8.
      const n = uid("n");
      expect((await run.workload.check({}, vm(n, 4))).failures).toEqual([]);
      const news = vm(a, 8, "vm-windows");
      const checked = await run.workload.check(state, news);
      expect(checked.failures).toEqual([]);
      expect(await run.workload.diff(rid, outs, { ...checked.inputs, __provider: STUB })).toMatchObject({
        deleteBeforeReplace: true,
      });
      expect((await run.workload.check({}, news)).failures).toEqual([]);
      await expect(run.workload.delete(rid, outs)).rejects.toThrow(
        new RegExp(
          `vm-ubuntu ${a} was not deleted: its replacement, vm-windows ${a}, needs 8 CPUs and 4Gi in region lab, ` +
            `and the deployment's plan cannot place it once vm-ubuntu ${n} is placed \\(as preview warned\\) once this VM is gone\\. ` +
            `Free now: lab-1 4 CPUs and 28Gi; this VM gives back 4 CPUs and 4Gi on its host`,
        ),
      );
      expect((await h.client.getStatus(a)).phase).toBe("Running");

      // Another VM holds the 4 CPUs now: even alone, the grown replacement has no host.
      await h.client.upsertWorkload("vm-ubuntu", {
        id: uid("other"),
        cpus: 4,
        memory: "4Gi",
        credentials: { password: PASSWORD },
      });
      await expect(run.workload.delete(rid, outs)).rejects.toThrow(
        /no host of region lab would have room for it once this VM is gone\. Free now: lab-1 0 CPUs and 24Gi/,
      );
      expect((await h.client.getStatus(a)).phase).toBe("Running");
    } finally {
      await run.ctx.close();
    }
  });

  it("should delete a VM the run did not check, as asked", async () => {
    const h2 = await startHarness({ refuseWithoutRoom: true });
    try {
      const id = uid("gone");
      const { id: rid, outs } = await up(h2.workload, { ...vm(id, 1), placement: { region: "us-east" } });
      // A new process (the next deployment) that checks nothing: a removal or a destroy.
      const run = deployment(h2);
      await run.workload.delete(rid, outs);
      await run.ctx.close();
      await expect(h2.client.getStatus(id)).rejects.toMatchObject({ status: 404 });
    } finally {
      await h2.close();
    }
  });
});
