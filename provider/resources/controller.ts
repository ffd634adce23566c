import type * as pulumi from "@pulumi/pulumi";
import { WorkloadResource } from "./workload";
import { specArgsOf, type LiveSpec } from "./spec-args";
import type { ConnectionArgs, ControllerArgs } from "./args";
import { dynamicType, isOfType } from "./type-token";

export type { ControllerArgs } from "./args";

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
  ): Controller & LiveSpec<"controller"> {
    return new Controller(name, (state ?? {}) as ControllerArgs, { ...opts, id }) as Controller &
      LiveSpec<"controller">;
  }

  constructor(name: string, args: ControllerArgs = {}, opts?: pulumi.CustomResourceOptions) {
    super("Controller", name, "controller", specArgsOf("controller", args), args, opts);
  }
}
