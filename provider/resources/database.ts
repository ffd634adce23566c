import type * as pulumi from "@pulumi/pulumi";
import type { ConnectionArgs, DatabaseArgs } from "./args";
import { WorkloadResource } from "./workload";
import { specArgsOf, type LiveSpec } from "./spec-args";
import { dynamicType, isOfType } from "./type-token";

export type { BackupArgs, DatabaseArgs } from "./args";

/**
 * A managed database (`storage`): postgres or redis.
 * @see pulumi-wws/docs/fields.md#database (shipped in the package): each argument, its values, default and what a change does
 * @see pulumi-wws/provider/README.md#no-data-lost-without-a-yes (shipped in the package): which changes replace it, and `allowDataLoss`
 * @see pulumi-wws/provider/README.md#secrets: how its password is kept out of the state and the logs
 */
export class Database extends WorkloadResource {
  /** The type token, by which `@pulumi/policy`'s `validateResourceOfType(Database, …)` and `isType` match. */
  static readonly __pulumiType = dynamicType("Database");

  /** True for a `Database`, also one of another copy of this package, or `{__pulumiType}` naming its type. */
  static isInstance(obj: unknown): obj is Database {
    return isOfType(obj, [Database.__pulumiType]);
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
  ): Database & LiveSpec<"storage"> {
    return new Database(name, (state ?? {}) as DatabaseArgs, { ...opts, id }) as Database & LiveSpec<"storage">;
  }

  /** How to connect, without the password: `postgresql://app@<endpoint>/postgres?sslmode=require` or `rediss://app@<endpoint>`; set when exposed. */
  declare readonly connectionUri: pulumi.Output<string | undefined>;

  constructor(name: string, args: DatabaseArgs, opts?: pulumi.CustomResourceOptions) {
    super("Database", name, "storage", specArgsOf("storage", args), args, opts);
  }
}
