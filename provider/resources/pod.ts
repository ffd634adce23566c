import type * as pulumi from "@pulumi/pulumi";
import { WorkloadResource } from "./workload";
import { specArgsOf, type LiveSpec } from "./spec-args";
import type { ConnectionArgs, PodArgs } from "./args";
import { dynamicType, isOfType } from "./type-token";

export type { PodPortArgs, PodSourceArgs, PodArgs } from "./args";

/**
 * A container app (`pod`).
 * @see pulumi-wws/docs/fields.md#pod (shipped in the package): each argument, its values, default and what a change does
 * @see pulumi-wws/provider/README.md#what-each-change-does (shipped in the package): what each change of its arguments does
 */
export class Pod extends WorkloadResource {
  /** The type token, by which `@pulumi/policy`'s `validateResourceOfType(Pod, …)` and `isType` match. */
  static readonly __pulumiType = dynamicType("Pod");

  /** True for a `Pod`, also one of another copy of this package, or `{__pulumiType}` naming its type. */
  static isInstance(obj: unknown): obj is Pod {
    return isOfType(obj, [Pod.__pulumiType]);
  }

  /**
   * The workload of id `<workspace>/<workloadId>` (the id its managing stack's state holds), read and not managed:
   * its outputs are the live fields and status, `pulumi refresh` reads it again, `pulumi destroy`
   * only forgets it, and the stack that manages it keeps it. `state` gives the connection
   * (`{workspace: ws}` or its fields); unset, the stack config and then the environment.
   * A missing workload fails preview naming the workspace and the id.
   */
  static get(
    name: string,
    id: pulumi.Input<pulumi.ID>,
    state?: ConnectionArgs,
    opts?: pulumi.CustomResourceOptions,
  ): Pod & LiveSpec<"pod"> {
    return new Pod(name, (state ?? {}) as PodArgs, { ...opts, id }) as Pod & LiveSpec<"pod">;
  }

  constructor(name: string, args: PodArgs, opts?: pulumi.CustomResourceOptions) {
    super("Pod", name, "pod", specArgsOf("pod", args), args, opts);
  }
}
