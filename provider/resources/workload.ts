import * as pulumi from "@pulumi/pulumi";
import type { WorkloadType } from "../../sdk";
import {
  DIGEST_KEY,
  IMPORT_ID_KEY,
  NOT_SPEC_KEYS,
  REPLACED_BY_KEY,
  credentialsDigestAsync,
} from "../dynamic/program-side";
import { WORKLOAD_RULES } from "../fields/workload-rules";
import { HostedResource } from "../hosted-resource";
import { claimWorkloadId } from "./declared-ids";
import { deletedWithWarning, replacementOptions } from "./replacement-options";
import { takeImportOption } from "./import-option";
import { defaultedEntry } from "./shown-defaults";
import { readResourceProps } from "./read-resource";
import {
  carriedTimeouts,
  connectionProps,
  refuseDeepInput,
  secretOrUndefined,
  type ConnectionArgs,
  type CredentialsArgs,
  type WaitArgs,
} from "./inputs";
import { WORKLOAD_CLASSES, dynamicType, isOfType } from "./type-token";

const WORKLOAD_TYPES = WORKLOAD_CLASSES.map(dynamicType);

/** Arguments every workload resource takes. */
export interface WorkloadCommonArgs extends ConnectionArgs, WaitArgs {}

/** Keys a spec must not use: the bag's own keys, and `id` (the engine's; users set `workloadId`). */
const RESERVED = new Set(["id", ...NOT_SPEC_KEYS]);

/**
 * Arguments this class does not know (a misspelt name in JavaScript, a field of another kind),
 * with a value: passed on as they are, so that `check` refuses them at preview naming each one
 * (TypeScript refuses them at compile time already).
 */
function unknownArgs(
  args: object,
  spec: Record<string, unknown>,
  consumed: readonly string[],
): Record<string, unknown> {
  const known = new Set([...WORKLOAD_RULES.commonArgs, ...Object.keys(spec), ...consumed]);
  return Object.fromEntries(Object.entries(args).filter(([k, v]) => !known.has(k) && v !== undefined));
}

/**
 * The digest of `credentials`, made here so that every resource's runs in parallel as the program
 * runs, not one after another in `check` (see `DIGEST_KEY`). A secret, like the login.
 */
function digestAsTheProgramRuns(
  workloadId: pulumi.Input<string>,
  credentials: pulumi.Input<CredentialsArgs> | undefined,
): pulumi.Output<string | undefined> | undefined {
  if (credentials === undefined) return undefined;
  return pulumi.secret(pulumi.all([workloadId, credentials]).apply(([id, login]) => credentialsDigestAsync(id, login)));
}

/**
 * What every workload resource has: the type token `pulumi-nodejs:dynamic/wws:<Class>`, the
 * one-line provider of `provider/hosted-resource.ts` and these outputs.
 */
export abstract class WorkloadResource extends HostedResource {
  /** True for a resource of any workload class (`Pod`, `Database`, `Workload`, …), or `{__pulumiType}` naming one. */
  static isInstance(obj: unknown): obj is WorkloadResource {
    return isOfType(obj, WORKLOAD_TYPES);
  }

  /** The workload id in its workspace. */
  declare readonly workloadId: pulumi.Output<string>;
  /** The workspace name. */
  declare readonly workspace: pulumi.Output<string>;
  /** The base URL of the service. */
  declare readonly baseUrl: pulumi.Output<string>;
  /** The workload type: `vm-ubuntu`, `vm-ubuntu-desktop`, `vm-windows`, `pod`, `browser`, `controller` or `storage`. */
  declare readonly type: pulumi.Output<WorkloadType>;
  /** The phase last seen: `Pending`, `Provisioning`, `Running`, `Restarting`, `Failed` or `Deleting`. */
  declare readonly phase: pulumi.Output<string>;
  /** The service's message about the phase (why it `Failed`, for one). */
  declare readonly message: pulumi.Output<string | undefined>;
  /** How many times the workload was restarted. */
  declare readonly restartCount: pulumi.Output<number | undefined>;
  /** `host:port` where the workload is reachable (a pod with ports, an exposed database). */
  declare readonly endpoint: pulumi.Output<string | undefined>;
  /** The admin console of a database with `adminConsole: true`. */
  declare readonly adminUrl: pulumi.Output<string | undefined>;
  /** Whether that admin console is ready. */
  declare readonly adminReady: pulumi.Output<boolean | undefined>;
  /** The generation of the spec (every update and restart adds one) and the one last reached. */
  declare readonly generation: pulumi.Output<number | undefined>;
  declare readonly observedGeneration: pulumi.Output<number | undefined>;

