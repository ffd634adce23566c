/**
 * `pulumi-wws watch --revert` as a user runs it, through the real `pulumi` CLI against the local
 * service over HTTP, in one stack (a pod with a secret repo, a pod, a VM, and a pod the stack only
 * reads): a revert puts back the stack's record or nothing, says "reverted" only once read back,
 * never acts on an edit not yet applied, a read resource or a user's own `up`, and leaves no lock
 * when stopped mid-revert; no secret in anything it prints.
 */
import * as fs from "node:fs";
import * as path from "node:path";
import type { Stack } from "@pulumi/pulumi/automation";
import { password } from "../e2e/harness";
import { ensureBuilt } from "../support/build";
import { filesUnder, secretHits, sleep } from "../reliability/cli-helpers";
import { pollUntil } from "../support/poll";
import type { Finding } from "../../watch";
import { startWatchProcess, type WatchProcess as Watcher } from "../support/watch-process";
import { changeLive, pulumiCli, upOk, watchService, type WatchService } from "../support/watch-stack";

jest.setTimeout(8 * 60_000);
const REVERT_TIMEOUT_MS = 120_000;

/** `pulumi-wws watch --json --revert` in the stack's directory: findings (stdout) and status lines (stderr). */
function startWatch(stack: Stack): Watcher {
  return startWatchProcess(stack, ["--revert"]);
}

const until = <T>(
  what: string,
  check: () => T | undefined | false | Promise<T | undefined | false>,
  timeoutMs = 30_000,
): Promise<T> => pollUntil(check, { what, timeoutMs, intervalMs: 100 });

interface Edits {
  webId?: string;
  apiMemory?: string;
}

function program(e: Edits = {}): string {
  return (
    `const pulumi = require("@pulumi/pulumi");\nconst wws = require("pulumi-wws");\nconst cfg = new pulumi.Config();\n` +
    `new wws.Pod("web", { workloadId: "${e.webId ?? "web"}", image: "nginx:1.27", memory: "512Mi", source: { repo: cfg.requireSecret("repo") } });\n` +
    `new wws.Pod("api", { image: "nginx:1.27", memory: "${e.apiMemory ?? "256Mi"}" });\n` +
    `new wws.VirtualMachine("vm", { os: "ubuntu", cpus: 1, credentials: { password: cfg.requireSecret("vmPassword") } });\n` +
    `wws.Pod.get("seen", cfg.require("extId"));\n`
  );
}

const of = (w: Watcher, resource: string, kind: Finding["kind"]): Finding | undefined =>
  w.findings.find((f) => f.resource === resource && f.kind === kind);

