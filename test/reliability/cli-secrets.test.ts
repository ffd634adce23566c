/**
 * Secrets through the real `pulumi` CLI: VM and database passwords given as stack config secrets
 * and as plain strings, the API key as a config secret, through `up`, a failing preview (a password
 * given as a number among its failures; every type and field is unit-tested in
 * test/provider/inputs/secret-echo.test.ts), an update
 * that changes a VM's password, `refresh`, adoption (`adopt: true`) and `destroy`. After every
 * operation each secret, raw, JSON-escaped, URL-encoded and base64 (every alignment), is looked for
 * in every file of the state backend and the project's stack config, `pulumi stack export`
 * (without --show-secrets), `pulumi stack output --json`, everything the CLI printed and every
 * engine event (the provider's console output arrives as those), and the service's log lines.
 */
import { execFile } from "node:child_process";
import * as fs from "node:fs";
import * as os from "node:os";
import * as path from "node:path";
import { promisify } from "node:util";
import * as pulumi from "@pulumi/pulumi";
import * as wws from "../../index";
import { configuredStack, ensureBuilt, pulumiCommand, type E2eStack } from "../e2e/harness";
import {
  base64Forms,
  filesUnder,
  runOp,
  secretForms,
  secretHits,
  startRestartableService,
  type OpKind,
  type OpOutcome,
  type RestartableService,
} from "./cli-helpers";

const execFileAsync = promisify(execFile);
jest.setTimeout(180_000);
const OP_TIMEOUT_MS = 120_000;

/** Every secret of the test: distinctive, with characters JSON, URLs and base64 treat apart. */
const SECRETS = {
  apiKey: 'cli-Key-"q"\\b/+=-7c3e91d2',
  vmConfigFirst: 'vm-Config-"First"\\Pw/ü+1',
  vmConfigSecond: "vm-Config-Second-Pw<&>ü=2",
  vmPlainFirst: 'vm-Plain-First-Pw "spaced" 3',
  vmPlainSecond: "vm-Plain-Second-Pw\\4/",
  dbConfig: 'db-Config-Pw-ü-"5"',
  dbPlain: "db-Plain-Pw+/=6",
  outOfBand: 'vm-OutOfBand-Pw-"7"',
  adopted: "vm-Adopted-Pw-\\8/ü",
  checkFailure: 'vm-CheckFailure-Pw-9"',
  // A password given as a number: a failing check never prints it.
  checkNumber: "918273645017",
} as const;

interface Step {
  /** The VM passwords the program declares now. */
  vmConfig: "first" | "second";
  vmPlain: string;
  adopt: boolean;
  /** A VM with an unknown field inside its credentials: the preview's check fails. */
  broken: boolean;
}

const step: Step = { vmConfig: "first", vmPlain: SECRETS.vmPlainFirst, adopt: false, broken: false };

async function program(): Promise<Record<string, unknown>> {
  const cfg = new pulumi.Config();
  const vmConfig = new wws.VirtualMachine("vm-config", {
    os: "ubuntu",
    credentials: { username: "ops", password: cfg.requireSecret("vmPassword") },
  });
  const vmPlain = new wws.VirtualMachine("vm-plain", {
    os: "windows",
    credentials: { username: "admin", password: step.vmPlain },
  });
  const dbConfig = new wws.Database("db-config", {
    engine: "postgres",
    network: { exposed: true },
    credentials: { password: cfg.requireSecret("dbPassword") },
  });
  const dbPlain = new wws.Database("db-plain", { engine: "redis", credentials: { password: SECRETS.dbPlain } });
  if (step.adopt)
    new wws.VirtualMachine("legacy", { os: "ubuntu", adopt: true, credentials: { password: SECRETS.adopted } });
  if (step.broken)
    // The engine stops at the first resource whose check fails: one resource, two failures.
    new wws.VirtualMachine("broken", {
      os: "ubuntu",
      credentials: { password: Number(SECRETS.checkNumber), token: SECRETS.checkFailure } as never,
    });
  return {
    phases: { vmConfig: vmConfig.phase, vmPlain: vmPlain.phase, dbConfig: dbConfig.phase, dbPlain: dbPlain.phase },
    dbUri: dbConfig.connectionUri,
    // Outputs that hold a password on purpose: they must stay secret in every output.
    vmCredentials: (vmConfig as unknown as { credentials: pulumi.Output<unknown> }).credentials,
    dbPassword: cfg.requireSecret("dbPassword"),
  };
}

