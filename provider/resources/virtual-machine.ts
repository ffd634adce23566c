import * as pulumi from "@pulumi/pulumi";
import type { ConnectionArgs, CredentialsArgs } from "./inputs";
import { WorkloadResource, type WorkloadCommonArgs } from "./workload";
import { specArgsOf, type LiveSpec } from "./spec-args";
import { dynamicType, isOfType } from "./type-token";

/** The VM images: `ubuntu` → type `vm-ubuntu`, `ubuntu-desktop` → `vm-ubuntu-desktop`, `windows` → `vm-windows`. */
export type VmOs = "ubuntu" | "ubuntu-desktop" | "windows";

export interface VmPortArgs {
  /** A name for the port (1-63 characters). */
  name?: pulumi.Input<string>;
  /** The port number, 1-65535. */
  port: pulumi.Input<number>;
  /** @default tcp */
  protocol?: pulumi.Input<"tcp" | "udp">;
}

export interface PlacementArgs {
  /** Run on any host of this region. Not together with `host`. */
  region?: pulumi.Input<string>;
  /** Pin to this host (it implies its region). Not together with `region`. */
  host?: pulumi.Input<string>;
}

export interface AiDaemonArgs {
  /** Attach the agent. The first request that enables it must carry `credentials`. */
  enabled: pulumi.Input<boolean>;
  /** The model provider. */
  provider?: pulumi.Input<string>;
  /** The model. */
  model?: pulumi.Input<string>;
}

export interface VirtualMachineArgs extends WorkloadCommonArgs {
  /** The image. Changing it replaces the VM (deleted first: the id is reused). */
  os: pulumi.Input<VmOs>;
  /** Virtual CPUs, an integer 1-256. */
  cpus?: pulumi.Input<number>;
  /** Memory: `<N>Mi`, `<N>Gi` or `<N>Ti`, e.g. `8Gi`. */
  memory?: pulumi.Input<string>;
  /** Disk size: `<N>Mi`, `<N>Gi` or `<N>Ti`, e.g. `100Gi`. */
  storageSize?: pulumi.Input<string>;
  /**
   * The login. Required for a new VM (unless `adopt`); a change is sent with an update and
   * replaces the stored one. Write-only and a Pulumi secret: never in outputs or logs in plaintext.
   */
  credentials?: pulumi.Input<CredentialsArgs>;
  /** Ports to open, at most 64. */
  ports?: pulumi.Input<pulumi.Input<VmPortArgs>[]>;
  /**
   * Omitted: automatic placement (the service picks the best host), the default. Set only for
   * locality: a `region` or a pinned `host` (see `getFleetHosts()`).
   */
  placement?: pulumi.Input<PlacementArgs>;
  /** An AI agent that operates the VM over SSH. Enabling it requires `credentials` on the same request. */
  aiDaemon?: pulumi.Input<AiDaemonArgs>;
}

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
