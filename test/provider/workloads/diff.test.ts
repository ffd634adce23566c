import { UNKNOWN } from "../../../provider/dynamic/inputs/unknown";
import { classifyWorkloadChanges, type WorkloadChanges } from "../../../provider/dynamic/workloads/diff";
import { diffWorkload, sealCredentials } from "../harness";
import { createContext } from "../../../provider/dynamic/context";
import { createTemplateProvider } from "../../../provider/dynamic/templates/provider";
import { createWorkloadProvider } from "../../../provider/dynamic/workloads/provider";

const PASSWORD = "diff-Pass-Word-1";
/** Last outputs of a VM in state: inputs plus what the service reported, the password sealed into a digest. */
const vmState = sealCredentials({
  workloadId: "web",
  type: "vm-ubuntu",
  cpus: 2,
  credentials: { password: PASSWORD },
  workspace: "demo",
  baseUrl: "http://127.0.0.1:1",
  restartTrigger: "a",
  phase: "Running",
  generation: 1,
  observedGeneration: 1,
  __provider: "stub",
});
/** The same resource's checked inputs: the state without the service's outputs. */
const without = (o: Record<string, unknown>, ...keys: string[]): Record<string, unknown> =>
  Object.fromEntries(Object.entries(o).filter(([k]) => !keys.includes(k)));
const vmNews = (): Record<string, unknown> => ({
  ...without(vmState, "phase", "generation", "observedGeneration"),
  __provider: "another stub",
});
const dbState = sealCredentials({
  workloadId: "db",
  type: "storage",
  engine: "postgres",
  credentials: { password: PASSWORD },
  workspace: "demo",
  baseUrl: "http://x",
  phase: "Running",
});

describe("diffWorkload", () => {
  it.each([
    // [what changes, news over the VM, changes, replaces, deleteBeforeReplace]; `changes: undefined`
    // (DIFF_UNKNOWN) has the engine diff the inputs itself, per property, keeping our replaces.
    // Every workload replacement deletes first (the classes' `deleteBeforeReplace` says so too).
    ["nothing (a new __provider text included)", {}, false, [], false],
    ["the workspace", { workspace: "prod" }, undefined, ["workspace"], true],
    ["the workload id", { workloadId: "web-2" }, undefined, ["workloadId"], true],
    ["the type (os)", { type: "vm-windows" }, undefined, ["type"], true],
    ["the workspace and the type", { workspace: "prod", type: "vm-windows" }, undefined, ["type", "workspace"], true],
    ["a spec field", { cpus: 4 }, undefined, [], false],
    ["a new spec field", { memory: "8Gi" }, undefined, [], false],
    ["VM credentials", { credentials: { password: "new-Pass-2" } }, undefined, [], false],
    ["the restart trigger", { restartTrigger: "b" }, undefined, [], false],
    ["a wait option", { readyTimeoutSeconds: 60, waitForReady: false }, undefined, [], false],
    ["the base URL and API key", { baseUrl: "http://other", apiKey: "k-123456" }, undefined, [], false],
    ["adopt", { adopt: true }, undefined, [], false],
    ["an unknown id (preview)", { workloadId: UNKNOWN }, undefined, ["workloadId"], true],
    ["an unknown spec field (preview)", { cpus: UNKNOWN }, undefined, [], false],
  ])("should diff %s", (_what, over, changes, replaces, deleteBeforeReplace) => {
    const d = diffWorkload(vmState, { ...vmNews(), ...over });
    expect(d).toMatchObject({ changes, replaces, deleteBeforeReplace });
  });

  it.each([
    ["the engine", { engine: "redis" }, ["engine"]],
    ["the credentials (set once)", { credentials: { password: "other-Pass-3" } }, ["credentials"]],
    ["the username", { credentials: { username: "admin", password: PASSWORD } }, ["credentials"]],
  ])("should replace a database, freeing its id first, when %s changes", (_what, over, replaces) => {
    expect(diffWorkload(dbState, { ...without(dbState, "phase"), ...over })).toEqual({
      changes: undefined,
      replaces,
      deleteBeforeReplace: true,
    });
  });

  it("should update a database in place for any other field, and keep equal secrets unchanged", () => {
    const inputs = without(dbState, "phase");
    expect(diffWorkload(dbState, { ...inputs, credentials: { password: PASSWORD } })).toMatchObject({
      changes: false,
      replaces: [],
    });
    expect(diffWorkload(dbState, { ...inputs, adminConsole: true })).toMatchObject({
      changes: undefined,
      replaces: [],
    });
  });

  it("should not replace a database whose state has no credentials (adopted), sending them instead", () => {
    const state = without(dbState, "credentials");
    expect(diffWorkload(state, { ...without(state, "phase"), credentials: { password: PASSWORD } })).toMatchObject({
      changes: undefined,
      replaces: [],
    });
  });

  it("should ask for an update that waits again when the last wait did not finish, unless waiting is off", () => {
    const kept = { ...vmState, phase: "Pending", observedGeneration: 0 };
    expect(diffWorkload(kept, vmNews())).toMatchObject({ changes: true, replaces: [] });
    expect(diffWorkload({ ...vmState, phase: "Failed" }, vmNews())).toMatchObject({ changes: true, replaces: [] });
    expect(diffWorkload({ ...kept, waitForReady: false }, { ...vmNews(), waitForReady: false })).toMatchObject({
      changes: false,
    });
  });
});

