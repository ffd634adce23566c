import type * as pulumi from "@pulumi/pulumi";
import type { ConnectionArgs, CredentialsArgs } from "./inputs";
import { WorkloadResource, type WorkloadCommonArgs } from "./workload";
import { specArgsOf, type LiveSpec } from "./spec-args";
import { dynamicType, isOfType } from "./type-token";

export interface BackupArgs {
  /** Take backups. Postgres only. */
  enabled: pulumi.Input<boolean>;
  /** When, e.g. a cron expression. */
  schedule?: pulumi.Input<string>;
  /** How long backups are kept, 1-3650 days. */
  retentionDays?: pulumi.Input<number>;
}

export interface DatabaseArgs extends WorkloadCommonArgs {
  /** `postgres` or `redis`. Changing it replaces the database, deleting its data: refused unless `allowDataLoss: true`. */
  engine: pulumi.Input<"postgres" | "redis">;
  /** The engine version. */
  version?: pulumi.Input<string>;
  /** Instances: 1, 2 or 3. */
  instances?: pulumi.Input<1 | 2 | 3>;
  /** Disk size: `<N>Mi`, `<N>Gi` or `<N>Ti`. */
  storageSize?: pulumi.Input<string>;
  /** CPU: millicores `<N>m` or whole cores `<N>`. */
  cpu?: pulumi.Input<string>;
  /** Memory: `<N>Mi`, `<N>Gi` or `<N>Ti`. */
  memory?: pulumi.Input<string>;
  /** TLS between clients and the database. */
  tls?: pulumi.Input<boolean>;
  /**
   * Attach a web admin console at `https://<id>-admin-<workspace>.<domain>` (login `admin` plus the
   * database password). Its URL and readiness are the outputs `adminUrl` and `adminReady`.
   */
  adminConsole?: pulumi.Input<boolean>;
  /**
   * External exposure. When exposed, the endpoint is TLS with SNI routing at
   * `<id>.<workspace>.<domain>`: postgres on 5432 (`sslmode=require`), redis on 6380.
   */
  network?: pulumi.Input<{ exposed: pulumi.Input<boolean> }>;
  /**
   * The application login: `password` required (1-1024 characters), `username` defaults to `app`.
   * Set once: the service cannot change it, so a change is refused at preview (a replacement, which
   * deletes the data, only with `allowDataLoss: true`). Write-only, a Pulumi secret.
   */
  credentials: pulumi.Input<CredentialsArgs>;
  /** Backups (postgres only). */
  backup?: pulumi.Input<BackupArgs>;
  /** With `adminConsole: true`: also wait until the admin console is ready. @default false */
  waitForAdminConsole?: pulumi.Input<boolean>;
  /**
   * Let a change replace this database: a new `engine`, `workloadId` or workspace, or new
   * credentials (the service sets a database's login once and cannot change it). A replacement
   * deletes the database and its data. Without this, `pulumi preview` refuses such a change,
   * naming the property. Deleting it on purpose (`pulumi destroy`, removing it from the program)
   * is not guarded: use the `protect` resource option for that. @default false
   */
  allowDataLoss?: pulumi.Input<boolean>;
}

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
