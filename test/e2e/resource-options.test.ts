/**
 * Pulumi's own resource options and stack commands on our resources, through the real `pulumi`
 * CLI against the local service: each row of provider/README.md's "Pulumi's options and commands"
 * that works without our code doing anything is kept here, one stack walked through many rows,
 * asserting what the user sees and what the service received (audit rows, mutating requests,
 * generations).
 */
import * as path from "node:path";
import { cliProject, linesOf, type CliProject } from "./cli-project";
import { serviceForFile } from "./harness";

jest.setTimeout(5 * 60_000);

const service = serviceForFile({ reconcileMs: 20 });

const HEAD = `const pulumi = require("@pulumi/pulumi");\nconst wws = require("pulumi-wws");\nconst image = "nginx:1.27";\n`;

async function ok(p: CliProject, args: string[], stack?: string | null): Promise<string> {
  const run = await p.pulumi(args, stack);
  expect({ code: run.code, stderr: run.code === 0 ? "" : `${run.stdout.slice(-3000)}\n${run.stderr}` }).toEqual({
    code: 0,
    stderr: "",
  });
  return run.stdout;
}

async function refused(p: CliProject, args: string[], stack?: string | null): Promise<string> {
  const run = await p.pulumi(args, stack);
  expect(run.code).not.toBe(0);
  return `${run.stdout}\n${run.stderr}`;
}

const generation = async (p: CliProject, id: string): Promise<number | undefined> =>
  (await service.ctl.workload(p.ws.name, id))?.generation;
interface StateResource {
  urn: string;
  type: string;
  id?: string;
  inputs?: Record<string, unknown>;
  outputs?: Record<string, unknown>;
  additionalSecretOutputs?: string[];
}
/** Our resources in `pulumi stack export`. */
const stateOf = async (p: CliProject, stack = "local"): Promise<StateResource[]> => {
  const out = await ok(p, ["stack", "export"], stack);
  const resources = (JSON.parse(out) as { deployment: { resources?: StateResource[] } }).deployment.resources;
  return (resources ?? []).filter((r) => r.type.startsWith("pulumi-nodejs:dynamic/"));
};
/** The workload ids of the stack's resources. */
const stateIds = async (p: CliProject, stack = "local"): Promise<string[]> =>
  (await stateOf(p, stack)).map((r) => (r.id ?? "").split("/")[1]).sort();

