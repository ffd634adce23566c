import { CredentialVault, credentialsDigest } from "../../../provider/dynamic/credentials/digest";
import {
  PASSWORD,
  STUB,
  apiRequests,
  change,
  diffWorkload,
  sealCredentials,
  startHarness,
  up,
  type Harness,
} from "../harness";

const vm = (password: string) => ({
  workloadId: "web",
  type: "vm-ubuntu",
  cpus: 2,
  credentials: { username: "ops", password },
});
const db = (password: string) => ({ workloadId: "db", type: "storage", engine: "postgres", credentials: { password } });

describe("credentials compared by digest", () => {
  it("should seal the password into a digest salted by the workload id, keeping the username", () => {
    const sealed = sealCredentials(vm(PASSWORD));
    expect(JSON.stringify(sealed)).not.toContain(PASSWORD);
    expect(sealed).toMatchObject({
      credentials: { username: "ops", digest: expect.stringMatching(/^scrypt2:[A-Za-z0-9_-]{43}$/) },
    });
    expect(credentialsDigest("other", vm(PASSWORD).credentials)).not.toBe(
      (sealed.credentials as { digest: string }).digest,
    );
  });

  it("should see no change for the same password, sealed or not", () => {
    // A state: the sealed inputs and the status the service reported.
    const state = { ...sealCredentials(vm(PASSWORD)), phase: "Running" };
    expect(diffWorkload(state, sealCredentials(vm(PASSWORD))).changes).toBe(false);
    expect(diffWorkload(state, vm(PASSWORD)).changes).toBe(false);
  });

  it("should update a VM and replace a database whose password changed", () => {
    const vmDiff = diffWorkload(sealCredentials(vm(PASSWORD)), sealCredentials(vm("another-Pw-1")));
    expect(vmDiff.replaces).toEqual([]);
    expect(vmDiff.changes).not.toBe(false);
    expect(diffWorkload(sealCredentials(db(PASSWORD)), sealCredentials(db("another-Pw-1"))).replaces).toEqual([
      "credentials",
    ]);
  });

  it("should diff a state written by 0.1.0, which kept the password, cleanly", () => {
    const legacy = { ...vm(PASSWORD), phase: "Running", generation: 1, observedGeneration: 1 };
    expect(diffWorkload(legacy, sealCredentials(vm(PASSWORD))).changes).toBe(false);
    expect(diffWorkload({ ...db(PASSWORD), phase: "Running" }, sealCredentials(db("another-Pw-1"))).replaces).toEqual([
      "credentials",
    ]);
    // Another change: decided by this diff alone, never by the engine's diff of a password against a digest.
    const grown = diffWorkload(
      { ...db(PASSWORD), phase: "Running" },
      { ...sealCredentials(db(PASSWORD)), memory: "2Gi" },
    );
    expect(grown).toMatchObject({ changes: true, replaces: [] });
  });

  it("should give a sealed login back only in the process that sealed it, with the digest sealCredentials gives", async () => {
    const vault = new CredentialVault();
    const sealed = await vault.seal(vm(PASSWORD));
    expect(sealed).toEqual(sealCredentials(vm(PASSWORD)));
    expect(vault.sealedLogin(sealed.credentials)).toEqual(vm(PASSWORD).credentials);
    expect(new CredentialVault().sealedLogin(sealed.credentials)).toBeUndefined();
  });
});

describe("workload credentials against the local service", () => {
  let h: Harness;
  beforeAll(async () => {
    h = await startHarness();
  });
  afterAll(async () => {
    await h.close();
  });

  it("should check into inputs without the password, create with it, and keep it out of outputs", async () => {
    const checked = await h.workload.check({}, { ...db(PASSWORD), workloadId: "db-digest" });
    expect(JSON.stringify(checked.inputs)).not.toContain(PASSWORD);
    const { id, outs } = await up(h.workload, { ...db(PASSWORD), workloadId: "db-digest" });
    expect(JSON.stringify(outs)).not.toContain(PASSWORD);
    expect(outs.credentials).toEqual({ digest: credentialsDigest("db-digest", { password: PASSWORD }) });
    // The same password again is no change and sends nothing.
    await h.ctl.resetCounters();
    const same = await change(h.workload, id, outs, { ...db(PASSWORD), workloadId: "db-digest" });
    expect(same.diff.changes).toBe(false);
    expect(await apiRequests(h)).toEqual({});
  });

  it("should keep a renamed database's workload and login, the class's digest salted with the new name made again", async () => {
    const { id, outs } = await up(h.workload, { ...db(PASSWORD), workloadId: "db-renamed" });
    // The class of the renamed resource ("data", with aliases) sends its name as the id and a digest salted with it.
    const renamed = {
      ...db(PASSWORD),
      workloadId: "data",
      __wws: { defaulted: ["workloadId"], credentialsDigest: credentialsDigest("data", { password: PASSWORD }) },
    };
    await h.ctl.resetCounters();
    const kept = await change(h.workload, id, outs, renamed);
    expect(kept.diff.changes).toBe(false);
    expect(await apiRequests(h)).toEqual({});
  });

  it("should take the digest the resource class made as the program ran, and keep it out of the inputs", async () => {
    const made = credentialsDigest("vm-made", vm(PASSWORD).credentials);
    const checked = await h.workload.check(
      {},
      { ...vm(PASSWORD), workloadId: "vm-made", __wws: { credentialsDigest: made } },
    );
    expect(checked.inputs.credentials).toEqual({ username: "ops", digest: made });
    expect(checked.inputs).not.toHaveProperty("__wws");
    // The login stays in this process for the create that follows.
    const { outs } = await up(h.workload, {
      ...vm(PASSWORD),
      workloadId: "vm-made",
      __wws: { credentialsDigest: made },
    });
    expect(outs.credentials).toEqual({ username: "ops", digest: made });
  });

  it("should keep a state's scrypt1 digest scheme, so that an unchanged password stays unchanged", async () => {
    const login = vm(PASSWORD).credentials;
    const made = credentialsDigest("vm-old", login);
    const news = { ...vm(PASSWORD), workloadId: "vm-old", __wws: { credentialsDigest: made } };
    // The inputs a check of this version made, with the digest an earlier version stored.
    const checked = (await h.workload.check({}, news)).inputs;
    const oldDigest = credentialsDigest("vm-old", login, "scrypt1");
    const state = { ...checked, credentials: { username: "ops", digest: oldDigest }, phase: "Running" };
    const same = await h.workload.check(state, news);
    expect(same.inputs.credentials).toEqual(state.credentials);
    expect(diffWorkload(state, same.inputs).changes).toBe(false);
    const other = await h.workload.check(state, { ...news, credentials: { username: "ops", password: "new-Pw-2" } });
    expect(diffWorkload(state, other.inputs).changes).not.toBe(false);
    expect(made).toMatch(/^scrypt2:/);
  });

  it("should fail a create whose password this process never saw, naming the workload, and send nothing", async () => {
    // Inputs another process checked: the digest is there, the password is not.
    const inputs = { ...sealCredentials(vm(PASSWORD)), workloadId: "vm-sealed", __provider: STUB };
    await h.ctl.resetCounters();
    await expect(h.workload.create(inputs)).rejects.toThrow(
      /^vm-ubuntu vm-sealed: the password of `credentials` is not known to this provider process.*run `pulumi up` again/,
    );
    const sent = await apiRequests(h);
    expect(Object.keys(sent).filter((route) => !route.startsWith("GET"))).toEqual([]);
    expect(await h.client.getStatus("vm-sealed").catch((e: Error) => e.name)).toBe("NotFoundError");
  });
});