let service: RestartableService;
let s: E2eStack & { ws: { name: string; apiKey: string }; client: ReturnType<RestartableService["client"]> };
const serviceLog: string[] = [];
const searched = new Map<string, number>(); // place → times searched
const figures: string[] = [];
let operations = 0;
let providerLines = 0;

beforeAll(async () => {
  ensureBuilt();
  service = await startRestartableService({
    prefix: "relsec",
    count: 1,
    keyFor: () => SECRETS.apiKey,
    service: { reconcileMs: 20, log: (line) => serviceLog.push(line) },
  });
  // wws:apiKey a config secret (configuredStack), the passwords config secrets or plain strings.
  s = await configuredStack(service, program, Object.values(SECRETS));
  await s.stack.setAllConfig({
    vmPassword: { value: SECRETS.vmConfigFirst, secret: true },
    dbPassword: { value: SECRETS.dbConfig, secret: true },
  });
});

afterAll(async () => {
  s?.cleanup();
  await service?.close();
  console.log(
    `secrets through the CLI: ${Object.keys(SECRETS).length} secrets (${Object.keys(SECRETS).join(", ")}), ${operations} operations; ` +
      `places searched (times): ${[...searched.entries()].map(([p, n]) => `${p} (${n})`).join(", ")}; ` +
      `provider lines seen in the CLI output: ${providerLines}; service log lines: ${serviceLog.length}; hits: 0\n${figures.join("\n")}\n` +
      `  among them (@pulumi/pulumi debug logging): ${sdkDebugLines} "RegisterResource RPC finished" debug events, holding ${[...sdkDebugHits].sort().join(", ") || "no secret"}`,
  );
});

/** Runs `pulumi <args>` of the stack as a user would, returning what it printed. */
async function cli(args: string[]): Promise<string> {
  const cmd = await pulumiCommand();
  const env = { ...process.env, ...(s.stack.workspace.envVars as Record<string, string>) };
  const { stdout, stderr } = await execFileAsync(cmd.command, [...args, "--stack", s.stack.name], {
    cwd: s.workDir,
    env,
    maxBuffer: 64 * 1024 * 1024,
  });
  return `${stdout}\n${stderr}`;
}

const cliOutputs: string[] = [];

/** Every place a secret could have been left, searched for every secret in every form. */
async function searchEverywhere(after: string): Promise<void> {
  const places: Array<[string, string]> = [];
  const add = (where: string, text: string): void => {
    places.push([where, text]);
    searched.set(where, (searched.get(where) ?? 0) + 1);
  };
  const backendFiles = filesUnder(s.backendDir);
  expect(backendFiles.some((f) => f.endsWith(path.join("stacks", "wws-e2e", "e2e.json")))).toBe(true); // the checkpoint is among them
  for (const f of backendFiles) places.push([path.relative(s.backendDir, f), fs.readFileSync(f, "latin1")]);
  searched.set("state backend files", (searched.get("state backend files") ?? 0) + 1);
  for (const f of filesUnder(s.workDir).filter((f) => /Pulumi\..*ya?ml$/.test(f)))
    add(`project ${path.basename(f)}`, fs.readFileSync(f, "latin1"));
  const home = path.join(os.homedir(), ".pulumi", "workspaces");
  for (const f of filesUnder(home)) places.push([f, fs.readFileSync(f, "latin1")]);
  searched.set("~/.pulumi/workspaces", (searched.get("~/.pulumi/workspaces") ?? 0) + 1);
  const exported = await cli(["stack", "export"]);
  add("pulumi stack export", exported);
  const outputs = await cli(["stack", "output", "--json"]);
  add("pulumi stack output --json", outputs);
  cliOutputs.push(exported, outputs);
  add(
    "CLI stdout/stderr and engine events, @pulumi/pulumi's RegisterResource debug lines and the provider's output included",
    cliOutputs.join("\n"),
  );
  add("service log lines", serviceLog.join("\n"));
  const hits = places.flatMap(([where, text]) => secretHits(where, text, SECRETS));
  expect([after, hits]).toEqual([after, []]);
  // The harness's own search too: `stack.exportStack()` (decrypted) outside values marked secret.
  await s.assertNoPlaintext();
}

