/**
 * `pulumi-wws watch` as a team's long-running service, through the real `pulumi` CLI and the local
 * service over HTTP: two projects in one process (one stream for the workspace they share); a stack
 * it cannot read named with the setting it needs; a SIGTERM to `npx` alone leaves no watch behind.
 */
import { execFile, execFileSync, spawn } from "node:child_process";
import * as fs from "node:fs";
import * as os from "node:os";
import * as path from "node:path";
import { ensureBuilt } from "../support/build";
import { pollUntil } from "../support/poll";
import { startWatchProcess, type WatchProcess } from "../support/watch-process";
import { changeLive, watchService, type WatchService } from "../support/watch-stack";
import { packedProject } from "../support/packed-install";

jest.setTimeout(4 * 60_000);

const until = <T>(what: string, check: () => T | undefined | false, timeoutMs = 30_000): Promise<T> =>
  pollUntil(check, { what, timeoutMs, intervalMs: 50 });

describe("pulumi-wws watch as a service", () => {
  let on: WatchService;
  const kept: Array<{ cleanup(): void }> = [];
  const watchers: WatchProcess[] = [];

  beforeAll(async () => {
    ensureBuilt();
    on = await watchService("watchsvc");
  });

  afterAll(async () => {
    for (const w of watchers) if (w.proc.exitCode === null) w.proc.kill("SIGKILL");
    kept.forEach((k) => k.cleanup());
    await on?.close();
  });

  /** A project of its own (own directory, backend and passphrase) with one pod, up, in the shared workspace. */
  async function project(name: string, pod: string) {
    const s = await on.stack(
      name,
      `const wws = require("pulumi-wws");\nnew wws.Pod("${pod}", { image: "nginx:1.27", memory: "256Mi" });\n`,
    );
    return { ...s, ws: on.ws.name };
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
    const { service, ops } = on;
    await service.ctl.resetCounters();
    const watch = startWatchProcess(a.stack, ["--config", config]);
    watchers.push(watch);
    await until("the watch to start", () =>
      watch.status.some((l) => /watching 2 workloads of stack wws-team-a\/local, wws-team-b\/local/.test(l)),
    );
    expect((await service.ctl.counters()).streams.byWorkspace[a.ws]).toBe(1);

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
  });

  it("names the setting a stack needs without its passphrase or its backend, and ends with npx when npx alone is killed", async () => {
    const a = await project("wws-team-c", "gamma");
    const { workDir, envVars } = a.stack.workspace;
    const main = path.join(workDir, "node_modules/pulumi-wws/dist/cli/main.js");
    const run = (env: NodeJS.ProcessEnv): Promise<{ code: number; err: string }> =>
      new Promise((resolve) =>
        execFile(
          process.execPath,
          [main, "watch", "--stack", "local"],
          { cwd: workDir, env, timeout: 120_000 },
          (e, _o, err) => resolve({ code: e ? Number((e as { code?: unknown }).code ?? 1) : 0, err }),
        ),
      );
    const env = { ...process.env, ...envVars };
    const noPassphrase = { ...env, PULUMI_CONFIG_PASSPHRASE: undefined, PULUMI_CONFIG_PASSPHRASE_FILE: undefined };
    const secrets = await run(noPassphrase);
    expect(secrets.code).toBe(1);
    expect(secrets.err).toMatch(
      /stack local: its secrets cannot be decrypted: set PULUMI_CONFIG_PASSPHRASE, or PULUMI_CONFIG_PASSPHRASE_FILE/,
    );
    const home = fs.mkdtempSync(path.join(os.tmpdir(), "wws-no-login-"));
    kept.push({ cleanup: () => fs.rmSync(home, { recursive: true, force: true }) });
    const backend = await run({
      ...env,
      PULUMI_BACKEND_URL: undefined,
      PULUMI_HOME: home,
      PULUMI_ACCESS_TOKEN: undefined,
    });
    expect(backend.code).toBe(1);
    expect(backend.err).toMatch(/stack local: its backend cannot be reached: set PULUMI_BACKEND_URL .*`pulumi login`/);

    // npx of the packed package, in a directory of its own, watching the project: SIGTERM to npx alone.
    const packed = await packedProject("wws-watch-npx-");
    kept.push(packed);
    const npx = spawn(
      "npx",
      ["--no-install", "pulumi-wws", "watch", "--json", "--project", workDir, "--stack", "local"],
      {
        cwd: packed.app,
        env: { ...env, PATH: `${path.dirname(process.execPath)}${path.delimiter}${env.PATH}` },
      },
    );
    const status: string[] = [];
    npx.stderr.on("data", (c: Buffer) => status.push(c.toString("utf8")));
    const npxExited = new Promise<number | string>((r) => npx.on("exit", (code, sig) => r(code ?? sig ?? -1)));
    await until("the watch through npx", () => /watching 1 workload/.test(status.join("")), 120_000);
    const ours = (): string[] =>
      execFileSync("ps", ["-eo", "pid=,args="], { encoding: "utf8" })
        .split("\n")
        .filter((l) => l.includes(packed.app) && l.includes("watch") && !l.includes("npm"));
    expect(ours().length).toBeGreaterThan(0);
    npx.kill("SIGTERM");
    const code = await npxExited;
    // npm ends with 128 + 15 (its own doing); the watch must not outlive it.
    await until("no watch left", () => ours().length === 0, 15_000);
    expect([143, "SIGTERM"]).toContain(code);
  });
});