describe("pulumi-wws watch --revert", () => {
  /** The one workspace, shared by both cases (each stack manages workloads of its own ids). */
  let on: WatchService;
  const watchers: Watcher[] = [];

  beforeAll(async () => {
    ensureBuilt();
    on = await watchService("wrevert");
  });

  afterAll(async () => {
    for (const w of watchers) if (w.proc.exitCode === null) w.proc.kill("SIGKILL");
    await on?.service.ctl.resumeReconciler().catch(() => undefined);
    await on?.close();
  });

  it("puts back only the stack's record, says reverted only once read back, and leaves alone what it must", async () => {
    const { service, ws, ops } = on;
    await ops.upsertWorkload("pod", { id: "ext", image: "nginx:1.27", memory: "256Mi" });
    const vmPassword = password("vm");
    const repo = `https://tok-${password("repo")}@git.example/app`;
    const s = await on.stack("wws-revert", program(), {
      config: {
        "wws-revert:repo": { value: repo, secret: true },
        "wws-revert:vmPassword": { value: vmPassword, secret: true },
        "wws-revert:extId": { value: `${ws.name}/ext` },
      },
    });

    const live = async (id: string): Promise<Record<string, unknown> | undefined> =>
      (await ops.getSpec()).workloads.find((w) => w.id === id)?.spec;

    // 1. A revert that applies: the recorded value sent, read back, then "reverted"; the state and a
    // preview stay clean. The pod the stack only reads (`Pod.get`) is not watched: 3 workloads, not 4.
    const a = startWatch(s.stack);
    watchers.push(a);
    await until("the watch to start", () => a.status.some((l) => /watching 3 workloads/.test(l)), 60_000);
    const otherRepo = `https://tok-${password("live")}@git.example/app`;
    await changeLive(ops, "api", { memory: "1Gi" });
    await changeLive(ops, "ext", { memory: "512Mi" });
    await changeLive(ops, "web", { source: { repo: otherRepo } });
    await until(
      "both reverts",
      () => of(a, 'Pod "api"', "reverted") && of(a, 'Pod "web"', "reverted"),
      REVERT_TIMEOUT_MS,
    );
    expect(of(a, 'Pod "api"', "drift")?.fields).toEqual([
      { path: "memory", recorded: "256Mi", live: "1Gi", secret: false },
    ]);
    expect(of(a, 'Pod "api"', "reverted")?.message).toMatch(/^memory put back .*read back/);
    expect(of(a, 'Pod "web"', "drift")?.fields).toEqual([{ path: "source.repo", secret: true }]);
    expect(await live("api")).toMatchObject({ memory: "256Mi" });
    expect((await live("web"))?.source).toEqual({ repo });
    expect(await live("ext")).toMatchObject({ memory: "512Mi" });
    expect(a.findings.filter((f) => /seen|ext/.test(`${f.resource} ${f.id}`))).toEqual([]);
    const clean = await pulumiCli(s.stack, ["preview", "--expect-no-changes"]);
    expect(clean).toMatchObject({ code: 0 });
    a.proc.kill("SIGTERM");
    expect(await a.exited).toBe(0);
    expect(a.notJson).toEqual([]);

    // 2. An edit not yet applied (a new workloadId for web, a new VM password): neither is sent, and
    // the drift of each is "not reverted" with the reason.
    const b = startWatch(s.stack);
    watchers.push(b);
    await until("the watch to start", () => b.status.some((l) => /watching 3 workloads/.test(l)), 60_000);
    s.setProgram(program({ webId: "web-v2" }));
    const newPassword = password("uncommitted");
    await s.stack.setConfig("wws-revert:vmPassword", { value: newPassword, secret: true });
    await changeLive(ops, "web", { memory: "1Gi" });
    await changeLive(ops, "vm", { cpus: 2 });
    const [web, vm] = await until(
      "both refusals",
      () => {
        const found = [of(b, 'Pod "web"', "revert-refused"), of(b, 'VirtualMachine "vm"', "revert-refused")];
        return found.every(Boolean) && found;
      },
      REVERT_TIMEOUT_MS,
    );
    expect(web?.message).toMatch(/would change it \(.*workloadId.*\), an edit not yet applied/);
    expect(vm?.message).toMatch(/would change it \(.*credentials.*\), an edit not yet applied/);
    expect(vm?.message).toContain("pulumi up --refresh --target");
    expect(await live("web")).toMatchObject({ memory: "1Gi" });
    expect(await live("web-v2")).toBeUndefined();
    expect(await live("vm")).toMatchObject({ cpus: 2 });
    const logins = fs.readFileSync(path.join(service.dataDir, "secrets.json"), "utf8");
    expect(logins).toContain(vmPassword);
    expect(logins).not.toContain(newPassword);
    expect(b.findings.filter((f) => f.kind === "reverted")).toEqual([]);
    b.proc.kill("SIGTERM");
    expect(await b.exited).toBe(0);

    // 3. SIGTERM while a revert waits for its update (the reconciler paused): it ends at once, and
    // no lock is left on the stack.
    s.setProgram(program());
    await s.stack.setConfig("wws-revert:vmPassword", { value: vmPassword, secret: true });
    await service.ctl.pauseReconciler();
    const c = startWatch(s.stack);
    watchers.push(c);
    await until(
      "a revert's update sent",
      async () => (await live("web"))?.memory === "512Mi" || (await live("vm"))?.cpus === 1,
      REVERT_TIMEOUT_MS,
    );
    const stoppedAt = Date.now();
    c.proc.kill("SIGTERM");
    expect(await c.exited).toBe(0);
    // Far below the update's own wait (10 min): it was cancelled, not waited out.
    expect(Date.now() - stoppedAt).toBeLessThan(60_000);
    await service.ctl.resumeReconciler();
    expect(c.findings.filter((f) => f.kind === "reverted")).toEqual([]);
    const backend = s.stack.workspace.envVars.PULUMI_BACKEND_URL.slice("file://".length);
    expect(filesUnder(path.join(backend, ".pulumi", "locks"))).toEqual([]);

    // 4. A user's own `up` that applies the outside change is not "put back"; the other drift is
    // reverted meanwhile (and the `up` proves the stack is not locked).
    const d = startWatch(s.stack);
    watchers.push(d);
    await until(
      "the drift left reverted",
      async () => (await live("web"))?.memory === "512Mi" && (await live("vm"))?.cpus === 1,
      REVERT_TIMEOUT_MS,
    );
    s.setProgram(program({ apiMemory: "384Mi" }));
    await changeLive(ops, "api", { memory: "384Mi" });
    await upOk(s.stack);
    // Time for a revert of it to have been tried: an outside change is compared within a second.
    await sleep(5000);
    expect(d.findings.filter((f) => f.kind === "reverted" && f.resource === 'Pod "api"')).toEqual([]);
    expect(await live("api")).toMatchObject({ memory: "384Mi" });
    d.proc.kill("SIGTERM");
    expect(await d.exited).toBe(0);

    // No secret in anything the watches printed.
    const printed = JSON.stringify(watchers.map((w) => [w.findings, w.status]));
    expect(
      secretHits("watch output", printed, {
        repo,
        otherRepo,
        vmPassword,
        newPassword,
        stackKey: on.keys.stack,
        opsKey: on.keys.ops,
      }),
    ).toEqual([]);
  });

  it("names the person who changes a workload during a revert, never the revert's own update", async () => {
    const { service, ws, ops } = on;
    const s = await on.stack(
      "wws-revert-actor",
      `const wws = require("pulumi-wws");\n` +
        `new wws.Pod("a", { image: "nginx:1.27", memory: "256Mi" });\n` +
        `new wws.Pod("b", { image: "nginx:1.27", memory: "256Mi" });\n`,
    );
    const w = startWatch(s.stack);
    watchers.push(w);
    await until("the watch to start", () => w.status.some((l) => /watching 2 workloads/.test(l)), 60_000);
    const drift = (id: string, memory: string) =>
      w.findings.find((f) => f.kind === "drift" && f.id.endsWith(`/${id}`) && f.fields?.[0]?.live === memory);
    // 1. During a revert's preview: a change of the same workload and one of another.
    await changeLive(ops, "a", { memory: "1Gi" });
    await until("a's drift", () => drift("a", "1Gi"));
    await changeLive(ops, "a", { memory: "2Gi" });
    await changeLive(ops, "b", { memory: "1Gi" });
    await until("a's revert", () => of(w, 'Pod "a"', "reverted"), REVERT_TIMEOUT_MS);
    // 2. Just after the revert of b sends its update (the stack's key: its row names "api"): reads
    // are slowed, so that the comparison its row asks for sees the next change by ops-laptop.
    await service.ctl.setFaults({ latencyMs: 3000, methods: ["GET"] });
    await until(
      "b's revert sent",
      async () => (await service.ctl.workload(ws.name, "b"))?.spec.memory === "256Mi",
      REVERT_TIMEOUT_MS,
    );
    await ops.upsertWorkload("pod", { id: "b", image: "nginx:1.27", memory: "512Mi" });
    await until("b's second drift", () => drift("b", "512Mi"), REVERT_TIMEOUT_MS);
    await service.ctl.clearFaults();
    const actors = ["a:1Gi", "a:2Gi", "b:1Gi", "b:512Mi"].map(
      (c) => `${c} by ${drift(...(c.split(":") as [string, string]))?.actor}`,
    );
    expect(actors).toEqual([
      "a:1Gi by ops-laptop",
      "a:2Gi by ops-laptop",
      "b:1Gi by ops-laptop",
      "b:512Mi by ops-laptop",
    ]);
    expect(w.findings.filter((f) => f.actor !== "ops-laptop")).toEqual([]);
    w.proc.kill("SIGTERM");
    expect(await w.exited).toBe(0);
  });
});
