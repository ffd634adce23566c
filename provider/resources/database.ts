import type * as pulumi from "@pulumi/pulumi";
import type { DatabaseArgs } from "./args";
import { WorkloadResource } from "./workload";
import { specArgsOf, type LiveSpec } from "./spec-args";
import { dynamicType } from "./type-token";
import type { liveSpec } from "../hosted-resource";

export type { BackupArgs, DatabaseArgs } from "./args";

/**
 * A managed database (`storage`): postgres or redis.
 * @see pulumi-wws/docs/fields.md#database (shipped in the package): each argument, its values, default and what a change does
 * @see pulumi-wws/provider/README.md#no-data-lost-without-a-yes (shipped in the package): which changes replace it, and `allowDataLoss`
 * @see pulumi-wws/provider/README.md#secrets: how its password is kept out of the state and the logs
 */
export class Database extends WorkloadResource {
  static readonly __pulumiType = dynamicType("Database");
  declare static isInstance: (obj: unknown) => obj is Database;
  declare readonly [liveSpec]?: LiveSpec<"storage">;

  /** How to connect, without the password: `postgresql://app@<endpoint>/postgres?sslmode=require` or `rediss://app@<endpoint>`; set when exposed. */
  declare readonly connectionUri: pulumi.Output<string | undefined>;

  constructor(name: string, args: DatabaseArgs, opts?: pulumi.CustomResourceOptions) {
    super("Database", name, "storage", specArgsOf("storage", args), args, opts);
  }
}
