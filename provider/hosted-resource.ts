import * as pulumi from "@pulumi/pulumi";
import { ENVELOPE_KEY, type EnvelopeArgs } from "./dynamic/program-side";
import { quietRegistrationTraces } from "./registration-traces";
import type { ConnectionArgs } from "./resources/args";
import { WORKLOAD_CLASSES, dynamicType, isOfType } from "./resources/type-token";

/**
 * The key under which a class declares the live spec fields its read resources (`Class.get`) have
 * as outputs: a type only, never set, so that `get` is written once and `Database.get(…).engine` typed.
 */
export declare const liveSpec: unique symbol;

/** The live spec fields a class declares under `liveSpec`, or none. */
type LiveOf<T> = T extends { readonly [liveSpec]?: infer L } ? NonNullable<L> : unknown;

const WORKLOAD_TYPES = WORKLOAD_CLASSES.map(dynamicType);

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
   * The type token, `pulumi-nodejs:dynamic/wws:<Class>`, as `pulumi.dynamic.Resource` would register
   * it: what the engine, the state and a policy pack know the class by, and by which
   * `@pulumi/policy`'s `validateResourceOfType(Class, …)` and `isType` match.
   */
  static readonly __pulumiType: string;

  /**
   * True for a resource of this class, also one of another copy of this package, or
   * `{__pulumiType}` naming its type (what `@pulumi/policy` hands it); for `WorkloadResource`, of
   * any workload class (`Pod`, `Database`, `Workload`, …). By type token, not by prototype. (Each
   * class declares its own type predicate, `obj is Pod`, in one line: a static has no `this` type.)
   */
  static isInstance(obj: unknown): obj is HostedResource {
    // A class without a token of its own (the abstract `WorkloadResource`) matches every workload class's.
    const own = Object.prototype.hasOwnProperty.call(this, "__pulumiType");
    return isOfType(obj, own ? [(this as unknown as { __pulumiType: string }).__pulumiType] : WORKLOAD_TYPES);
  }

  /**
   * The workload or template of id `<workspace>/<id>` (the id its managing stack's state holds),
   * read and not managed: its outputs are the live fields (typed: `Database.get(…).engine`) and a
   * workload's status, `pulumi refresh` reads it again, `pulumi destroy` only forgets it, and the
   * stack that manages it keeps it. `state` gives the connection (`{workspace: ws}` or its fields);
   * unset, the stack config and then the environment. A missing one fails preview naming the
   * workspace and the id.
   */
  static get<T>(
    this: new (name: string, args: never, opts?: pulumi.CustomResourceOptions) => T,
    name: string,
    id: pulumi.Input<pulumi.ID>,
    state?: ConnectionArgs,
    opts?: pulumi.CustomResourceOptions,
  ): T & LiveOf<T> {
    // The class's constructor makes a read resource of an `id` option, its arguments only a connection.
    return new this(name, (state ?? {}) as never, { ...opts, id }) as T & LiveOf<T>;
  }

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
