/**
 * A workspace that no longer holds what the stack records, through the real `pulumi` CLI: the local
 * service restarted empty on its port (it keeps its state in memory unless --data-dir is given),
 * then a base URL moved to a fresh service. Preview says what is missing, once on the Stack row, and
 * the command that creates it again; after `pulumi up --refresh` the workloads run again; a base URL
 * pointed at a service that does not hold them plans an update that creates them there, and `up`
 * does. One stack, one run.
 */
import { randomBytes } from "node:crypto";
import type { RunningService } from "../../server";
import { WorkspaceClient } from "../../sdk";
import { Pod, Template } from "../../provider";
import { startTestService } from "../support/service";
import { ensureBuilt, newStack, type E2eStack } from "./harness";
import { runOp, type OpOutcome } from "../reliability/cli-helpers";

jest.setTimeout(5 * 60_000);
const OP_TIMEOUT_MS = 120_000;

const WORKSPACE = "lost";
const KEY = `lost-key-${randomBytes(8).toString("hex")}`;
const CONTROL = `lost-control-${randomBytes(6).toString("hex")}`;
const IDS = ["lost-web", "lost-api"];

/** A local service in memory (no data dir), on `port` (0: a free one), knowing the workspace's key. */
const serviceOn = (port = 0): Promise<RunningService> =>
  startTestService({ port, reconcileMs: 20, keys: { [WORKSPACE]: KEY }, controlToken: CONTROL });

/** The engine's diagnostics whose message includes `text`, each as where it was shown. */
function diagnostics(o: OpOutcome, text: string): string[] {
  return o.events
    .map((e) => (JSON.parse(e) as { diagnosticEvent?: { message: string; urn?: string } }).diagnosticEvent)
    .filter((d) => d?.message.includes(text))
    .map((d) => (d!.urn ? `on ${d!.urn}` : "on the Stack row"));
}

async function phases(url: string): Promise<Record<string, string | undefined>> {
  const client = new WorkspaceClient({ baseUrl: url, workspace: WORKSPACE, apiKey: KEY });
  try {
    return Object.fromEntries(await Promise.all(IDS.map(async (id) => [id, (await client.findStatus(id))?.phase])));
  } finally {
    await client.close();
  }
}

async function templateNames(url: string): Promise<string[]> {
  const client = new WorkspaceClient({ baseUrl: url, workspace: WORKSPACE, apiKey: KEY });
  try {
    return (await client.listTemplates()).map((t) => t.name);
  } finally {
    await client.close();
  }
}

describe("a workspace that lost what the stack records", () => {
  const services: RunningService[] = [];
  let s: E2eStack;
  beforeAll(async () => {
    ensureBuilt();
    services.push(await serviceOn());
    s = await newStack({
      program: async () => {
        for (const id of IDS) new Pod(id, { workloadId: id, image: "nginx:1.27" });
        new Template("lost-base", { name: "lost-base", kind: "browser", config: { browser: {} } });
      },
      config: {
        "wws:baseUrl": { value: services[0].url },
        "wws:workspace": { value: WORKSPACE },
        "wws:apiKey": { value: KEY, secret: true },
      },
      secrets: [KEY],
    });
  });
  afterAll(async () => {
    s?.cleanup();
    await Promise.all(services.map((x) => x.close().catch(() => undefined)));
  });

  it("should warn at preview, once, naming them and `pulumi up --refresh`, which runs them again; and create them on a new base URL", async () => {
    const first = await runOp(s.stack, "up", OP_TIMEOUT_MS);
    expect(first.error).toBe("");
    const url = services[0].url;
    expect(await phases(url)).toEqual({ "lost-web": "Running", "lost-api": "Running" });

    // Restarted on the same port, empty.
    const port = services[0].port;
    await services[0].close();
    services[0] = await serviceOn(port);
    const preview = await runOp(s.stack, "preview", OP_TIMEOUT_MS);
    expect(preview.error).toBe("");
    expect(diagnostics(preview, "no longer holds")).toEqual(["on the Stack row"]);
    // Named in the order the engine checked them.
    const named = new RegExp(
      `workspace ${WORKSPACE} at ${url.replace(/\./g, "\\.")} no longer holds 3 workloads and templates this stack records: ([^(]+\\(tpl_[0-9a-f]+\\)[^(]*) \\(was`,
    ).exec(preview.stdout.replace(/\s+/g, " "))?.[1];
    expect(named?.split(", ").sort()).toEqual([
      "pod lost-api",
      "pod lost-web",
      expect.stringMatching(/^template lost-base \(tpl_[0-9a-f]+\)$/),
    ]);
    expect(preview.stdout.replace(/\s+/g, " ")).toContain(
      "(was the service restarted without --data-dir, or were they deleted outside Pulumi?).",
    );
    expect(preview.stdout.replace(/\s+/g, " ")).toMatch(
      /Run `pulumi up --refresh`: its refresh drops them from the state and its update creates them again/,
    );

    const refreshed = await s.stack.up({ refresh: true });
    expect(refreshed.summary.result).toBe("succeeded");
    expect(await phases(url)).toEqual({ "lost-web": "Running", "lost-api": "Running" });
    expect(await templateNames(url)).toEqual(["lost-base"]);
    const clean = await runOp(s.stack, "preview", OP_TIMEOUT_MS);
    expect(diagnostics(clean, "no longer holds")).toEqual([]);

    // Another base URL, a fresh service that holds nothing: the update creates them there.
    services.push(await serviceOn());
    const fresh = services[1].url;
    await s.stack.setConfig("wws:baseUrl", { value: fresh });
    const moved = await runOp(s.stack, "preview", OP_TIMEOUT_MS);
    expect(moved.error).toBe("");
    for (const id of IDS)
      expect(moved.stdout.replace(/\s+/g, " ")).toContain(
        `pod ${id}: baseUrl changed, and workspace ${WORKSPACE} at ${fresh} does not hold it: \`pulumi up\` creates it there, as declared, and records the new value`,
      );
    expect(diagnostics(moved, "no longer holds")).toEqual([]);
    const up = await runOp(s.stack, "up", OP_TIMEOUT_MS);
    expect(up.error).toBe("");
    expect(await phases(fresh)).toEqual({ "lost-web": "Running", "lost-api": "Running" });
    const state = (await s.resources()).filter((r) => r.type.endsWith(":Pod"));
    expect(state.map((r) => [r.outputs?.baseUrl, r.outputs?.phase])).toEqual(IDS.map(() => [fresh, "Running"]));
  });
});
