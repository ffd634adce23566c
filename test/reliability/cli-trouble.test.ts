/**
 * A service in trouble is never hammered, through the real `pulumi` CLI: the service answers 500
 * to every restart of one pod while its `/status` answers as usual. A `restartTrigger` change
 * under a 10 s budget used to send thousands of restart POSTs (each 500 read back, then sent again
 * at once; 25,888 in 33 s under 20 s in the field). Now each repeat waits the client's backoff, so
 * the budget holds a bounded number of them; the row says what the loop waits for; `up` fails
 * naming the status; and once the service recovers the rerun restarts the pod once.
 */
import { ensureBuilt } from "../e2e/harness";
import { fileProgramStack, runOp, startRestartableService, type RestartableService } from "./cli-helpers";

jest.setTimeout(3 * 60_000);
const OP_TIMEOUT_MS = 90_000;
const BUDGET_S = 10;
const RESTART_ROUTE = "POST /v1/tenants/:name/workloads/:id/restart";
const STATUS_ROUTE = "GET /v1/tenants/:name/workloads/:id/status";

let service: RestartableService;
const cleanups: Array<() => void> = [];

beforeAll(async () => {
  ensureBuilt();
  service = await startRestartableService({ prefix: "reltrouble", count: 1 });
});

afterAll(async () => {
  await service?.ctl.clearFaults().catch(() => undefined);
  for (const c of cleanups) c();
  await service?.close();
});

interface DiagEvent {
  urn?: string;
  message: string;
  ephemeral?: boolean;
}
const diagnosticsOf = (events: string[]): DiagEvent[] =>
  events
    .map((e) => JSON.parse(e) as { diagnosticEvent?: DiagEvent })
    .flatMap((e) => (e.diagnosticEvent ? [e.diagnosticEvent] : []));

it(`should send a bounded number of restarts in a ${BUDGET_S} s budget to a service that answers 500 to each, fail naming the status, and restart once when it recovers`, async () => {
  const ws = service.workspace();
  const id = `web-${process.pid}`;
  const file = await fileProgramStack("wws-rel-trouble");
  cleanups.push(file.cleanup);
  await file.stack.setAllConfig({
    "wws:baseUrl": { value: service.url },
    "wws:workspace": { value: ws.name },
    "wws:apiKey": { value: ws.apiKey, secret: true },
  });
  const program = (trigger: string): string =>
    `const wws = require("pulumi-wws");\nnew wws.Pod("web", { workloadId: "${id}", image: "nginx", restartTrigger: "${trigger}", readyTimeoutSeconds: ${BUDGET_S} });\n`;
  file.setProgram(program("1"));
  expect((await runOp(file.stack, "up", OP_TIMEOUT_MS)).ok).toBe(true);

  await service.ctl.setFaults({
    errorRate: 1,
    errorStatuses: [500],
    pathPrefix: `/v1/tenants/${ws.name}/workloads/${id}/restart`,
  });
  await service.ctl.resetCounters();
  file.setProgram(program("2"));
  const failed = await runOp(file.stack, "up", OP_TIMEOUT_MS);
  const byRoute = (await service.ctl.counters()).requests.byRoute;
  const restarts = byRoute[RESTART_ROUTE] ?? 0;
  const statusReads = byRoute[STATUS_ROUTE] ?? 0;
  console.log(
    `a service answering 500 to every restart, ${BUDGET_S} s budget: up failed after ${(failed.ms / 1000).toFixed(1)} s with ${restarts} restart POSTs and ${statusReads} status reads`,
  );
  expect(failed.ok).toBe(false);
  // The client's backoff (200 ms doubling to 5 s, full jitter) fits about ten in 10 s; unspaced, thousands.
  expect(restarts).toBeGreaterThanOrEqual(2);
  expect(restarts).toBeLessThanOrEqual(30);
  expect(statusReads).toBeLessThanOrEqual(60);
  expect(failed.stdout).toMatch(/restart workload .* failed: HTTP 500 internal: .*gave up after \d+ attempts/);
  const onRow = diagnosticsOf(failed.events).filter((d) => d.ephemeral && d.urn?.endsWith("wws:Pod::web"));
  expect(onRow.map((d) => d.message).join("\n")).toMatch(
    /update of pod .*: the restart got HTTP 500 and its status shows no restart: sending it again in .* \(attempt \d+, up to 10 s in all\)/,
  );

  await service.ctl.clearFaults();
  const before = (await service.client(ws.name).getStatus(id)).restartCount ?? 0;
  expect((await runOp(file.stack, "up", OP_TIMEOUT_MS)).ok).toBe(true);
  expect(((await service.client(ws.name).getStatus(id)).restartCount ?? 0) - before).toBe(1);
});
