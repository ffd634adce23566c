import * as pulumi from "@pulumi/pulumi";
import * as dynamic from "../../../provider/dynamic";
import { UNKNOWN } from "../../../provider/dynamic/inputs/unknown";
import { PROVIDER_TEXT } from "../../../provider/hosted-resource";

const METHODS = ["configure", "check", "diff", "create", "read", "update", "delete"] as const;

/**
 * Typed as the host's interface, so `npm run typecheck` fails when an implementation stops fitting
 * it: a type check cannot live in an `it` (jest's swc strips types, such a case always passes).
 */
const IMPLEMENTATIONS: Record<"workload" | "template", pulumi.dynamic.ResourceProvider> = {
  workload: dynamic.workload,
  template: dynamic.template,
};

/** Evaluates the text as the host does (a CommonJS module, then `handler()`), with a `require` that records what is loaded. */
function load(text: string, loaded: unknown): { provider: unknown; required: string[] } {
  const required: string[] = [];
  const fakeRequire = (name: string): unknown => {
    required.push(name);
    return loaded;
  };
  const module = { exports: {} as { handler: () => unknown } };
  new Function("exports", "require", "module", text)(module.exports, fakeRequire, module);
  return { provider: module.exports.handler(), required };
}

describe("the provider each resource stores (`__provider`)", () => {
  it.each(Object.entries(PROVIDER_TEXT))(
    "should be one line that hands the %s provider of the package, loaded by name, to the host",
    (kind, text) => {
      const implementation = { workload: { kind: "workload" }, template: { kind: "template" } };
      const { provider, required } = load(text, implementation);
      expect(required).toEqual(["pulumi-wws/provider/dynamic"]);
      expect(provider).toBe(implementation[kind as keyof typeof implementation]);
      expect(text.trim().split("\n")).toHaveLength(1);
      expect(text).not.toMatch(/node_modules|\/work\/|\/tmp\/|[A-Z]:\\/);
    },
  );

  it("should differ between workloads and templates: the host keeps one provider per text", () => {
    expect(PROVIDER_TEXT.workload).not.toBe(PROVIDER_TEXT.template);
  });

  it("should find what it requires: every method of `workload` and `template` in provider/dynamic", () => {
    for (const impl of Object.values(IMPLEMENTATIONS)) {
      for (const m of METHODS) expect(typeof impl[m]).toBe("function");
    }
  });

  it("should use the unknown sentinel of @pulumi/pulumi", () => {
    expect(UNKNOWN).toBe(pulumi.runtime.unknownValue);
  });
});
