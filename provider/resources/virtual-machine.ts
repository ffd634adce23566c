import * as pulumi from "@pulumi/pulumi";
import type { VirtualMachineArgs } from "./args";
import { WorkloadResource } from "./workload";
import { specArgsOf, type LiveSpec } from "./spec-args";
import { dynamicType } from "./type-token";
import type { liveSpec } from "../hosted-resource";

export type { VmOs, VmPortArgs, PlacementArgs, AiDaemonArgs, VirtualMachineArgs } from "./args";

/**
 * A virtual machine: `vm-ubuntu`, `vm-ubuntu-desktop` or `vm-windows`.
 * @see pulumi-wws/docs/fields.md#virtualmachine (shipped in the package): each argument, its values, default and what a change does
 * @see pulumi-wws/provider/README.md#what-each-change-does (shipped in the package): what each change of its arguments does
 * @see pulumi-wws/provider/README.md#secrets: how its password is kept out of the state and the logs
 */
export class VirtualMachine extends WorkloadResource {
  static readonly __pulumiType = dynamicType("VirtualMachine");
  declare static isInstance: (obj: unknown) => obj is VirtualMachine;
  declare readonly [liveSpec]?: LiveSpec<"vm-ubuntu">;

  constructor(name: string, args: VirtualMachineArgs, opts?: pulumi.CustomResourceOptions) {
    const type = typeof args.os === "string" ? `vm-${args.os}` : pulumi.output(args.os).apply((os) => `vm-${os}`);
    // Every VM type takes the same body.
    super("VirtualMachine", name, type, specArgsOf("vm-ubuntu", args), args, opts, ["os"]);
  }
}
