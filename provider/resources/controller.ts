import type * as pulumi from "@pulumi/pulumi";
import { WorkloadResource } from "./workload";
import { specArgsOf, type LiveSpec } from "./spec-args";
import type { ControllerArgs } from "./args";
import { dynamicType } from "./type-token";
import type { liveSpec } from "../hosted-resource";

export type { ControllerArgs } from "./args";

/**
 * A browser-automation controller (`controller`).
 * @see pulumi-wws/docs/fields.md#controller (shipped in the package): each argument, its values, default and what a change does
 * @see pulumi-wws/provider/README.md#what-each-change-does (shipped in the package): what each change of its arguments does
 */
export class Controller extends WorkloadResource {
  static readonly __pulumiType = dynamicType("Controller");
  declare static isInstance: (obj: unknown) => obj is Controller;
  declare readonly [liveSpec]?: LiveSpec<"controller">;

  constructor(name: string, args: ControllerArgs = {}, opts?: pulumi.CustomResourceOptions) {
    super("Controller", name, "controller", specArgsOf("controller", args), args, opts);
  }
}
