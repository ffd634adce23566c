import { diffWorkload } from "../../provider/dynamic";
import { credentialsDigest, sealCredentials } from "../../provider/dynamic/credentials-digest";
import { PASSWORD, startHarness, up, type Harness } from "./harness";

const vm = (password: string) => ({ workloadId: "web", type: "vm-ubuntu", cpus: 2, credentials: { username: "ops", password } });
const db = (password: string) => ({ workloadId: "db", type: "storage", engine: "postgres", credentials: { password } });
/** What a preview registers: the password withheld, the digest of the real one. */
const previewed = (props: ReturnType<typeof vm> | ReturnType<typeof db>) => ({
  ...props,
  credentials: { ...props.credentials, password: "*".repeat(props.credentials.password.length) },
  credentialsDigest: credentialsDigest(props.workloadId, props.credentials),
});

describe("credentials compared by digest", () => {
  it("should keep no password in outputs, only the username and a digest salted by the workload id", () => {
    const outs = sealCredentials(vm(PASSWORD));
    expect(JSON.stringify(outs)).not.toContain(PASSWORD);
    expect(outs).toMatchObject({ credentials: { username: "ops" }, credentialsDigest: expect.stringMatching(/^scrypt1:[A-Za-z0-9_-]{43}$/) });
    expect(credentialsDigest("other", vm(PASSWORD).credentials)).not.toBe(outs.credentialsDigest);
  });

  it("should see no change for the same password, whether the news carry it (up) or withhold it (preview)", () => {
    const state = sealCredentials(vm(PASSWORD));
    expect(diffWorkload(state, vm(PASSWORD)).changes).toBe(false);
    expect(diffWorkload(state, previewed(vm(PASSWORD))).changes).toBe(false);
  });

  it("should update a VM and replace a database whose password changed, at preview too", () => {
    expect(diffWorkload(sealCredentials(vm(PASSWORD)), previewed(vm("another-Pw-1"))).replaces).toEqual([]);
    expect(diffWorkload(sealCredentials(vm(PASSWORD)), previewed(vm("another-Pw-1"))).changes).toBe(true);
    expect(diffWorkload(sealCredentials(db(PASSWORD)), previewed(db("another-Pw-1"))).replaces).toEqual(["credentials"]);
  });

  it("should diff a state written by 0.1.0, which kept the password in outputs, cleanly", () => {
    const legacy = { ...vm(PASSWORD), phase: "Running", generation: 1, observedGeneration: 1 };
    expect(diffWorkload(legacy, previewed(vm(PASSWORD))).changes).toBe(false);
    expect(diffWorkload(legacy, vm(PASSWORD)).changes).toBe(false);
    expect(diffWorkload({ ...db(PASSWORD), phase: "Running" }, previewed(db("another-Pw-1"))).replaces).toEqual(["credentials"]);
  });
});

describe("workload outputs against the local service", () => {
  let h: Harness;
  beforeAll(async () => {
    h = await startHarness();
  });
  afterAll(async () => {
    await h.close();
  });

  it("should return outputs without the password after a create", async () => {
    const { outs } = await up(h.workload, { ...db(PASSWORD), workloadId: "db-digest" });
    expect(JSON.stringify(outs)).not.toContain(PASSWORD);
    expect(outs.credentialsDigest).toBe(credentialsDigest("db-digest", { password: PASSWORD }));
  });
});
