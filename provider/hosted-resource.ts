import * as pulumi from "@pulumi/pulumi";
import { ENVELOPE_KEY, type EnvelopeArgs } from "./dynamic/program-side";
import { quietRegistrationTraces } from "./registration-traces";
import { dynamicType } from "./resources/type-token";

/**
 * The provider each resource stores in its state, as `__provider`, once in its inputs and once in
 * its outputs. The engine's dynamic provider host (`pulumi-resource-pulumi-nodejs`) loads that
 * text as a module from the program's directory (require-from-string) and calls its `handler()`
 * for the provider; it keeps one provider per distinct text, so one text per provider means one
 * load and one `configure` per process.
 *
 * `pulumi.dynamic.Resource` would store a serialized closure of a provider object: about 2,250
 * bytes of generated code twice per resource, a third of the checkpoint the CLI rewrites after
 * every step. These texts are what that closure does, in one line:
 *
 * - no implementation code, no module path of this machine, no secret, no connection;
 * - the same text in every version of the package: an upgrade never changes `__provider` and never
 *   updates or replaces a resource by itself, the new implementation is simply loaded by name;
 * - `pulumi-wws` resolves from the program's `node_modules`, the copy the program uses.
 *
 * States written by 0.1.0 hold the serialized closure instead; it requires the same module by the
 * same name, so those resources keep working, and `diff` never compares `__provider`.
 */
export const PROVIDER_TEXT = Object.freeze({
  workload: 'exports.handler = () => require("pulumi-wws/provider/dynamic").workload;\n',
  template: 'exports.handler = () => require("pulumi-wws/provider/dynamic").template;\n',
});

type ProviderKind = keyof typeof PROVIDER_TEXT;

/**
 * The URN the engine gives the resource, as a plain promise. An input that is an Output of the
 * parent's URN would make the resource depend on its parent, and depending on a component waits
 * for every child of the component: the resource itself, a deadlock.
 */
function urnPromise(name: string, type: string, parent: pulumi.Resource | undefined): Promise<string> {
  return new Promise((resolve) => {
    pulumi.createUrn(name, type, parent).apply((urn) => {
      resolve(urn);
      return urn;
    });
  });
}

/**
 * A resource of the dynamic provider host: type `pulumi-nodejs:dynamic/wws:<className>`, as
 * `pulumi.dynamic.Resource` would register it, but with `PROVIDER_TEXT[kind]` as its `__provider`.
 */
export abstract class HostedResource extends pulumi.CustomResource {
  /**
   * `outputs`: the keys the class has a property for, kept even when undefined (the provider fills
   * them in). Every other undefined input is left out: the engine never sees one, and each key
   * costs `@pulumi/pulumi` four promises, each with a captured stack trace (see
   * `registration-traces.ts`). `envelope`: what a declared resource hands `check` alone
   * (dynamic/inputs/envelope.ts), under one key, with the URN added; a read resource (`get`) has
   * no `check`, and none.
   */
  protected constructor(
    kind: ProviderKind,
    className: string,
    name: string,
    props: pulumi.Inputs,
    outputs: ReadonlySet<string>,
    opts?: pulumi.CustomResourceOptions,
    envelope?: EnvelopeArgs,
  ) {
    const type = dynamicType(className);
    const inputs = Object.fromEntries(Object.entries(props).filter(([k, v]) => v !== undefined || outputs.has(k)));
    // The provider names resources by their URN.
    if (envelope) inputs[ENVELOPE_KEY] = { ...envelope, urn: urnPromise(name, type, opts?.parent) };
    const restore = quietRegistrationTraces();
    try {
      super(type, name, { ...inputs, __provider: PROVIDER_TEXT[kind] }, opts);
    } finally {
      restore();
    }
  }
}