describe("classifyWorkloadChanges", () => {
  // diffWorkload answers the same for all of these (an input change, nothing replaced); what
  // `update` then does (restart, upsert, or only record) is decided here.
  it.each([
    [
      "restart, and send nothing, when the trigger's value changes",
      vmState,
      { ...vmNews(), restartTrigger: "b" },
      { restart: true, updates: [], local: [] },
    ],
    [
      "only record a trigger that is removed",
      vmState,
      without(vmNews(), "restartTrigger"),
      { restart: false, updates: [], local: ["restartTrigger"] },
    ],
    [
      "only record a trigger that is added",
      without(vmState, "restartTrigger"),
      vmNews(),
      { restart: false, updates: [], local: ["restartTrigger"] },
    ],
    [
      "restart and send the spec when both change",
      vmState,
      { ...vmNews(), restartTrigger: "b", cpus: 4 },
      { restart: true, updates: ["cpus"], local: [] },
    ],
  ])("should %s", (_what, olds, news, expected) => {
    // The rule that decided each key is tested in test/provider/fields/fields.test.ts.
    const sorted: Partial<WorkloadChanges> = classifyWorkloadChanges(olds, news);
    delete sorted.rules;
    expect(sorted).toEqual({
      replaces: [],
      deleteFirst: false,
      resumeWait: false,
      ...expected,
    });
  });
});

describe("what diff says of restartTrigger", () => {
  const noted = async (olds: Record<string, unknown>, news: Record<string, unknown>): Promise<string[]> => {
    const lines: string[] = [];
    const ctx = createContext({ env: {}, progress: { write: (l) => lines.push(l) } });
    await createWorkloadProvider(ctx).diff!("demo/web", olds, news);
    return lines.filter((l) => l.includes("restartTrigger"));
  };

  it("should say that a first trigger records a value and restarts nothing", async () => {
    expect(await noted(without(vmState, "restartTrigger"), vmNews())).toEqual([
      "wws: vm-ubuntu web: restartTrigger is set for the first time: the update records its value and restarts nothing; a later change of it restarts the workload",
    ]);
  });

  it("should say that a changed trigger restarts, and say nothing of an unchanged one", async () => {
    expect(await noted(vmState, { ...vmNews(), restartTrigger: "b" })).toEqual([
      expect.stringMatching(/^wws: vm-ubuntu web: restartTrigger changed, so the update restarts it/),
    ]);
    expect(await noted(vmState, vmNews())).toEqual([]);
  });
});

describe("template diff", () => {
  const provider = createTemplateProvider(createContext({ env: {} }));
  const state = {
    name: "t",
    kind: "pod",
    config: { pod: { image: "nginx" } },
    workspace: "demo",
    baseUrl: "http://x",
    templateId: "tpl_1",
    createdAt: "2026-01-01T00:00:00Z",
    __provider: "s",
  };
  const news = {
    name: "t",
    kind: "pod",
    config: { pod: { image: "nginx" } },
    workspace: "demo",
    baseUrl: "http://x",
    __provider: "s2",
  };

  it.each([
    ["nothing", {}, false, []],
    ["the name", { name: "u" }, undefined, ["name"]],
    ["the description", { description: "d" }, undefined, ["description"]],
    ["the kind and config", { kind: "browser", config: { browser: {} } }, undefined, ["config", "kind"]],
    ["the workspace", { workspace: "prod" }, undefined, ["workspace"]],
    ["the base URL only", { baseUrl: "http://y" }, undefined, []],
  ])("should diff %s", async (_what, over, changes, replaces) => {
    expect(await provider.diff("demo/tpl_1", state, { ...news, ...over })).toMatchObject({
      changes,
      replaces,
      deleteBeforeReplace: false,
    });
  });
});
