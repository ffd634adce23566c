import * as fs from "node:fs";
import * as path from "node:path";
import { CredentialVault, credentialsDigest } from "../../../provider/dynamic/credentials/digest";
import { sealCredentials } from "../harness";
import { recorded } from "../../../provider/dynamic/workloads/recorded-status";
import { requestBodyOf } from "../../../provider/dynamic/workloads/body";
import { parseWorkload, writeWorkload } from "../../../provider/dynamic/workloads/model";

type Props = Record<string, unknown>;

const PASSWORD = "model-Pass-Word-9";
const SECRET_SIG = "4dabf18193072939515e22adb298388d";

interface StateResource {
  type: string;
  inputs?: Props;
  outputs?: Props;
}

/**
 * The workloads of the state pulumi-wws 0.1.0 wrote (`test/fixtures/upgrade-0.1.0`), their
 * credentials as the engine hands them to the provider: decrypted, the password in clear.
 */
const legacy: StateResource[] = (
  JSON.parse(fs.readFileSync(path.join(__dirname, "../../fixtures/upgrade-0.1.0/stack-export.json"), "utf8")) as {
    deployment: { resources: StateResource[] };
  }
).deployment.resources
  .filter((r) => r.type.startsWith("pulumi-nodejs:dynamic/wws:") && !r.type.endsWith(":Template"))
  .map((r) => ({ type: r.type, inputs: revealed(r.inputs), outputs: revealed(r.outputs) }));

function revealed(bag: Props | undefined): Props | undefined {
  const login = bag?.credentials as Props | undefined;
  return login && SECRET_SIG in login ? { ...bag, credentials: { password: PASSWORD } } : bag;
}

const legacyDb = legacy.find((r) => r.type.endsWith(":Database"))!;

/** Outputs of a VM as this version records them: the password sealed, every option set, a refresh's drift key. */
const currentVm: Props = sealCredentials({
  workspace: "demo",
  baseUrl: "http://127.0.0.1:1",
  apiKey: "model-Key-1234",
  workloadId: "vm",
  type: "vm-ubuntu",
  cpus: 2,
  memory: "4Gi",
  ports: [{ name: "ssh", port: 22 }],
  image: null,
  credentials: { username: "ops", password: PASSWORD },
  waitForReady: false,
  readyTimeoutSeconds: 30,
  waitForDeletion: false,
  customTimeouts: { delete: "2m" },
  restartTrigger: "b",
  adopt: true,
  phase: "Running",
  message: "up",
  restartCount: 3,
  endpoint: "vm.demo.workloads.localhost:22",
  generation: 2,
  observedGeneration: 2,
  restartsOutsidePulumi: 1,
  __provider: "exports.handler = stub;",
});
const currentInputs = Object.fromEntries(
  Object.entries(currentVm).filter(
    ([k]) => !["phase", "message", "restartCount", "endpoint", "generation", "observedGeneration"].includes(k),
  ),
);

