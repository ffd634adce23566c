/**
 * What `pulumi up` shows, and one Ctrl-C, through the real CLI and its language host (to check
 * Pulumi's official host too: `bash scripts/with-language-host.sh <its binary> npx jest <this file>`):
 * - each wait's status is on its own workload's row (an ephemeral engine log event on its URN),
 *   never a diagnostic on the Stack, and a plain create leaves no Diagnostics section; no status
 *   is empty (an event consumer filters nothing); a delete's wait shows on its row too, but for the
 *   delete that loads the provider in its process (the first, deletes going one at a time), which
 *   is named on the Stack row; a first
 *   `restartTrigger` says at preview that it restarts nothing;
 * - one SIGINT ends `up` within 15 s: the provider hears the engine's Cancel, its waits end,
 *   every accepted workload stays in the state (with init errors), no provider process is left,
 *   and the next `up` converges.
 */
import { fileProgramStack, ownPulumiChildren, runOp, sleep, startRestartableService } from "./cli-helpers";
import type { RestartableService } from "./cli-helpers";
import { ensureBuilt } from "../e2e/harness";
import { providerProcessesOf, untilGone } from "./process-tree";

jest.setTimeout(4 * 60_000);
const OP_TIMEOUT_MS = 120_000;
/** The promise of the issue: one Ctrl-C ends the run within about 15 s. */
const SIGINT_EXIT_BOUND_MS = 15_000;

let service: RestartableService;
const figures: string[] = [];
const cleanups: Array<() => void> = [];

beforeAll(async () => {
  ensureBuilt();
  // Each phase step takes 300 ms: a wait lasts long enough to be seen on its row.
  service = await startRestartableService({ prefix: "relprog", count: 2, service: { reconcileMs: 300 } });
});

afterAll(async () => {
  await service?.ctl.resumeReconciler().catch(() => undefined);
  for (const c of cleanups) c();
  await service?.close();
  console.log(`progress and Ctrl-C:\n${figures.join("\n")}`);
});

async function podsStack(count: number) {
  const ws = service.workspace();
  const file = await fileProgramStack("wws-rel-progress");
  cleanups.push(file.cleanup);
  await file.stack.setAllConfig({
    "wws:baseUrl": { value: service.url },
    "wws:workspace": { value: ws.name },
    "wws:apiKey": { value: ws.apiKey, secret: true },
  });
  file.setProgram(
    `const wws = require("pulumi-wws");\nfor (let i = 1; i <= ${count}; i++) new wws.Pod("p" + i, { image: "nginx" });\n`,
  );
  return { ...file, ws, client: service.client(ws.name) };
}

interface DiagEvent {
  urn?: string;
  message: string;
  severity: string;
  ephemeral?: boolean;
}
const diagnosticsOf = (events: string[]): DiagEvent[] =>
  events
    .map((e) => JSON.parse(e) as { diagnosticEvent?: DiagEvent })
    .flatMap((e) => (e.diagnosticEvent ? [e.diagnosticEvent] : []));

