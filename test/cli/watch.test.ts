/**
 * `npx pulumi-wws watch` as a user runs it, through the real `pulumi` CLI against the local service
 * over HTTP: one stack of a pod, a VM and a database walked through every check of issue 38, then
 * a pod on a `spec`-profile service (activity rows that name nothing).
 */
import { execFileSync } from "node:child_process";
import { password } from "../e2e/harness";
import { ensureBuilt } from "../support/build";
import { sleep } from "../reliability/cli-helpers";
import { pollUntil } from "../support/poll";
import type { Finding } from "../../watch";
import { startWatchProcess, type WatchProcess as Watcher } from "../support/watch-process";
import { changeLive, pulumiCli, upOk, watchService, type WatchService } from "../support/watch-stack";

jest.setTimeout(4 * 60_000);

const until = <T>(what: string, check: () => T | undefined | false, timeoutMs = 30_000): Promise<T> =>
  pollUntil(check, { what, timeoutMs, intervalMs: 50 });

function program(vmCpus: number): string {
  return (
    `const pulumi = require("@pulumi/pulumi");\nconst wws = require("pulumi-wws");\nconst cfg = new pulumi.Config();\n` +
    `new wws.Pod("web", { image: "nginx:1.27", memory: "512Mi" });\n` +
    `new wws.VirtualMachine("vm", { os: "ubuntu", cpus: ${vmCpus}, credentials: { password: cfg.requireSecret("vmPassword") } });\n` +
    `new wws.Database("db", { engine: "postgres", cpu: "500m", credentials: { password: cfg.requireSecret("dbPassword") } });\n`
  );
}

/** A finding's fields, each as [path, recorded, live]. */
const fieldsOf = (f: Finding): Array<[string, unknown, unknown]> =>
  (f.fields ?? []).map((x) => [x.path, x.recorded, x.live]);

/** The processes `pid` started that still run (`ps`: no file of the watch read). */
function childrenOf(pid: number): string[] {
  try {
    return execFileSync("ps", ["-o", "pid=", "--ppid", String(pid)], { encoding: "utf8" })
      .split("\n")
      .filter(Boolean);
  } catch {
    return []; // ps exits 1 when there is none
  }
}

