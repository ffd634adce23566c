import * as path from "node:path";
import * as pulumi from "@pulumi/pulumi";
import * as dynamic from "../../provider/dynamic";
import { UNKNOWN, type ProviderImpl } from "../../provider/dynamic";
import { templateProvider, workloadProvider } from "../../provider/stub";

const serialize = async (provider: pulumi.dynamic.ResourceProvider): Promise<string> =>
  // The same call `pulumi.dynamic.Resource` makes (dynamic/index.js serializeFunctionMaybeSecret).
  (await pulumi.runtime.serializeFunction(() => provider, { allowSecrets: true })).text;

const METHODS = ["configure", "check", "diff", "create", "read", "update", "delete"] as const;
const checkout = path.resolve(__dirname, "../..");

/** Evaluates serialized text as the host does, with a fake `require` that records what is loaded. */
function load(text: string, implementation: Record<string, unknown>): { provider: Record<string, (...a: unknown[]) => unknown>; required: string[] } {
  const required: string[] = [];
  const fakeRequire = (name: string): unknown => {
    required.push(name);
    return implementation;
  };
  const module = { exports: {} as Record<string, () => Record<string, (...a: unknown[]) => unknown>> };
  new Function("exports", "require", "module", text)(module.exports, fakeRequire, module);
  return { provider: module.exports.handler(), required };
}

describe("the serialized provider", () => {
  it.each([
    ["workload", workloadProvider],
    ["template", templateProvider],
  ])("should serialize the %s provider to a small stub that requires the package by name", async (name, provider) => {
    const text = await serialize(provider);
    expect(text.length).toBeLessThan(2600);
    expect(text.split("\n").length).toBeLessThan(90);
    expect(text).toContain(`require("pulumi-wws/provider/dynamic").${name}.create(inputs)`);
    expect(text).not.toContain(checkout);
    expect(text).not.toMatch(/node_modules|\/work\/|[A-Z]:\\/);
    // No implementation code came along: the stub only delegates.
    expect(text).not.toMatch(/upsertWorkload|WorkspaceClient|zod/);
  });

  it("should be the same text every time, whatever the resource's inputs", async () => {
    expect(await serialize(workloadProvider)).toBe(await serialize(workloadProvider));
  });

  it("should delegate every method, with its arguments, to the module loaded by package name", async () => {
    const calls: Array<[string, unknown[]]> = [];
    const impl = Object.fromEntries(METHODS.map((m) => [m, (...args: unknown[]) => calls.push([m, args])]));
    const { provider, required } = load(await serialize(workloadProvider), { workload: impl });
    for (const m of METHODS) provider[m]("a", "b", "c");
    expect(required).toEqual(METHODS.map(() => "pulumi-wws/provider/dynamic"));
    expect(calls.map(([m]) => m)).toEqual([...METHODS]);
    expect(calls.find(([m]) => m === "diff")?.[1]).toEqual(["a", "b", "c"]);
    expect(calls.find(([m]) => m === "create")?.[1]).toEqual(["a"]);
  });

  it("should find what it requires: every method of `workload` and `template` in provider/dynamic", () => {
    for (const impl of [dynamic.workload, dynamic.template]) {
      for (const m of METHODS) expect(typeof impl[m]).toBe("function");
    }
  });

  it("should use the unknown sentinel of @pulumi/pulumi", () => {
    expect(UNKNOWN).toBe(pulumi.runtime.unknownValue);
  });

  it("should implement the dynamic ResourceProvider interface", () => {
    const typed = (impl: ProviderImpl): pulumi.dynamic.ResourceProvider => impl;
    expect(typeof typed).toBe("function");
  });
});
