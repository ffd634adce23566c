/**
 * `pulumi-wws watch` as a team's long-running service, through the real `pulumi` CLI and the local
 * service over HTTP: two projects in one process (one stream for the workspace they share).
 */
import * as fs from "node:fs";
import * as path from "node:path";
import { WorkspaceClient } from "../../sdk";
import { ensureBuilt } from "../support/build";
import { fileProgramStack, startRestartableService, type RestartableService } from "../reliability/cli-helpers";
import { pollUntil } from "../support/poll";
import { startWatchProcess, type WatchProcess } from "../support/watch-process";
import { changeLive, upOk } from "../support/watch-stack";

jest.setTimeout(4 * 60_000);
const STACK_KEY = `watch-svc-stack-key-${Date.now()}`;
const OPS_KEY = `watch-svc-ops-key-${Date.now()}`;

const until = <T>(what: string, check: () => T | undefined | false, timeoutMs = 30_000): Promise<T> =>
  pollUntil(check, { what, timeoutMs, intervalMs: 50 });

describe("pulumi-wws watch as a service", () => {
  let service: RestartableService;
  let ws: { name: string; apiKey: string };
  const kept: Array<{ cleanup(): void }> = [];
  const watchers: WatchProcess[] = [];

  beforeAll(async () => {
    ensureBuilt();
    service = await startRestartableService({
      prefix: "watchsvc",
      count: 1,
      keyFor: () => STACK_KEY,
      service: { keys: { "watchsvc-1": [{ key: STACK_KEY }, { key: OPS_KEY, label: "ops-laptop" }] } },
    });
    ws = service.workspace();
  });

  afterAll(async () => {
    for (const w of watchers) if (w.proc.exitCode === null) w.proc.kill("SIGKILL");
    kept.forEach((k) => k.cleanup());
    await service?.close();
  });

  /** A project of its own (own directory, backend and passphrase) with one pod, up, in the shared workspace. */
  async function project(name: string, pod: string) {
    const s = await fileProgramStack(name);
    kept.push(s);
    await s.stack.setAllConfig({
      "wws:baseUrl": { value: service.url },
      "wws:workspace": { value: ws.name },
      "wws:apiKey": { value: ws.apiKey, secret: true },
    });
    s.setProgram(
      `const wws = require("pulumi-wws");\nnew wws.Pod("${pod}", { image: "nginx:1.27", memory: "256Mi" });\n`,
    );
    await upOk(s.stack);
    return { ...s, ws: ws.name };
  }

  it("watches two projects in one process, with one event stream for the workspace they share", async () => {
    const [a, b] = [await project("wws-team-a", "alpha"), await project("wws-team-b", "beta")];
    // The second project from a config file, with its own backend and passphrase; the first is the working directory's.
    const config = path.join(path.dirname(b.stack.workspace.workDir), "watch.json");
    const { PULUMI_BACKEND_URL, PULUMI_CONFIG_PASSPHRASE } = b.stack.workspace.envVars;
    fs.writeFileSync(
      config,
      JSON.stringify({
        projects: [{ dir: "project", stacks: ["local"], env: { PULUMI_BACKEND_URL, PULUMI_CONFIG_PASSPHRASE } }],
      }),
    );
    await service.ctl.resetCounters();
    const watch = startWatchProcess(a.stack, ["--config", config]);
    watchers.push(watch);
    await until("the watch to start", () =>
      watch.status.some((l) => /watching 2 workloads of stack wws-team-a\/local, wws-team-b\/local/.test(l)),
    );
    expect((await service.ctl.counters()).streams.byWorkspace[a.ws]).toBe(1);

    const ops = new WorkspaceClient({ baseUrl: service.url, workspace: a.ws, apiKey: OPS_KEY });
    await changeLive(ops, "alpha", { memory: "1Gi" });
    await changeLive(ops, "beta", { memory: "2Gi" });
    await until("both changes", () => watch.findings.length >= 2);
    const seen = watch.findings.map((f) => [f.stack, f.resource, f.kind, f.actor, f.fields?.[0]?.live]).sort();
    expect(seen).toEqual([
      ["wws-team-a/local", 'Pod "alpha"', "drift", "ops-laptop", "1Gi"],
      ["wws-team-b/local", 'Pod "beta"', "drift", "ops-laptop", "2Gi"],
    ]);
    watch.proc.kill("SIGTERM");
    expect(await watch.exited).toBe(0);
    expect(watch.notJson).toEqual([]);
    await ops.close();
  });
});
