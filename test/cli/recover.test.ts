import { UsageError } from "../../command-line";
import { parseRecoverArgs } from "../../cli/recover/args";
import {
  ourPendingCreates,
  revealed,
  withPendingResolved,
  type ExportedStack,
} from "../../cli/recover/pending-creates";

const POD = "pulumi-nodejs:dynamic/wws:Pod";
const urn = (name: string, type = POD): string => `urn:pulumi:dev::infra::${type}::${name}`;
const SECRET = { "4dabf18193072939515e22adb298388d": "1b47061264138c4ac30d75fd1eb44270", ciphertext: "v1:abc" };

function exported(): ExportedStack {
  const op = (name: string, type = POD, kind = "creating") => ({
    type: kind,
    resource: {
      urn: urn(name, type),
      type,
      custom: true,
      parent: "stack-urn",
      inputs: { workloadId: name, credentials: SECRET },
    },
  });
  return {
    version: 3,
    deployment: {
      manifest: { time: "t" },
      resources: [{ urn: "stack-urn", type: "pulumi:pulumi:Stack" }],
      pending_operations: [op("a"), op("b"), op("c"), op("x", "aws:s3/bucket:Bucket"), op("d", POD, "updating")],
    },
  };
}

describe("recover's edit of the stack's record", () => {
  it("should take only this package's pending creates", () => {
    expect(ourPendingCreates(exported()).map((op) => op.resource.urn)).toEqual([urn("a"), urn("b"), urn("c")]);
  });

  it("should record a proven create as a resource under its id, its outputs its inputs with secrets still encrypted, and drop only what it is told", () => {
    const next = withPendingResolved(exported(), new Map([[urn("a"), "demo/a"]]), new Set([urn("b")]));
    expect(next.deployment.resources).toEqual([
      { urn: "stack-urn", type: "pulumi:pulumi:Stack" },
      {
        urn: urn("a"),
        type: POD,
        custom: true,
        parent: "stack-urn",
        id: "demo/a",
        inputs: { workloadId: "a", credentials: SECRET },
        outputs: { workloadId: "a", credentials: SECRET },
      },
    ]);
    expect(next.deployment.pending_operations?.map((op) => op.resource.urn)).toEqual([
      urn("c"),
      urn("x", "aws:s3/bucket:Bucket"),
      urn("d"),
    ]);
    expect(next.deployment.manifest).toEqual({ time: "t" });
  });

  it("should reveal the plaintext of a --show-secrets export, nested", () => {
    const secret = (v: unknown) => ({
      "4dabf18193072939515e22adb298388d": "1b47061264138c4ac30d75fd1eb44270",
      plaintext: JSON.stringify(v),
    });
    expect(revealed({ apiKey: secret("k-1"), spec: [{ env: secret({ a: 1 }) }], n: 2 })).toEqual({
      apiKey: "k-1",
      spec: [{ env: { a: 1 } }],
      n: 2,
    });
  });

  it("should read its flags and refuse an unknown one", () => {
    expect(parseRecoverArgs(["--yes", "--stack", "dev", "--clear-unproven"])).toEqual({
      yes: true,
      stack: "dev",
      clearUnproven: true,
      help: false,
    });
    expect(() => parseRecoverArgs(["--force"])).toThrow(UsageError);
    expect(() => parseRecoverArgs(["--stack"])).toThrow(/--stack: missing value/);
  });
});
