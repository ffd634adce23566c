/**
 * Credentials given as plain strings, under `--debug`, through the real `pulumi` CLI: a VM's and a
 * database's passwords written in the program as string literals, and the API key as a config
 * secret. `pulumi preview --debug` (the first half of an interactive `pulumi up --debug`),
 * `pulumi up --debug`, an update that changes the VM's password, and `pulumi refresh --debug` must
 * print none of them: every form the reliability suite looks for (raw, JSON-escaped, URL-encoded,
 * base64) is searched for in everything the CLI printed, every engine event (debug diagnostics
 * included), the state backend's files, `pulumi stack export` and the service's log.
 */
import { execFile } from "node:child_process";
import * as fs from "node:fs";
import * as path from "node:path";
import { promisify } from "node:util";
import { ensureBuilt, pulumiCommand } from "../e2e/harness";
import {
  fileProgramStack,
  filesUnder,
  runOp,
  secretHits,
  startRestartableService,
  type OpKind,
  type RestartableService,
} from "./cli-helpers";

const execFileAsync = promisify(execFile);
jest.setTimeout(3 * 60_000);
const OP_TIMEOUT_MS = 90_000;

const SECRETS = {
  apiKey: 'dbg-Key-"q"-5e7a90c1',
  vmFirst: 'vm-Debug-First-Pw "7"/+',
  vmSecond: "vm-Debug-Second-Pw\\8=",
  db: "db-Debug-Pw-ü-9+/",
} as const;

function program(vmPassword: string): string {
  return [
    `const wws = require("pulumi-wws");`,
    `new wws.VirtualMachine("vm", { os: "ubuntu", credentials: { username: "ops", password: ${JSON.stringify(vmPassword)} } });`,
    `new wws.Database("db", { engine: "postgres", network: { exposed: true }, credentials: { password: ${JSON.stringify(SECRETS.db)} } });`,
    ``,
  ].join("\n");
}

let service: RestartableService;
const serviceLog: string[] = [];

beforeAll(async () => {
  ensureBuilt();
  service = await startRestartableService({
    prefix: "reldbg",
    count: 1,
    keyFor: () => SECRETS.apiKey,
    service: { reconcileMs: 20, log: (l) => serviceLog.push(l) },
  });
});

afterAll(async () => {
  await service?.close();
});

it("should print no credential given as a plain string under --debug, in preview, up, an update or refresh", async () => {
  const ws = service.workspace();
  const file = await fileProgramStack("wws-rel-debug");
  const hits: string[] = [];
  const searched: string[] = [];
  try {
    await file.stack.setAllConfig({
      "wws:baseUrl": { value: service.url },
      "wws:workspace": { value: ws.name },
      "wws:apiKey": { value: ws.apiKey, secret: true },
    });
    const steps: Array<[OpKind, string]> = [
      ["preview", SECRETS.vmFirst],
      ["up", SECRETS.vmFirst],
      ["preview", SECRETS.vmSecond],
      ["up", SECRETS.vmSecond],
      ["refresh", SECRETS.vmSecond],
    ];
    for (const [kind, vmPassword] of steps) {
      file.setProgram(program(vmPassword));
      const o = await runOp(file.stack, kind, OP_TIMEOUT_MS, { debug: true });
      expect([kind, o.ok, o.error.slice(0, 2000)]).toEqual([kind, true, ""]);
      const where = `${kind} --debug`;
      // Debug output was on (a refresh does not run the program, whose SDK writes most of it).
      if (kind !== "refresh") expect(o.stdout).toMatch(/debug:/);
      hits.push(
        ...secretHits(`${where}: CLI output`, `${o.stdout}\n${o.stderr}`, SECRETS),
        ...secretHits(`${where}: engine events`, o.events.join("\n"), SECRETS),
      );
      if (vmPassword === SECRETS.vmSecond && kind !== "refresh") {
        // The new password is seen as a change of the VM (compared by digest), at preview and at up; the database stays.
        const ops = o.events
          .map(
            (e) =>
              (JSON.parse(e) as { resourcePreEvent?: { metadata: { urn: string; op: string } } }).resourcePreEvent
                ?.metadata,
          )
          .flatMap((m) => (m ? [`${m.urn.split("::").pop()} ${m.op}`] : []));
        expect(ops).toEqual(expect.arrayContaining(["vm update", "db same"]));
      }
      searched.push(`${where} (${o.stdout.length + o.stderr.length} chars printed, ${o.events.length} events)`);
    }
    const workDir = file.stack.workspace.workDir;
    const env: Record<string, string | undefined> = {
      ...process.env,
      ...(file.stack.workspace.envVars as Record<string, string>),
    };
    const exported = await execFileAsync((await pulumiCommand()).command, ["stack", "export", "--stack", "local"], {
      cwd: workDir,
      env,
    });
    hits.push(...secretHits("pulumi stack export", exported.stdout, SECRETS));
    const backend = (env.PULUMI_BACKEND_URL ?? "").replace(/^file:\/\//, "");
    for (const f of filesUnder(backend))
      hits.push(...secretHits(path.relative(backend, f), fs.readFileSync(f, "latin1"), SECRETS));
    hits.push(...secretHits("service log", serviceLog.join("\n"), SECRETS));
    searched.push(
      "pulumi stack export",
      `${filesUnder(backend).length} backend files`,
      `${serviceLog.length} service log lines`,
    );
  } finally {
    file.cleanup();
  }
  console.log(`--debug: searched ${searched.join("; ")}; hits: ${hits.length === 0 ? "none" : hits.join(", ")}`);
  expect(hits).toEqual([]);
});
