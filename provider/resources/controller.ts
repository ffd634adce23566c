import type * as pulumi from "@pulumi/pulumi";
import { WorkloadResource, type WorkloadCommonArgs } from "./workload";
import { specArgsOf } from "./spec-args";
import { dynamicType, isOfType } from "./type-token";

export interface ControllerArgs extends WorkloadCommonArgs {
  /** Discover the workspace's browsers by itself. */
  autodiscover?: pulumi.Input<boolean>;
}

/**
 * A browser-automation controller (`controller`).
 * @see pulumi-wws/docs/fields.md#controller (shipped in the package): each argument, its values, default and what a change does
 * @see pulumi-wws/provider/README.md#what-each-change-does (shipped in the package): what each change of its arguments does
 */
export class Controller extends WorkloadResource {
  /** The type token, by which `@pulumi/policy`'s `validateResourceOfType(Controller, …)` and `isType` match. */
  static readonly __pulumiType = dynamicType("Controller");

  /** True for a `Controller`, also one of another copy of this package, or `{__pulumiType}` naming its type. */
  static isInstance(obj: unknown): obj is Controller {
    return isOfType(obj, [Controller.__pulumiType]);
  }

  constructor(name: string, args: ControllerArgs = {}, opts?: pulumi.CustomResourceOptions) {
    super("Controller", name, "controller", specArgsOf("controller", args), args, opts);
  }
}