/**
 * `@pulumi/pulumi` (3.259.0 and 3.270.0 alike) logs every RegisterResource response of the program
 * at debug level, secret values in clear. They reach the engine's event stream as debug
 * diagnostics (and stdout with `--debug`). Since outputs keep no password and a preview registers
 * none (provider/dynamic/credentials/digest.ts) they are searched like everything else; they are
 * also counted, and their hits reported apart.
 */
function isSdkRegisterDebugLine(event: string): boolean {
  const d = (JSON.parse(event) as { diagnosticEvent?: { severity?: string; message?: string } }).diagnosticEvent;
  return d?.severity === "debug" && /^RegisterResource RPC finished: /.test(d.message ?? "");
}
let sdkDebugLines = 0;
const sdkDebugHits = new Set<string>();

/** One operation (bounded), its output kept for the search, then the search. */
async function op(kind: OpKind, what: string): Promise<OpOutcome> {
  const o = await runOp(s.stack, kind, OP_TIMEOUT_MS);
  operations++;
  const sdkDebug = o.events.filter(isSdkRegisterDebugLine);
  sdkDebugLines += sdkDebug.length;
  for (const e of sdkDebug)
    for (const h of secretHits("debug event", e, SECRETS)) sdkDebugHits.add(h.replace(/ \(.*$/, ""));
  cliOutputs.push(o.stdout, o.stderr, o.error, ...o.events);
  providerLines += o.events.filter((e) => e.includes("to be ready: ") || e.includes("wws: ")).length;
  figures.push(`  ${what}: ${kind} ${o.ok ? "succeeded" : "failed"} in ${(o.ms / 1000).toFixed(1)} s`);
  await searchEverywhere(what);
  return o;
}

it("should find a secret in each form it looks for, wherever it sits in a longer text", () => {
  for (const secret of Object.values(SECRETS)) {
    for (const prefix of ["", "a", "ab", "abc"]) {
      const text = `${prefix}${secret}~tail`;
      expect([
        secret,
        prefix,
        base64Forms(secret).some((f) => Buffer.from(text).toString("base64").includes(f)),
      ]).toEqual([secret, prefix, true]);
      expect(secretForms(secret).some((f) => Buffer.from(text).toString("base64url").includes(f))).toBe(true);
    }
    expect(secretHits("json", JSON.stringify({ v: `x${secret}y` }), { s: secret })).not.toEqual([]);
    expect(secretHits("json twice", JSON.stringify(JSON.stringify({ v: secret })), { s: secret })).not.toEqual([]);
  }
});

const secretsFile = (): string => fs.readFileSync(path.join(service.dataDir, "secrets.json"), "utf8");

it("should create VMs and databases with passwords from config secrets and plain strings, leaving none in plaintext", async () => {
  const up = await op("up", "create");
  expect(up.ok).toBe(true);
  expect(up.outputs.phases).toEqual({
    vmConfig: "Running",
    vmPlain: "Running",
    dbConfig: "Running",
    dbPlain: "Running",
  });
  // The passwords did reach the service (which keeps them apart, in its secrets file): the search
  // would find them there, so it can find them.
  for (const k of ["vmConfigFirst", "vmPlainFirst", "dbConfig", "dbPlain"] as const)
    expect([k, secretsFile().includes(JSON.stringify(SECRETS[k]).slice(1, -1))]).toEqual([k, true]);
  expect(secretHits("service secrets file", secretsFile(), SECRETS).length).toBeGreaterThanOrEqual(4);
  // The provider's progress (statuses on each workload's row) reached the CLI (so it was searched).
  expect(up.events.some((e) => /waiting to be ready: \w+, \d+ s of/.test(e))).toBe(true);
  const outputs = await cli(["stack", "output", "--json"]);
  expect(JSON.parse(outputs)).toMatchObject({ vmCredentials: "[secret]", dbPassword: "[secret]" });
});

it("should fail a preview whose check fails inside credentials without printing the password", async () => {
  step.broken = true;
  try {
    const preview = await op("preview", "failing preview");
    expect(preview.ok).toBe(false);
    expect(preview.stdout).toMatch(
      /resource 'broken' has a problem: credentials\.token \(set; not shown, it may be secret\): unknown field/,
    );
    // A password that is a number: refused, and not printed (it used to be: `got 918273645017`).
    expect(preview.stdout).toContain(
      "resource 'broken' has a problem: credentials.password (set; not shown, it may be secret): must be a string; got a number",
    );
  } finally {
    step.broken = false;
  }
});

it("should change a VM's password (config secret and plain) with an update, leaving neither password in plaintext", async () => {
  await s.stack.setConfig("vmPassword", { value: SECRETS.vmConfigSecond, secret: true });
  step.vmPlain = SECRETS.vmPlainSecond;
  const up = await op("up", "password change");
  expect(up.ok).toBe(true);
  const changes = up.events
    .map((e) => JSON.parse(e) as { resourcePreEvent?: { metadata: { urn: string; op: string } } })
    .flatMap((e) => (e.resourcePreEvent ? [e.resourcePreEvent.metadata] : []));
  const opsOf = (name: string): string[] => changes.filter((m) => m.urn.endsWith(`::${name}`)).map((m) => m.op);
  expect(opsOf("vm-config")).toEqual(["update"]);
  expect(opsOf("vm-plain")).toEqual(["update"]);
  expect(opsOf("db-config")).toEqual(["same"]);
  // Sent with the upsert: the service holds the new passwords.
  for (const k of ["vmConfigSecond", "vmPlainSecond"] as const)
    expect([k, secretsFile().includes(JSON.stringify(SECRETS[k]).slice(1, -1))]).toEqual([k, true]);
});

it("should refresh, leaving no password in plaintext", async () => {
  const refresh = await op("refresh", "refresh");
  expect(refresh.ok).toBe(true);
  const preview = await op("preview", "preview after refresh");
  expect(preview.ok).toBe(true);
});

it("should adopt a VM created outside the stack with `adopt: true`, leaving neither its old nor its new password in plaintext", async () => {
  await s.client.upsertWorkload("vm-ubuntu", { id: "legacy", cpus: 1, credentials: { password: SECRETS.outOfBand } });
  step.adopt = true;
  const up = await op("up", "adopt");
  expect(up.ok).toBe(true);
  expect((await s.resources()).map((r) => r.id)).toContain(`${s.ws.name}/legacy`);
  expect((await s.client.getStatus("legacy")).generation).toBe(2); // taken over with the stack's spec and password
  expect(secretsFile()).toContain(JSON.stringify(SECRETS.adopted).slice(1, -1));
});

it("should destroy everything, leaving no password in plaintext", async () => {
  const destroy = await op("destroy", "destroy");
  expect(destroy.ok).toBe(true);
  expect((await s.client.getSpec()).workloads).toEqual([]);
  expect(serviceLog.length).toBeGreaterThan(0);
});
