import type * as pulumi from "@pulumi/pulumi";
import { WorkloadResource } from "./workload";
import { specArgsOf, type LiveSpec } from "./spec-args";
import type { PodArgs } from "./args";
import { dynamicType } from "./type-token";
import type { liveSpec } from "../hosted-resource";

export type { PodPortArgs, PodSourceArgs, PodArgs } from "./args";

/**
 * A container app (`pod`).
 * @see pulumi-wws/docs/fields.md#pod (shipped in the package): each argument, its values, default and what a change does
 * @see pulumi-wws/provider/README.md#what-each-change-does (shipped in the package): what each change of its arguments does
 */
export class Pod extends WorkloadResource {
  static readonly __pulumiType = dynamicType("Pod");
  declare static isInstance: (obj: unknown) => obj is Pod;
  declare readonly [liveSpec]?: LiveSpec<"pod">;

  constructor(name: string, args: PodArgs, opts?: pulumi.CustomResourceOptions) {
    super("Pod", name, "pod", specArgsOf("pod", args), args, opts);
  }
}
