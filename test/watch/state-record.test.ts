import { isManagedRecord, secretPathsOf, touchesSecret } from "../../watch/state-record";

const secret = (v: unknown) => ({
  "4dabf18193072939515e22adb298388d": "1b47061264138c4ac30d75fd1eb44270",
  plaintext: JSON.stringify(v),
});

describe("isManagedRecord", () => {
  it.each([
    ["a resource the stack declares", { urn: "u", id: "team/web" }, true],
    ["a resource it only reads (Pod.get, a lookup)", { urn: "u", id: "team/web", external: true }, false],
  ])("should say of %s: %s", (_name, record, managed) => {
    expect(isManagedRecord(record)).toBe(managed);
  });
});

describe("secretPathsOf", () => {
  it("should find every secret at any depth, of inputs and outputs alike, and not walk into one", () => {
    const outputs = {
      apiKey: secret("k"),
      source: { repo: secret("https://tok@g/a"), ref: "main" },
      ports: [{ name: secret("ssh"), port: 22 }],
      credentials: secret({ password: secret("nested") }),
      memory: "1Gi",
    };
    const inputs = { network: { exposed: secret(true) } };
    expect([...secretPathsOf(outputs, inputs)].sort()).toEqual([
      "apiKey",
      "credentials",
      "network.exposed",
      "ports.0.name",
      "source.repo",
    ]);
  });
});

describe("touchesSecret", () => {
  const paths = ["source.repo", "credentials"];
  it.each([
    ["the secret itself", "source.repo", true],
    ["a field holding a secret", "source", true],
    ["a field inside a secret", "credentials.password", true],
    ["a field beside a secret", "source.ref", false],
    ["a field whose name only starts like a secret's", "sourceRepo", false],
  ])("should say of %s: %s", (_name, path, touches) => {
    expect(touchesSecret(path, paths)).toBe(touches);
  });
});
