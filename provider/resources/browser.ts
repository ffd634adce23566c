import type * as pulumi from "@pulumi/pulumi";
import { WorkloadResource } from "./workload";
import { specArgsOf, type LiveSpec } from "./spec-args";
import type { BrowserArgs } from "./args";
import { dynamicType } from "./type-token";
import type { liveSpec } from "../hosted-resource";

export type { BrowserArgs } from "./args";

/**
 * A headless Chromium (`browser`).
 * @see pulumi-wws/docs/fields.md#browser (shipped in the package): each argument, its values, default and what a change does
 * @see pulumi-wws/provider/README.md#what-each-change-does (shipped in the package): what each change of its arguments does
 */
export class Browser extends WorkloadResource {
  static readonly __pulumiType = dynamicType("Browser");
  declare static isInstance: (obj: unknown) => obj is Browser;
  declare readonly [liveSpec]?: LiveSpec<"browser">;

  constructor(name: string, args: BrowserArgs = {}, opts?: pulumi.CustomResourceOptions) {
    super("Browser", name, "browser", specArgsOf("browser", args), args, opts);
  }
}