describe("Pulumi's resource options on our resources", () => {
  /** Memory of `hooked`, `hidden` and `ignored`; `kept` and `protect` of `guarded` as given. */
  const optionsProgram = (v: { memory: [string, string, string]; kept: boolean; protect: boolean; log: string }) =>
    `${HEAD}const fs = require("fs");
const hook = (kind) => new pulumi.ResourceHook(kind, (a) => fs.appendFileSync(${JSON.stringify(v.log)}, kind + " " + a.name + "\\n"));
const kinds = ["beforeCreate", "afterCreate", "beforeUpdate", "afterUpdate", "beforeDelete", "afterDelete"];
pulumi.runtime.registerResourceTransform(({ name, props, opts }) =>
  name === "shaped" && props.type === "pod"
    ? { props: { ...props, cpu: "250m" }, opts: { ...opts, customTimeouts: { create: "7m" } } }
    : undefined);
new wws.Pod("guarded", { image }, { protect: ${v.protect} });
${v.kept ? "" : "// "}new wws.Pod("kept", { image }, { retainOnDelete: true });
new wws.Pod("kept2", { image }, { retainOnDelete: true });
const first = new wws.Pod("first", { image });
new wws.Pod("second", { image }, { dependsOn: [first] });
new wws.Pod("shaped", { image }, { transforms: [({ props, opts }) => ({ props: { ...props, memory: "256Mi" }, opts })] });
new wws.Pod("hooked", { image, memory: "${v.memory[0]}" }, { hooks: Object.fromEntries(kinds.map((k) => [k, [hook(k)]])) });
new wws.Pod("hidden", { image, memory: "${v.memory[1]}" }, { hideDiffs: ["memory"] });
new wws.Pod("ignored", { image, memory: "${v.memory[2]}" }, { ignoreChanges: ["memory"] });
const sealed = new wws.Pod("sealed", { image, ports: [{ name: "http", port: 80 }] }, { additionalSecretOutputs: ["endpoint"] });
exports.sealedEndpoint = sealed.endpoint;
`;

  it("should honour protect, retainOnDelete, dependsOn, transforms, hooks, hideDiffs, ignoreChanges and additionalSecretOutputs", async () => {
    const p = service.keep(await cliProject(service, "wws-options"));
    const log = path.join(p.workDir, "hooks.log");
    const v1 = { memory: ["512Mi", "768Mi", "512Mi"] as [string, string, string], kept: true, protect: true, log };
    p.setProgram(optionsProgram(v1));

    // Created once each; `second` only once `first` was ready (dependsOn).
    let m = await p.mark();
    await ok(p, ["up", "--yes", "--skip-preview"]);
    const created = await m.since();
    expect([...created.rows].sort()).toEqual(
      ["first", "guarded", "hidden", "hooked", "ignored", "kept", "kept2", "sealed", "second", "shaped"].map(
        (n) => `created ${n}`,
      ),
    );
    const activity = await p.client.listActivity({ limit: 1000 });
    const firstRunning = activity.findIndex(
      (r) => r.target?.id === "first" && (r.detail as { phase?: string } | undefined)?.phase === "Running",
    );
    const secondCreated = activity.findIndex((r) => r.target?.id === "second" && r.action === "workload.created");
    expect(firstRunning).toBeGreaterThanOrEqual(0);
    expect(secondCreated).toBeGreaterThan(firstRunning);
    // Both transforms reached the service: the resource's own and the stack's (which saw the
    // class's inputs: `type: "pod"`). A customTimeouts set by a transform does not reach the class.
    expect((await service.ctl.workload(p.ws.name, "shaped"))?.spec).toEqual({
      image: "nginx:1.27",
      memory: "256Mi",
      cpu: "250m",
    });
    const state = await stateOf(p);
    expect(state.find((r) => r.urn === p.urn("shaped"))?.inputs?.customTimeouts).toBeUndefined();
    expect(linesOf(p.workDir, "hooks.log")).toEqual(["beforeCreate hooked", "afterCreate hooked"]);
    // additionalSecretOutputs: the endpoint is a secret in the state and in the stack's outputs.
    expect((await ok(p, ["stack", "output", "sealedEndpoint"])).trim()).toBe("[secret]");
    expect((await ok(p, ["stack", "output", "sealedEndpoint", "--show-secrets"])).trim()).toMatch(/^sealed\.\S+:80$/);
    const sealed = state.find((r) => r.urn === p.urn("sealed"));
    expect(sealed?.outputs?.endpoint).toEqual(expect.objectContaining({ ciphertext: expect.any(String) }));
    // The class's own secret outputs (apiKey, credentials, a pod's source: a repository URL may carry a token) beside the one asked for.
    expect(sealed?.additionalSecretOutputs?.sort()).toEqual(["apiKey", "credentials", "endpoint", "source"]);

    // hideDiffs hides the change, which is sent all the same; ignoreChanges sends nothing;
    // retainOnDelete: the removed resource leaves the stack and its workload keeps running.
    p.setProgram(optionsProgram({ ...v1, memory: ["1Gi", "2Gi", "1Gi"], kept: false }));
    m = await p.mark();
    const changed = await ok(p, ["up", "--yes", "--diff"]);
    expect((await m.since()).rows.sort()).toEqual(["updated hidden", "updated hooked"]);
    expect(changed).toMatch(/~ memory: "512Mi" => "1Gi"/); // hooked
    expect(changed).toMatch(/~ memory \(hidden\)/);
    expect(changed).not.toMatch(/2Gi/); // neither in the preview nor in the update
    expect(changed).toMatch(/\(delete\[retain\]\)\s+\[id=[^\]\s]+\/kept\]/);
    expect(await generation(p, "hidden")).toBe(2);
    expect(await generation(p, "ignored")).toBe(1);
    expect((await service.ctl.workload(p.ws.name, "ignored"))?.spec.memory).toBe("512Mi");
    expect((await p.client.getStatus("kept")).phase).toBe("Running");
    expect(await stateIds(p)).not.toContain("kept");
    expect(linesOf(p.workDir, "hooks.log").slice(2)).toEqual(["beforeUpdate hooked", "afterUpdate hooked"]);

    // Delete hooks need the program: any destroy without --run-program is refused, even of another resource.
    m = await p.mark();
    const noProgram = await refused(p, ["destroy", "--yes", "--target", p.urn("first"), "--target-dependents"]);
    expect(noProgram).toMatch(/run with the `--run-program` flag to use delete hooks/);
    // protect: destroy refuses, naming the way out.
    const guarded = await refused(p, ["destroy", "--yes", "--run-program"]);
    expect(guarded).toMatch(/cannot be deleted\s+because it is protected/);
    expect(guarded).toMatch(/pulumi state unprotect/);
    expect(await m.since()).toEqual({ rows: [], mutating: 0 });

    // Unprotected in the program: destroy deletes in dependency order, runs the delete hooks, and
    // leaves the retained workloads (kept2: retained by the destroy itself).
    p.setProgram(optionsProgram({ ...v1, memory: ["1Gi", "2Gi", "1Gi"], kept: false, protect: false }));
    m = await p.mark();
    await ok(p, ["destroy", "--yes", "--run-program"]);
    const deleted = (await m.since()).rows;
    expect([...deleted].sort()).toEqual(
      ["first", "guarded", "hidden", "hooked", "ignored", "sealed", "second", "shaped"].map((n) => `deleted ${n}`),
    );
    expect(deleted.indexOf("deleted second")).toBeLessThan(deleted.indexOf("deleted first"));
    expect(linesOf(p.workDir, "hooks.log").slice(4)).toEqual(["beforeDelete hooked", "afterDelete hooked"]);
    expect((await p.client.getSpec()).workloads.map((w) => w.id).sort()).toEqual(["kept", "kept2"]);
    expect(await stateIds(p)).toEqual([]);
  });
});

