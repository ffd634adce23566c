import type * as pulumi from "@pulumi/pulumi";
import { WorkloadResource, type WorkloadCommonArgs } from "./workload";

export interface ControllerArgs extends WorkloadCommonArgs {
  /** Discover the workspace's browsers by itself. */
  autodiscover?: pulumi.Input<boolean>;
}

/** A browser-automation controller (`controller`). */
export class Controller extends WorkloadResource {
  constructor(name: string, args: ControllerArgs = {}, opts?: pulumi.CustomResourceOptions) {
    super("Controller", name, "controller", { autodiscover: args.autodiscover }, args, opts);
  }
}
