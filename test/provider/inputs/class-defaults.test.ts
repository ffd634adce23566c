import { credentialsDigest } from "../../../provider/dynamic/credentials/digest";
import { credentialsKeptFromState } from "../../../provider/dynamic/credentials/kept-from-state";
import { openEnvelope } from "../../../provider/dynamic/inputs/envelope";
import { checkWorkload } from "../../../provider/dynamic/workloads/check";

const ENV = { WWS_BASE_URL: "http://127.0.0.1:1", WWS_WORKSPACE: "demo", WWS_API_KEY: "env-Key-1234" };
const PASSWORD = "kept-Pass-Word-7";
const sealed = { username: "app", digest: credentialsDigest("db", { username: "app", password: PASSWORD }) };
const state = { workloadId: "db", type: "storage", engine: "postgres", credentials: sealed };

describe("openEnvelope: the class's defaults settled", () => {
  const fromClass = {
    workloadId: "frontend",
    baseUrl: "http://program",
    workspace: "w",
    __wws: { defaulted: ["workloadId", "baseUrl", "workspace"] },
  };
  const settleClassDefaults = (olds: Record<string, unknown>, news: Record<string, unknown>) =>
    openEnvelope(olds, news).given;

  it("should keep the id the state holds for an unset workloadId, as Pulumi's auto-naming does", () => {
    expect(settleClassDefaults({ workloadId: "web" }, fromClass)).toMatchObject({ workloadId: "web" });
  });

  it("should give a new resource its name, and leave the connection to check's own sources", () => {
    const settled = settleClassDefaults({}, fromClass);
    expect(settled.workloadId).toBe("frontend");
    expect(settled).not.toHaveProperty("baseUrl");
    expect(settled).not.toHaveProperty("workspace");
  });

  it("should never replace an id the program set", () => {
    const set = { workloadId: "pinned", __wws: { defaulted: ["baseUrl"] } };
    expect(settleClassDefaults({ workloadId: "web" }, set).workloadId).toBe("pinned");
  });

  it("should make the class's digest again when it was salted with another id than the state's", () => {
    const news = { workloadId: "db2", __wws: { credentialsDigest: "scrypt2:x", defaulted: ["workloadId"] } };
    expect(openEnvelope(state, news).envelope.credentialsDigest).toBeUndefined();
    expect(openEnvelope({}, news).envelope.credentialsDigest).toBe("scrypt2:x");
  });

  it("should take the envelope out of the inputs, and refuse one of another shape", () => {
    expect(openEnvelope({}, fromClass).given).not.toHaveProperty("__wws");
    expect(() => openEnvelope({}, { __wws: { urn: 7 } })).toThrow(
      /__wws is not what this package's resource classes send/,
    );
  });
});

describe("credentialsKeptFromState (ignoreChanges on credentials)", () => {
  it("should keep the state's sealed login that ignoreChanges ['credentials'] copies in", () => {
    expect(credentialsKeptFromState(state, { ...state })).toEqual({ kept: sealed });
  });

  it("should keep it for ignoreChanges ['credentials.password'], which leaves a login without a password", () => {
    expect(credentialsKeptFromState(state, { credentials: { username: "app" } })).toEqual({ kept: sealed });
  });

  it("should refuse a new username beside an ignored password, naming the fix", () => {
    const { failure } = credentialsKeptFromState(state, { credentials: { username: "other" } });
    expect(failure?.reason).toMatch(/changed while credentials.password is in ignoreChanges.*Keep the username/);
  });

  it("should not take a digest written in the program for the state's", () => {
    expect(credentialsKeptFromState(state, { credentials: { username: "app", digest: "scrypt2:other" } })).toEqual({});
  });

  it("should let a database with ignored credentials pass check, keeping the state's login", () => {
    const { inputs, failures } = checkWorkload(state, { ...state }, { env: ENV });
    expect(failures).toEqual([]);
    expect(inputs.credentials).toEqual(sealed);
  });
});