describe("Pulumi's stack commands on our resources", () => {
  /** A project whose program declares `home` on the stack `local` and `other` on any other stack. */
  const commandsProgram = (home: string[], other: string[] = []): string =>
    `${HEAD}const refuse = new pulumi.ResourceHook("refuse", () => { throw new Error("refused by the hook"); });
if (pulumi.getStack() === "local") {
${home.join("\n")}
} else {
${other.join("\n")}
}
`;
  const pod = (name: string, memory: string, opts = "{}", args = ""): string =>
    `  const ${name} = new wws.Pod("${name}", { image, memory: "${memory}"${args} }, ${opts});`;
  const adopted = (memory: string): string => pod("f", memory, "{}", ", adopt: true");
  const memoryInState = async (p: CliProject, name: string): Promise<unknown> =>
    (await stateOf(p)).find((r) => r.urn === p.urn(name))?.inputs?.memory;

  it("should honour --target, --exclude, --continue-on-error, state delete and move, stack rename, export, import and plans", async () => {
    const p = service.keep(await cliProject(service, "wws-commands"));
    p.setProgram(commandsProgram([pod("a", "512Mi"), pod("b", "512Mi", "{ dependsOn: [a] }"), pod("c", "512Mi")]));
    await ok(p, ["up", "--yes", "--skip-preview"]);

    // --target and --exclude: of three changed pods, only the one named, then all but the one named.
    p.setProgram(commandsProgram([pod("a", "1Gi"), pod("b", "1Gi", "{ dependsOn: [a] }"), pod("c", "1Gi")]));
    let m = await p.mark();
    await ok(p, ["up", "--yes", "--skip-preview", "--target", p.urn("a")]);
    expect((await m.since()).rows).toEqual(["updated a"]);
    m = await p.mark();
    await ok(p, ["up", "--yes", "--skip-preview", "--exclude", p.urn("b")]);
    expect((await m.since()).rows).toEqual(["updated c"]);
    expect(await generation(p, "b")).toBe(1);

    // refresh --target: only the named resource takes what runs; a refresh sends nothing.
    await p.client.upsertWorkload("pod", { id: "a", image: "nginx:1.27", memory: "3Gi" });
    await p.client.upsertWorkload("pod", { id: "b", image: "nginx:1.27", memory: "3Gi" });
    m = await p.mark();
    await ok(p, ["refresh", "--yes", "--skip-preview", "--target", p.urn("b")]);
    expect(await m.since()).toEqual({ rows: [], mutating: 0 });
    expect([await memoryInState(p, "a"), await memoryInState(p, "b")]).toEqual(["1Gi", "3Gi"]);

    // destroy --target of a resource another depends on: refused, then both with --target-dependents.
    m = await p.mark();
    const dependent = await refused(p, ["destroy", "--yes", "--skip-preview", "--target", p.urn("a")]);
    expect(dependent).toMatch(/--target-dependents/);
    expect(await m.since()).toEqual({ rows: [], mutating: 0 });
    await ok(p, ["destroy", "--yes", "--skip-preview", "--target", p.urn("a"), "--target-dependents"]);
    expect((await m.since()).rows).toEqual(["deleted b", "deleted a"]);

    // --continue-on-error: a failed create (a before-hook refuses it) skips what depends on it, not the rest.
    const failing = [pod("c", "1Gi"), pod("d", "512Mi", "{ hooks: { beforeCreate: [refuse] } }")];
    p.setProgram(commandsProgram([...failing, pod("e", "512Mi", "{ dependsOn: [d] }"), pod("f", "512Mi")]));
    m = await p.mark();
    const partly = await refused(p, ["up", "--yes", "--skip-preview", "--continue-on-error"]);
    expect(partly).toMatch(/refused by the hook/);
    expect((await m.since()).rows).toEqual(["created f"]);
    expect(await stateIds(p)).toEqual(["c", "f"]);

    // state delete: the stack forgets, the workload keeps running, and the next preview refuses its
    // id, naming adopt.
    m = await p.mark();
    await ok(p, ["state", "delete", p.urn("f"), "--yes"]);
    expect(await stateIds(p)).toEqual(["c"]);
    expect((await p.client.getStatus("f")).phase).toBe("Running");
    p.setProgram(commandsProgram([pod("c", "1Gi"), pod("f", "512Mi")]));
    const taken = await refused(p, ["preview"]);
    expect(taken).toMatch(/workload f already exists/);
    expect(taken).toMatch(/adopt: true/);
    expect(await m.since()).toEqual({ rows: [], mutating: 0 });

    // state move to another stack: the next up of the stack it left deletes nothing (and adopt
    // takes f back with nothing sent); the stack it joined has nothing to change (below).
    await p.addStack("other");
    await ok(p, ["state", "move", "--source", "local", "--dest", "other", p.urn("c"), "--yes"], null);
    // The stack it joined renames it on the way: `aliases` keep the workload.
    const renamed = `  new wws.Pod("moved", { workloadId: "c", image, memory: "1Gi" }, { aliases: [{ name: "c" }] });`;
    p.setProgram(commandsProgram([adopted("512Mi")], [renamed]));
    m = await p.mark();
    await ok(p, ["up", "--yes", "--skip-preview"]);
    expect(await m.since()).toEqual({ rows: [], mutating: 0 });
    expect([await stateIds(p), await stateIds(p, "other")]).toEqual([["f"], ["c"]]);
    expect(await generation(p, "f")).toBe(1);

    // stack rename, then export and import of its state: no change to make in the stack that
    // received c, nothing sent.
    await ok(p, ["stack", "rename", "moved"], "other");
    const exported = path.join(p.workDir, "moved.json");
    await ok(p, ["stack", "export", "--file", exported], "moved");
    await ok(p, ["stack", "import", "--file", exported], "moved");
    await ok(p, ["preview", "--expect-no-changes"], "moved");
    expect(await m.since()).toEqual({ rows: [], mutating: 0 });

    // --save-plan / --plan: an up that would go beyond the plan is refused with nothing sent.
    const plan = path.join(p.workDir, "plan.json");
    p.setProgram(commandsProgram([adopted("1Gi")]));
    await ok(p, ["preview", "--save-plan", plan]);
    p.setProgram(commandsProgram([adopted("2Gi")]));
    const beyond = await refused(p, ["up", "--yes", "--skip-preview", "--plan", plan]);
    expect(beyond).toMatch(/violates plan: properties changed: ~~memory\[\{1Gi\}!=\{2Gi\}\]/);
    expect(await m.since()).toEqual({ rows: [], mutating: 0 });
    p.setProgram(commandsProgram([adopted("1Gi")]));
    await ok(p, ["up", "--yes", "--skip-preview", "--plan", plan]);
    expect((await m.since()).rows).toEqual(["updated f"]);
    expect(await generation(p, "f")).toBe(2);
  });
});
