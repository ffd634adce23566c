import type * as pulumi from "@pulumi/pulumi";
import { WorkloadResource } from "./workload";
import { specArgsOf, type LiveSpec } from "./spec-args";
import type { ConnectionArgs, BrowserArgs } from "./args";
import { dynamicType, isOfType } from "./type-token";

export type { BrowserArgs } from "./args";

/**
 * A headless Chromium (`browser`).
 * @see pulumi-wws/docs/fields.md#browser (shipped in the package): each argument, its values, default and what a change does
 * @see pulumi-wws/provider/README.md#what-each-change-does (shipped in the package): what each change of its arguments does
 */
export class Browser extends WorkloadResource {
  /** The type token, by which `@pulumi/policy`'s `validateResourceOfType(Browser, …)` and `isType` match. */
  static readonly __pulumiType = dynamicType("Browser");

  /** True for a `Browser`, also one of another copy of this package, or `{__pulumiType}` naming its type. */
  static isInstance(obj: unknown): obj is Browser {
    return isOfType(obj, [Browser.__pulumiType]);
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
  ): Browser & LiveSpec<"browser"> {
    return new Browser(name, (state ?? {}) as BrowserArgs, { ...opts, id }) as Browser & LiveSpec<"browser">;
  }

  constructor(name: string, args: BrowserArgs = {}, opts?: pulumi.CustomResourceOptions) {
    super("Browser", name, "browser", specArgsOf("browser", args), args, opts);
  }
}
