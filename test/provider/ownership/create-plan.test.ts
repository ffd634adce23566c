/**
 * The create's one rule, branch by branch: the facts `create` reads from a service that holds the
 * id (or not) as each row says, the plan they give, and the reads they cost (never a spec read
 * that the plan does not need).
 */
import type { TenantSpec, WorkloadStatus, WorkspaceClient } from "../../../sdk";
import { planCreate, readCreateFacts, type CreatePlan } from "../../../provider/dynamic/ownership/create-plan";
import { parseWorkload } from "../../../provider/dynamic/workloads/model";

const ID = "web";
const DECLARED = { image: "nginx:1.27" };
const RUNNING: WorkloadStatus = { id: ID, type: "pod", phase: "Running", generation: 3 };

/** What the service holds at the id: nothing, the declared spec, another one, or a status whose spec entry is gone. */
type Live = "free" | "running the declaration" | "running another spec" | "gone from the spec";

/** A client of a service holding `live`, counting the reads `create` makes. */
function serviceHolding(live: Live) {
  const reads = { status: 0, spec: 0 };
  const spec = live === "running another spec" ? { image: "busybox:1.36" } : DECLARED;
  const workloads =
    live === "running the declaration" || live === "running another spec" ? [{ id: ID, type: "pod", spec }] : [];
  const client = {
    findStatus: async () => (reads.status++, live === "free" ? undefined : RUNNING),
    getSpec: async (): Promise<TenantSpec> => (reads.spec++, { workloads } as unknown as TenantSpec),
  } as unknown as WorkspaceClient;
  return { client, reads };
}

describe("planCreate", () => {
  it.each<[string, Live, { adopt: boolean; importing: boolean }, CreatePlan, number]>([
    [
      "import of a free id: nothing to import",
      "free",
      { adopt: false, importing: true },
      { kind: "import-refused", reason: "missing" },
      0,
    ],
    [
      "import of a workload gone meanwhile",
      "gone from the spec",
      { adopt: false, importing: true },
      { kind: "import-refused", reason: "missing" },
      1,
    ],
    [
      "import of a workload running another spec",
      "running another spec",
      { adopt: false, importing: true },
      { kind: "import-refused", reason: "differs", differences: ["image"] },
      1,
    ],
    [
      "import of a workload running the declared spec",
      "running the declaration",
      { adopt: false, importing: true },
      { kind: "import-accepted" },
      1,
    ],
    ["a free id: create", "free", { adopt: false, importing: false }, { kind: "send" }, 0],
    ["a free id with adopt: create", "free", { adopt: true, importing: false }, { kind: "send" }, 0],
    [
      "an existing id without adopt",
      "running another spec",
      { adopt: false, importing: false },
      { kind: "refuse", existing: RUNNING },
      0,
    ],
    [
      "an existing id running the declared spec, without adopt",
      "running the declaration",
      { adopt: false, importing: false },
      { kind: "refuse", existing: RUNNING },
      0,
    ],
    [
      "adopt of a workload running the declared spec: recorded",
      "running the declaration",
      { adopt: true, importing: false },
      { kind: "record" },
      1,
    ],
    [
      "adopt of a workload running another spec: upserted over it",
      "running another spec",
      { adopt: true, importing: false },
      { kind: "send", previous: RUNNING },
      1,
    ],
    [
      "adopt of a workload gone meanwhile: upserted",
      "gone from the spec",
      { adopt: true, importing: false },
      { kind: "send", previous: RUNNING },
      1,
    ],
  ])(
    "should plan %s (the id %s), reading its status once and the live spec only when the plan needs it",
    async (_what, live, given, want, specReads) => {
      const { client, reads } = serviceHolding(live);
      const m = parseWorkload({ workloadId: ID, type: "pod", ...DECLARED, adopt: given.adopt });
      const facts = await readCreateFacts(client, m, given.importing, { deadline: Date.now() + 1000 });
      expect(planCreate(facts)).toEqual(want);
      expect(reads).toEqual({ status: 1, spec: specReads });
    },
  );
});