describe("pulumi up of workloads", () => {
  it("should show each wait on its workload's own row, and leave Diagnostics empty", async () => {
    const s = await podsStack(10);
    const up = await runOp(s.stack, "up", OP_TIMEOUT_MS);
    expect(up.ok).toBe(true);
    const diags = diagnosticsOf(up.events);
    const onRows = diags.filter((d) => d.urn?.endsWith("pulumi-nodejs:dynamic/wws:Pod::p3"));
    expect(onRows.length).toBeGreaterThan(0);
    expect(onRows.every((d) => d.ephemeral === true)).toBe(true);
    expect(onRows.map((d) => d.message).join("\n")).toMatch(
      /waiting to be ready: (Pending|Provisioning), \d+ s of 10 m/,
    );
    // Nothing of ours as a lasting diagnostic: no Stack line per wait, nothing repeated at the end.
    const lasting = diags.filter((d) => d.severity !== "debug" && !d.ephemeral);
    expect(lasting.filter((d) => /wws|waiting|Running/.test(d.message))).toEqual([]);
    expect(up.stdout).not.toContain("Diagnostics:");
    const lines = up.stdout.split("\n").filter((l) => l.trim() !== "").length;
    const ours = diags.filter((d) => d.ephemeral).length;
    // Nothing empty to filter; each row's last status says how its wait ended.
    expect(diags.filter((d) => d.ephemeral && d.message.trim() === "")).toEqual([]);
    expect(onRows.at(-1)?.message).toMatch(/^ready after \d+ s\n$/);
    figures.push(
      `pulumi up of 10 pods: ${lines} lines of output; ${ours} ephemeral status events, ${lasting.length} lasting`,
    );

    // A first restartTrigger previews as an update: the preview says that it restarts nothing.
    s.setProgram(
      `const wws = require("pulumi-wws");\nfor (let i = 1; i <= 10; i++) new wws.Pod("p" + i, { image: "nginx", restartTrigger: i === 1 ? "v1" : undefined });\n`,
    );
    const preview = await runOp(s.stack, "preview", OP_TIMEOUT_MS);
    expect(preview.stdout).toMatch(
      /pod p1: restartTrigger is set for the first time: the update records its value and restarts nothing/,
    );

    // One delete at a time: the design's promise can then be asserted exactly (see below).
    const destroy = await runOp(s.stack, "destroy", OP_TIMEOUT_MS, { parallel: 1 });
    expect(destroy.ok).toBe(true);
    const gone = diagnosticsOf(destroy.events).filter((d) => d.ephemeral && /gone/.test(d.message));
    const podOf = (d: DiagEvent) => /wws:Pod::(p\d+)$/.exec(d.urn ?? "")?.[1] ?? /pod (p\d+) in/.exec(d.message)?.[1];
    expect(new Set(gone.map(podOf)).size).toBe(10);
    expect(gone.filter((d) => d.message.trim() === "")).toEqual([]);
    // A Delete RPC that reached the host before the provider was loaded cannot be read: the provider
    // loads with the first one, whose wait goes on the Stack row, naming its pod. Every later Delete
    // (one at a time here) finds the hook in place, and its wait is on its own row.
    const onStack = gone.filter((d) => !d.urn);
    expect(new Set(onStack.map(podOf)).size).toBe(1);
    expect(new Set(gone.filter((d) => d.urn).map(podOf)).size).toBe(9);
    expect(
      onStack.every((d) => /^wws: pod p\d+ in workspace \S+: (waiting to be gone|gone after)/.test(d.message)),
    ).toBe(true);
    figures.push(
      `pulumi destroy of 10 pods: ${10 - new Set(onStack.map(podOf)).size} of 10 delete waits on their own rows`,
    );
  });

  it("should end on one Ctrl-C within 15 s, keep every accepted workload, leave no process, and converge on the next up", async () => {
    const s = await podsStack(3);
    await service.ctl.pauseReconciler(); // the pods stay Pending: every wait is in flight
    try {
      const abort = new AbortController();
      let output = "";
      const running = s.stack.up({ signal: abort.signal, onOutput: (t) => (output += t) }).then(
        () => "finished",
        (err: unknown) => `failed: ${String(err)}`,
      );
      const deadline = Date.now() + 60_000;
      while ((await s.client.getSpec()).workloads.length < 3) {
        if (Date.now() > deadline) throw new Error(`the creates were never accepted:\n${output}`);
        await sleep(100);
      }
      await sleep(1_000); // the waits have begun
      const [cli] = ownPulumiChildren();
      const providers = providerProcessesOf(cli);
      expect(providers.length).toBeGreaterThan(0);
      const interrupted = Date.now();
      abort.abort(); // the Automation API's abort: one SIGINT to the CLI, as one Ctrl-C
      const outcome = await running;
      const tookMs = Date.now() - interrupted;
      figures.push(`one SIGINT during the waits of 3 creates: pulumi exited after ${tookMs} ms`);
      expect(outcome).toMatch(/^failed/);
      expect(tookMs).toBeLessThan(SIGINT_EXIT_BOUND_MS);
      expect(output).toMatch(/cancelled \(Ctrl-C\) while it waited/);
      expect(await untilGone(providers, 5_000)).toBeDefined();
      const state = await s.stack.exportStack();
      const pods = (
        (state.deployment.resources ?? []) as Array<{ type: string; id?: string; initErrors?: string[] }>
      ).filter((r) => r.type.endsWith("wws:Pod"));
      expect(pods.map((p) => p.id).sort()).toEqual(["p1", "p2", "p3"].map((id) => `${s.ws.name}/${id}`));
      expect(pods.every((p) => (p.initErrors ?? []).length > 0)).toBe(true);
    } finally {
      await service.ctl.resumeReconciler();
    }
    const rerun = await runOp(s.stack, "up", OP_TIMEOUT_MS);
    expect(rerun.ok).toBe(true);
    const spec = await s.client.getSpec();
    expect(spec.workloads.map((w) => w.id).sort()).toEqual(["p1", "p2", "p3"]);
    for (const id of ["p1", "p2", "p3"]) expect((await s.client.getStatus(id)).phase).toBe("Running");
  });
});