describe("pulumi-wws watch", () => {
  let on: WatchService;
  const watchers: Watcher[] = [];

  beforeAll(async () => {
    ensureBuilt();
    on = await watchService("watch");
  });

  afterAll(async () => {
    for (const w of watchers) if (w.proc.exitCode === null) w.proc.kill("SIGKILL");
    await on?.close();
  });

  it("reports each change made outside Pulumi once, with who made it, waits out an up, survives a restart, reverts in place only", async () => {
    const { service, ops } = on;
    const dbPassword = password("db");
    const s = await on.stack("wws-watch", program(1), {
      config: {
        "wws-watch:dbPassword": { value: dbPassword, secret: true },
        "wws-watch:vmPassword": { value: password("vm"), secret: true },
      },
    });

    const watch = startWatchProcess(s.stack, []);
    watchers.push(watch);
    await until("the watch to start", () => watch.status.some((l) => /watching 3 workloads/.test(l)));

    // One change of each through the service's API, by the key labelled ops-laptop.
    await changeLive(ops, "web", { memory: "1Gi" });
    await changeLive(ops, "vm", { cpus: 2 });
    await changeLive(ops, "db", { cpu: "1", credentials: { password: dbPassword } });
    await until("three findings", () => watch.findings.length >= 3);
    await sleep(1500);
    const byName = Object.fromEntries(watch.findings.map((f) => [f.resource, f]));
    expect(watch.findings).toHaveLength(3);
    expect(fieldsOf(byName['Pod "web"'])).toEqual([["memory", "512Mi", "1Gi"]]);
    expect(fieldsOf(byName['VirtualMachine "vm"'])).toEqual([["cpus", 1, 2]]);
    expect(fieldsOf(byName['Database "db"'])).toEqual([["cpu", "500m", "1"]]);
    for (const f of watch.findings) {
      expect(f).toMatchObject({ kind: "drift", actor: "ops-laptop", stack: "local" });
      expect(f.activityId).toMatch(/^\d+$/);
    }

    // `pulumi preview --refresh` shows the same fields, and nothing else.
    const preview = await pulumiCli(s.stack, ["preview", "--refresh", "--json"]);
    const steps = (
      JSON.parse(preview.out.slice(0, preview.out.lastIndexOf("}") + 1)) as {
        steps: Array<{ op: string; urn: string; diffReasons?: string[] }>;
      }
    ).steps.filter((st) => st.op !== "same" && st.op !== "refresh");
    const planned = steps.map((st) => [st.urn.split("::").pop(), st.op, st.diffReasons]);
    expect(planned.sort()).toEqual([
      ["db", "update", ["cpu"]],
      ["vm", "update", ["cpus"]],
      ["web", "update", ["memory"]],
    ]);

    // A `pulumi up` of the stack (the VM declared with 3 CPUs) is not drift: the watch learns the
    // record it wrote, so a change after it is found against 3 CPUs, and nothing is said of the up.
    s.setProgram(program(3));
    await upOk(s.stack);
    await changeLive(ops, "vm", { cpus: 5 });
    const afterUp = await until("the VM's change after the up", () =>
      watch.findings.find((f) => fieldsOf(f)[0]?.[2] === 5),
    );
    expect(fieldsOf(afterUp)).toEqual([["cpus", 3, 5]]);
    expect(watch.findings).toHaveLength(4);

    // The service restarts: the watch compares everything when its stream is back, and goes on.
    await service.restart(300);
    await until("a full comparison after the restart", () => watch.status.some((l) => /is back: comparing/.test(l)));
    await changeLive(ops, "vm", { cpus: 4 });
    const vm = await until("the VM's change after the restart", () =>
      watch.findings.find((f) => fieldsOf(f)[0]?.[2] === 4),
    );
    expect(fieldsOf(vm)).toEqual([["cpus", 3, 4]]);
    expect(watch.findings).toHaveLength(5);
    await ops.restartWorkload("web");
    const restarted = await until("the restart", () => watch.findings.find((f) => f.kind === "restarted"));
    expect(restarted).toMatchObject({ resource: 'Pod "web"', actor: "ops-laptop" });
    watch.proc.kill("SIGTERM");
    expect(await watch.exited).toBe(0);
    expect(watch.notJson).toEqual([]);

    // --exit-on-drift: the standing drift is a finding at once.
    const ci = startWatchProcess(s.stack, ["--exit-on-drift"]);
    watchers.push(ci);
    expect(await ci.exited).toBe(3);
    expect(ci.findings.length).toBeGreaterThan(0);

    // --revert: in-place drift put back; a database's is not (its update carries a password the state
    // does not keep), nor its engine (a replacement).
    const fixer = startWatchProcess(s.stack, ["--revert"]);
    watchers.push(fixer);
    await until("the two reverts", () => fixer.findings.filter((f) => f.kind === "reverted").length >= 2, 90_000);
    const dbLeft = await until("the database left alone", () =>
      fixer.findings.find((f) => f.kind === "revert-refused" && f.resource === 'Database "db"'),
    );
    expect(dbLeft.message).toMatch(/password/);
    const live = async (id: string): Promise<Record<string, unknown>> =>
      (await ops.getSpec()).workloads.find((w) => w.id === id)!.spec;
    expect(await live("web")).toMatchObject({ memory: "512Mi" });
    expect(await live("vm")).toMatchObject({ cpus: 3 });
    await changeLive(ops, "db", { engine: "redis", credentials: { password: dbPassword } });
    const refused = await until("the refusal", () =>
      fixer.findings.find((f) => f.kind === "revert-refused" && /replace/.test(f.message ?? "")),
    );
    expect(refused.message).toMatch(/replace/);
    expect(refused.message).toContain("pulumi up --refresh --target");
    expect((await live("db")).engine).toBe("redis");
    // Changed again after the revert: contested, and left alone.
    await changeLive(ops, "web", { memory: "2Gi" });
    const contested = await until("contested", () => fixer.findings.find((f) => f.kind === "contested"));
    expect(contested.resource).toBe('Pod "web"');
    await sleep(1500);
    expect(await live("web")).toMatchObject({ memory: "2Gi" });
    fixer.proc.kill("SIGINT");
    expect(await fixer.exited).toBe(0);

    // Ctrl-C while the watch reads the stacks' state again (a config change, a `pulumi` run under
    // way, killed by the same Ctrl-C): it ends quietly with 0, without "could not read".
    const reading = startWatchProcess(s.stack, [], { detached: true });
    watchers.push(reading);
    await until("the watch to start", () => reading.status.some((l) => /watching 3 workloads/.test(l)));
    await s.stack.setConfig("wws-watch:note", { value: "re-read me" });
    await until(
      "the watch's re-read of the stack (a pulumi run of its own)",
      () => childrenOf(reading.proc.pid!).length > 0,
      60_000,
    );
    process.kill(-reading.proc.pid!, "SIGINT");
    expect(await reading.exited).toBe(0);
    expect(reading.status.filter((l) => /could not|failed/.test(l))).toEqual([]);
    expect(reading.notJson).toEqual([]);

    // No secret in anything the watches printed.
    const printed = JSON.stringify(watchers.map((w) => [w.findings, w.status]));
    for (const secret of [dbPassword, on.keys.stack, on.keys.ops]) expect(printed).not.toContain(secret);
  });

  it("reports a change made and undone while its event stream was down, from the activity rows it missed, and a template deleted", async () => {
    const gap = await watchService("watchgap");
    try {
      const { ops } = gap;
      const ws = gap.ws.name;
      const { stack } = await gap.stack(
        "wws-watchgap",
        `const wws = require("pulumi-wws");\n` +
          `new wws.Pod("calm", { image: "nginx:1.27", memory: "256Mi" });\n` +
          `new wws.Template("tpl", { name: "dev box", kind: "pod", config: { pod: { image: "nginx" } } });\n`,
      );
      const watch = startWatchProcess(stack, []);
      watchers.push(watch);
      await until("the watch to start", () => watch.status.some((l) => /watching 1 workload and 1 template/.test(l)));

      // The stream is cut and cannot come back; meanwhile the pod is changed and put back by hand.
      await gap.service.ctl.setFaults({ errorRate: 1, errorStatuses: [503], pathPrefix: `/v1/tenants/${ws}/events` });
      await gap.service.ctl.dropStreams();
      await until("the stream down", () => watch.status.some((l) => /is down/.test(l)));
      await changeLive(ops, "calm", { memory: "1Gi" });
      await changeLive(ops, "calm", { memory: "256Mi" });
      await gap.service.ctl.clearFaults();

      const back = await until("the change and its undoing", () =>
        watch.findings.find((f) => f.kind === "changed-back"),
      );
      expect(back).toMatchObject({ resource: 'Pod "calm"', actor: "ops-laptop", id: `${ws}/calm` });
      expect(back.activityId).toMatch(/^\d+$/);

      // A template deleted outside Pulumi, with the stream back.
      const tpl = (await ops.listTemplates()).find((t) => t.name === "dev box")!;
      await ops.deleteTemplate(tpl.id);
      const gone = await until("the template's delete", () => watch.findings.find((f) => f.kind === "deleted"));
      expect(gone).toMatchObject({ resource: 'Template "tpl"', actor: "ops-laptop" });
      await sleep(1000);
      expect(watch.findings.map((f) => f.kind)).toEqual(["changed-back", "deleted"]);
      watch.proc.kill("SIGTERM");
      expect(await watch.exited).toBe(0);
    } finally {
      await gap.close();
    }
  });

  it("finds the same against a service of the spec profile (rows that name nothing), and reports a Failed workload and a delete", async () => {
    const spec = await watchService("watchspec", { profile: "spec" });
    try {
      const { ops } = spec;
      const ws = spec.ws.name;
      const { stack } = await spec.stack(
        "wws-watchspec",
        `const wws = require("pulumi-wws");\n` +
          `new wws.Pod("web", { image: "nginx:1.27", memory: "512Mi" });\nnew wws.Pod("side", { image: "nginx:1.27" });\n`,
      );
      // The stream opens 1.5 s late: a watch that said "watching" before its stream was open missed
      // the row of a change made at once, and reported it later with no actor.
      await spec.service.ctl.setFaults({ latencyMs: 1500, pathPrefix: `/v1/tenants/${ws}/events` });
      const watch = startWatchProcess(stack, []);
      watchers.push(watch);
      await until("the watch to start", () => watch.status.some((l) => /watching 2 workloads/.test(l)));

      await changeLive(ops, "web", { memory: "1Gi" });
      const drift = await until("the pod's change", () => watch.findings.find((f) => f.kind === "drift"));
      expect(drift).toMatchObject({ resource: 'Pod "web"', actor: "ops-laptop" });
      expect(fieldsOf(drift)).toEqual([["memory", "512Mi", "1Gi"]]);

      // (A restart is not visible here: the spec's /status has no restartCount, so preview --refresh misses it too.)
      await spec.service.ctl.failWorkload(ws, "side", "image pull failed");
      const failed = await until("Failed", () => watch.findings.find((f) => f.kind === "failed"));
      expect(failed.message).toBe("image pull failed");
      await ops.deleteWorkload("side");
      await until("the delete", () => watch.findings.find((f) => f.kind === "deleted" && f.resource === 'Pod "side"'));
      await sleep(1000);
      expect(watch.findings.map((f) => f.kind).sort()).toEqual(["deleted", "drift", "failed"]);
      watch.proc.kill("SIGTERM");
      expect(await watch.exited).toBe(0);
    } finally {
      await spec.close();
    }
  });
});