  protected constructor(
    className: string,
    name: string,
    type: pulumi.Input<string>,
    spec: Record<string, pulumi.Input<unknown> | undefined>,
    args: WorkloadCommonArgs & {
      credentials?: pulumi.Input<CredentialsArgs>;
      waitForAdminConsole?: pulumi.Input<boolean>;
      allowDataLoss?: pulumi.Input<boolean>;
    },
    givenOpts?: pulumi.CustomResourceOptions,
    /** Arguments the class turned into something else (a VM's `os`, a `Workload`'s `kind` and `spec`). */
    consumed: readonly string[] = [],
  ) {
    if (givenOpts?.id !== undefined) {
      // `get`: a read resource, whose state argument is only a connection.
      // The class's spec fields too: the live spec fills them (a database's `engine`, a pod's `image`).
      const properties = new Set([...WORKLOAD_RULES.properties, ...Object.keys(spec)]);
      const read = readResourceProps(args, givenOpts, WORKLOAD_RULES.secretKeys, properties);
      super("workload", className, name, read.props, WORKLOAD_RULES.properties, read.opts);
      return;
    }
    const { opts, importId } = takeImportOption(givenOpts);
    for (const key of Object.keys(spec)) {
      if (RESERVED.has(key))
        throw new Error(
          `${className} ${name}: spec field "${key}" is not allowed${key === "id" ? " (set workloadId)" : ""}`,
        );
      refuseDeepInput(className, name, key, spec[key]);
    }
    const extra = unknownArgs(args, spec, consumed);
    for (const key of Object.keys(extra)) {
      if (RESERVED.has(key))
        throw new Error(
          `${className} ${name}: "${key}" is not an argument of ${className}${key === "id" ? " (set workloadId)" : ""}`,
        );
      refuseDeepInput(className, name, key, extra[key]);
    }
    // The engine's detailed diff then marks these `*-replace`.
    const ownReplaceKeys = WORKLOAD_RULES.replaceOnChanges(type);
    const replaceOnChanges = [...new Set([...(opts?.replaceOnChanges ?? []), ...ownReplaceKeys])];
    const { deleteBeforeReplace, replacedBy } = replacementOptions(opts, ownReplaceKeys);
    const connection = connectionProps(
      args,
      { ...opts, replaceOnChanges, deleteBeforeReplace },
      WORKLOAD_RULES.secretKeys,
    );
    // Unset, the id is the resource name for a new resource, and the state's for an existing one
    // (renamed with aliases, say): check settles it (inputs/class-defaults.ts). Claimed here as the name.
    const workspace = connection.defaulted.includes("workspace") ? undefined : connection.props.workspace;
    claimWorkloadId(`${className} "${name}"`, workspace, args.workloadId ?? name);
    const given = args as Record<string, unknown>;
    const declared = WORKLOAD_RULES.commonArgs.filter((k) => !WORKLOAD_RULES.connectionKeys.includes(k));
    const props: pulumi.Inputs = {
      ...spec,
      ...extra,
      ...Object.fromEntries(
        declared.map((k) => [k, WORKLOAD_RULES.secretKeys.includes(k) ? secretOrUndefined(given[k]) : given[k]]),
      ),
      workloadId: args.workloadId ?? name,
      [IMPORT_ID_KEY]: importId,
      type,
      [DIGEST_KEY]: digestAsTheProgramRuns(args.workloadId ?? name, args.credentials),
      [REPLACED_BY_KEY]: replacedBy,
      ...connection.props,
      ...defaultedEntry([...connection.defaulted, ...(args.workloadId === undefined ? ["workloadId"] : [])]),
      customTimeouts: carriedTimeouts(opts),
      // Every output must be a key here for the resource to get a property for it.
      ...Object.fromEntries(WORKLOAD_RULES.outputKeys.map((k) => [k, undefined])),
    };
    super("workload", className, name, props, WORKLOAD_RULES.properties, connection.opts);
    const warning = deletedWithWarning(`${className} "${name}"`, opts);
    if (warning) void pulumi.log.warn(warning, this);
  }
}

export interface WorkloadArgs extends WorkloadCommonArgs {
  /** The workload type. Changing it replaces the workload (deleted first: the id is reused). */
  kind: pulumi.Input<WorkloadType>;
  /**
   * The fields of the type's create body other than `id` and `credentials` (service spec 2.1),
   * e.g. `{cpus: 2, memory: "4Gi"}` for a VM. Each is checked at preview against the type's schema.
   */
  spec?: Record<string, pulumi.Input<unknown>>;
  /** The login, for VMs (required for a new one) and databases (required, set once). A secret. */
  credentials?: pulumi.Input<CredentialsArgs>;
  /** For a database with `adminConsole: true`: also wait for the admin console. @default false */
  waitForAdminConsole?: pulumi.Input<boolean>;
  /** For a database (`storage`): let a change replace it, deleting its data. See `DatabaseArgs.allowDataLoss`. @default false */
  allowDataLoss?: pulumi.Input<boolean>;
}

/**
 * Any workload, by type and spec: what the typed classes (`VirtualMachine`, `Pod`, `Browser`,
 * `Controller`, `Database`) build on, for a type they do not cover yet or a spec built as data.
 * @see pulumi-wws/docs/fields.md#workload (shipped in the package): each argument, its values, default and what a change does
 * @see pulumi-wws/provider/README.md#what-each-change-does (shipped in the package): what each change of its arguments does
 */
export class Workload extends WorkloadResource {
  /** The type token, by which `@pulumi/policy`'s `validateResourceOfType(Workload, …)` and `isType` match. */
  static readonly __pulumiType = dynamicType("Workload");

  /** True for a `Workload`, also one of another copy of this package, or `{__pulumiType}` naming its type. */
  static isInstance(obj: unknown): obj is Workload {
    return isOfType(obj, [Workload.__pulumiType]);
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
  ): Workload {
    return new Workload(name, (state ?? {}) as WorkloadArgs, { ...opts, id });
  }

  constructor(name: string, args: WorkloadArgs, opts?: pulumi.CustomResourceOptions) {
    const { credentials, ...spec } = args.spec ?? {};
    super(
      "Workload",
      name,
      args.kind,
      spec,
      { ...args, credentials: args.credentials ?? (credentials as pulumi.Input<CredentialsArgs> | undefined) },
      opts,
      ["kind", "spec"],
    );
  }
}
