/**
 * A service that stops answering during `pulumi up`, through the real CLI and its language host
 * (Pulumi's official host too: `bash scripts/with-language-host.sh <its binary> npx jest <this file>`):
 * - killed while 5 pods are Pending, `up` fails once the service has given no answer for the
 *   unreachable window (`WWS_UNREACHABLE_TIMEOUT_SECONDS`, 20 s here), within the window plus
 *   30 s, keeping the pods in the state with init errors; once the service is back, the rerun
 *   converges by waiting again, with no workload sent again;
 * - down for less than the window (20 s against the 60 s default), `up` rides the outage out.
 */
import { fileProgramStack, runOp, sleep, startRestartableService } from "./cli-helpers";
import type { RestartableService } from "./cli-helpers";
import { ensureBuilt } from "../e2e/harness";

jest.setTimeout(5 * 60_000);
const OP_TIMEOUT_MS = 150_000;
const WINDOW_S = 20;
/** The promise: a dead service fails `up` within the window plus this. */
const GRACE_MS = 30_000;
const PODS = ["p1", "p2", "p3", "p4", "p5"];
const CREATE_ROUTE = "POST /v1/tenants/:name/workloads/:type";

let service: RestartableService;
const figures: string[] = [];
const cleanups: Array<() => void> = [];

beforeAll(async () => {
  ensureBuilt();
  service = await startRestartableService({ prefix: "reloutage", count: 2 });
});

afterAll(async () => {
  await service?.ctl.resumeReconciler().catch(() => undefined);
  for (const c of cleanups) c();
  await service?.close();
  console.log(`a service that stops answering during pulumi up:\n${figures.join("\n")}`);
});

async function podsStack(env: Record<string, string> = {}) {
  const ws = service.workspace();
  const file = await fileProgramStack("wws-rel-outage");
  cleanups.push(file.cleanup);
  Object.assign(file.stack.workspace.envVars, env);
  await file.stack.setAllConfig({
    "wws:baseUrl": { value: service.url },
    "wws:workspace": { value: ws.name },
    "wws:apiKey": { value: ws.apiKey, secret: true },
  });
  file.setProgram(
    `const wws = require("pulumi-wws");\n${PODS.map((p) => `new wws.Pod("${p}", { image: "nginx" });`).join("\n")}\n`,
  );
  return { ...file, ws, client: () => service.client(ws.name) };
}

type PodsStack = Awaited<ReturnType<typeof podsStack>>;

/** Starts `up` with the pods held Pending, and resolves once the service accepted all five. */
async function upWithPodsPending(s: PodsStack) {
  await service.ctl.pauseReconciler();
  const running = runOp(s.stack, "up", OP_TIMEOUT_MS);
  running.catch(() => undefined); // awaited by the caller
  const deadline = Date.now() + 60_000;
  while ((await s.client().getSpec()).workloads.length < PODS.length) {
    if (Date.now() > deadline) throw new Error("the creates were never accepted");
    await sleep(100);
  }
  await sleep(1_000); // the waits have begun
  return { running };
}

it("should fail up within the window plus 30 s when the service dies mid-wait, then converge without sending anything again", async () => {
  const s = await podsStack({ WWS_UNREACHABLE_TIMEOUT_SECONDS: String(WINDOW_S) });
  const { running } = await upWithPodsPending(s);
  const killed = Date.now();
  // Down until `up` has failed; the new process's reconciler is not paused.
  const back = service.restart(running);
  const first = await running;
  const failedAfterMs = Date.now() - killed;
  await back;
  expect(first.ok).toBe(false);
  expect(failedAfterMs).toBeLessThan(WINDOW_S * 1000 + GRACE_MS);
  expect(failedAfterMs).toBeGreaterThanOrEqual(WINDOW_S * 1000 - 1_000);
  expect(first.stdout).toMatch(
    new RegExp(
      `did not become ready: the service has not answered for ${WINDOW_S} s .*the next \`pulumi up\` waits for it again`,
    ),
  );
  const state = await s.stack.exportStack();
  const pods = (
    (state.deployment.resources ?? []) as Array<{ type: string; id?: string; initErrors?: string[] }>
  ).filter((r) => r.type.endsWith("wws:Pod"));
  expect(pods.map((p) => p.id).sort()).toEqual(PODS.map((id) => `${s.ws.name}/${id}`));
  expect(pods.every((p) => (p.initErrors ?? []).length > 0)).toBe(true);

  const rerun = await runOp(s.stack, "up", OP_TIMEOUT_MS);
  expect(rerun.ok).toBe(true);
  for (const id of PODS) expect((await s.client().getStatus(id)).phase).toBe("Running");
  const counters = await service.ctl.counters(); // since the restart
  expect(counters.requests.byRoute[CREATE_ROUTE] ?? 0).toBe(0);
  figures.push(
    `  killed with ${PODS.length} pods Pending, window ${WINDOW_S} s: up failed ${(failedAfterMs / 1000).toFixed(1)} s after the kill; ` +
      `rerun converged in ${(rerun.ms / 1000).toFixed(1)} s with ${counters.requests.byRoute[CREATE_ROUTE] ?? 0} creates sent`,
  );
});

it("should ride out an outage shorter than the default window", async () => {
  const s = await podsStack();
  const { running } = await upWithPodsPending(s);
  const downMs = 20_000;
  await service.restart(downMs);
  const up = await running;
  expect(up.ok).toBe(true);
  for (const id of PODS) expect((await s.client().getStatus(id)).phase).toBe("Running");
  figures.push(
    `  down ${downMs / 1000} s with ${PODS.length} pods Pending, default window (60 s): up converged in ${(up.ms / 1000).toFixed(1)} s`,
  );
});
