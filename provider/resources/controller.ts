import type * as pulumi from "@pulumi/pulumi";
import { WorkloadResource, type WorkloadCommonArgs } from "./workload";

export interface ControllerArgs extends WorkloadCommonArgs {
  /** Discover the workspace's browsers by itself. */
  autodiscover?: pulumi.Input<boolean>;
}

/**
 * A browser-automation controller (`controller`).
 * @see pulumi-wws/provider/README.md#what-each-change-does (shipped in the package): what each change of its arguments does
 */
export class Controller extends WorkloadResource {
  constructor(name: string, args: ControllerArgs = {}, opts?: pulumi.CustomResourceOptions) {
    super("Controller", name, "controller", { autodiscover: args.autodiscover }, args, opts);
  }
}