describe("workload model", () => {
  it.each([
    ...legacy.flatMap((r) => [
      [`0.1.0 ${r.type} outputs`, r.outputs!],
      [`0.1.0 ${r.type} inputs`, r.inputs!],
    ]),
    ["current VM outputs", currentVm],
    ["current VM inputs", currentInputs],
  ])("should write back the bag it parsed, key for key: %s", (_what, bag) => {
    const written = writeWorkload(parseWorkload(bag as Props));
    expect(Object.keys(written).sort()).toEqual(Object.keys(bag as Props).sort());
    expect(written).toStrictEqual(bag);
  });

  it("should cover every kind the fixture holds, with and without a status", () => {
    expect(legacy.map((r) => r.type.split(":").pop()).sort()).toEqual([
      "Browser",
      "Controller",
      "Database",
      "Pod",
      "VirtualMachine",
      "Workload",
    ]);
    expect(legacy.every((r) => r.outputs?.phase === "Running" && r.inputs?.phase === undefined)).toBe(true);
  });

  it("should put each key of a 0.1.0 database in its part", () => {
    const m = parseWorkload(legacyDb.outputs!);
    expect(m.identity).toEqual({ workloadId: "db", type: "storage" });
    expect(m.connection).toEqual({ workspace: "upgrade-010", baseUrl: "http://wws-base-url.invalid:1" });
    expect(m.spec).toEqual({
      adminConsole: true,
      backup: { enabled: true, retentionDays: 7, schedule: "0 3 * * *" },
      engine: "postgres",
      network: { exposed: true },
      version: "16",
    });
    expect(m.credentials).toEqual({ password: PASSWORD });
    expect(m.settings).toEqual({});
    // The defaults: adminConsole alone does not make the provider wait for the console.
    expect(m.options).toEqual({
      waitForReady: true,
      timeoutMs: { create: 600_000, update: 600_000, delete: 600_000 },
      allowDataLoss: false,
      waitForAdminConsole: false,
      waitForDeletion: true,
      adopt: false,
    });
    // The derived connectionUri is not part of the status: it is written from it.
    expect(m.status).toEqual({
      phase: "Running",
      restartCount: 0,
      endpoint: "db.upgrade-010.workloads.localhost:5432",
      adminUrl: "https://db-admin-upgrade-010.workloads.localhost",
      adminReady: false,
      generation: 1,
      observedGeneration: 1,
    });
    expect(m.provider).toBe(legacyDb.outputs!.__provider);
    expect(m.restartsOutsidePulumi).toBeUndefined();
  });

  it("should put each key of a current VM in its part, options merged", () => {
    const m = parseWorkload(currentVm);
    expect(m.identity).toEqual({ workloadId: "vm", type: "vm-ubuntu" });
    expect(m.connection).toEqual({ workspace: "demo", baseUrl: "http://127.0.0.1:1", apiKey: "model-Key-1234" });
    expect(m.spec).toEqual({ cpus: 2, memory: "4Gi", ports: [{ name: "ssh", port: 22 }], image: null });
    expect(m.credentials).toEqual({
      username: "ops",
      digest: credentialsDigest("vm", { username: "ops", password: PASSWORD }),
    });
    expect(m.settings).toEqual({
      waitForReady: false,
      readyTimeoutSeconds: 30,
      waitForDeletion: false,
      customTimeouts: { delete: "2m" },
      restartTrigger: "b",
      adopt: true,
    });
    expect(m.options).toEqual({
      waitForReady: false,
      timeoutMs: { create: 30_000, update: 30_000, delete: 120_000 },
      allowDataLoss: false,
      waitForAdminConsole: false,
      waitForDeletion: false,
      adopt: true,
    });
    expect(m.status).toEqual({
      phase: "Running",
      message: "up",
      restartCount: 3,
      endpoint: "vm.demo.workloads.localhost:22",
      generation: 2,
      observedGeneration: 2,
    });
    expect(m.restartsOutsidePulumi).toBe(1);
    expect(parseWorkload(currentInputs).status).toBeUndefined();
  });

  it("should wait for an admin console only where the spec has one", () => {
    expect(parseWorkload({ ...legacyDb.outputs, waitForAdminConsole: true }).options.waitForAdminConsole).toBe(true);
    expect(
      parseWorkload({ ...legacyDb.outputs, waitForAdminConsole: true, adminConsole: false }).options
        .waitForAdminConsole,
    ).toBe(false);
  });

  it("should record a status with the password sealed and the connection URI derived from it", () => {
    const m = parseWorkload(legacyDb.inputs!);
    const outs = writeWorkload(
      recorded(
        { ...m, credentials: { username: "app user", password: PASSWORD } },
        { phase: "Provisioning", endpoint: "db.x:5432", id: "db", updatedAt: "now" },
      ),
    );
    expect(JSON.stringify(outs)).not.toContain(PASSWORD);
    expect(outs).toMatchObject({
      phase: "Provisioning",
      endpoint: "db.x:5432",
      connectionUri: "postgresql://app%20user@db.x:5432/postgres?sslmode=require",
    });
    // Only the output keys: what the service adds to a status (id, updatedAt) stays out of state.
    expect(outs).not.toHaveProperty("id");
    expect(outs).not.toHaveProperty("updatedAt");
    expect(writeWorkload(recorded(m, undefined))).not.toHaveProperty("phase");
  });

  it("should send the password check sealed in this process, and no credentials it did not", async () => {
    const vault = new CredentialVault();
    const sealed = parseWorkload(
      await vault.seal({
        workloadId: "vm",
        type: "vm-ubuntu",
        cpus: 2,
        image: null,
        credentials: { password: PASSWORD },
      }),
    );
    expect(requestBodyOf(sealed, vault, true)).toEqual({ id: "vm", cpus: 2, credentials: { password: PASSWORD } });
    // Another process: an update that keeps the credentials leaves them out; one that sets them fails.
    expect(requestBodyOf(sealed, new CredentialVault(), false)).toEqual({ id: "vm", cpus: 2 });
    expect(() => requestBodyOf(sealed, new CredentialVault(), true)).toThrow(/password of `credentials` is not known/);
  });
});
