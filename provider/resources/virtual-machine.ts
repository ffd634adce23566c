import * as pulumi from "@pulumi/pulumi";
import type { ConnectionArgs, VirtualMachineArgs } from "./args";
import { WorkloadResource } from "./workload";
import { specArgsOf, type LiveSpec } from "./spec-args";
import { dynamicType, isOfType } from "./type-token";

export type { VmOs, VmPortArgs, PlacementArgs, AiDaemonArgs, VirtualMachineArgs } from "./args";

/**
 * A virtual machine: `vm-ubuntu`, `vm-ubuntu-desktop` or `vm-windows`.
 * @see pulumi-wws/docs/fields.md#virtualmachine (shipped in the package): each argument, its values, default and what a change does
 * @see pulumi-wws/provider/README.md#what-each-change-does (shipped in the package): what each change of its arguments does
 * @see pulumi-wws/provider/README.md#secrets: how its password is kept out of the state and the logs
 */
export class VirtualMachine extends WorkloadResource {
  /** The type token, by which `@pulumi/policy`'s `validateResourceOfType(VirtualMachine, …)` and `isType` match. */
  static readonly __pulumiType = dynamicType("VirtualMachine");

  /** True for a `VirtualMachine`, also one of another copy of this package, or `{__pulumiType}` naming its type. */
  static isInstance(obj: unknown): obj is VirtualMachine {
    return isOfType(obj, [VirtualMachine.__pulumiType]);
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
  ): VirtualMachine & LiveSpec<"vm-ubuntu"> {
    return new VirtualMachine(name, (state ?? {}) as VirtualMachineArgs, { ...opts, id }) as VirtualMachine &
      LiveSpec<"vm-ubuntu">;
  }

  constructor(name: string, args: VirtualMachineArgs, opts?: pulumi.CustomResourceOptions) {
    const type = typeof args.os === "string" ? `vm-${args.os}` : pulumi.output(args.os).apply((os) => `vm-${os}`);
    // Every VM type takes the same body.
    super("VirtualMachine", name, type, specArgsOf("vm-ubuntu", args), args, opts, ["os"]);
  }
}
