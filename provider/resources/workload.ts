import * as pulumi from "@pulumi/pulumi";
import type { WorkloadType } from "../../sdk";
import { NOT_SPEC_KEYS, credentialsDigestAsync, type EnvelopeArgs } from "../dynamic/program-side";
import { WORKLOAD_RULES } from "../fields/workload-rules";
import { HostedResource } from "../hosted-resource";
import { claimWorkloadId } from "./declared-ids";
import { deletedWithWarning, replacementOptions } from "./replacement-options";
import { takeImportOption } from "./import-option";
import { defaultedKeys } from "./shown-defaults";
import { readResourceProps } from "./read-resource";
import { carriedTimeouts, connectionProps, refuseDeepInput, secretOrUndefined } from "./inputs";
import type { CredentialsArgs, WorkloadArgs, WorkloadCommonArgs } from "./args";
import { dynamicType } from "./type-token";

export type { WorkloadArgs, WorkloadCommonArgs } from "./args";

type AllArgs = WorkloadCommonArgs & {
  credentials?: pulumi.Input<CredentialsArgs>;
  waitForAdminConsole?: pulumi.Input<boolean>;
  allowDataLoss?: pulumi.Input<boolean>;
};

/** A workload as its class's constructor was given it. */
interface Declaration {
  className: string;
  name: string;
  type: pulumi.Input<string>;
  spec: Record<string, pulumi.Input<unknown> | undefined>;
  args: AllArgs;
  /** Arguments the class turned into something else (a VM's `os`, a `Workload`'s `kind` and `spec`). */
  consumed: readonly string[];
}

/** Keys a spec must not use: the bag's own keys, and `id` (the engine's; users set `workloadId`). */
const RESERVED = new Set(["id", ...NOT_SPEC_KEYS]);

/** The properties of a read resource (`get`): the connection, and the class's own spec fields for the live spec to fill. */
function readWorkload(d: Declaration, opts: pulumi.CustomResourceOptions) {
  // The class's spec fields too: the live spec fills them (a database's `engine`, a pod's `image`).
  const properties = new Set([...WORKLOAD_RULES.properties, ...Object.keys(d.spec)]);
  return { ...readResourceProps(d.args, opts, WORKLOAD_RULES.secretKeys, properties), properties };
}

/** The spec fields as registered: the secret ones (a pod's `source`) as secrets, whatever the user passed. */
function specProps(spec: Declaration["spec"]): Record<string, unknown> {
  return Object.fromEntries(
    Object.entries(spec).map(([k, v]) => [k, WORKLOAD_RULES.secretSpecKeys.includes(k) ? secretOrUndefined(v) : v]),
  );
}

/**
 * Arguments this class does not know (a misspelt name in JavaScript, a field of another kind),
 * with a value: passed on as they are, so that `check` refuses them at preview naming each one
 * (TypeScript refuses them at compile time already).
 */
function unknownArgs(d: Declaration): Record<string, unknown> {
  const known = new Set([...WORKLOAD_RULES.commonArgs, ...Object.keys(d.spec), ...d.consumed]);
  return Object.fromEntries(Object.entries(d.args).filter(([k, v]) => !known.has(k) && v !== undefined));
}

/** Throws, as the program runs, on a key of `values` the bag reserves, or a value nested too deep. */
function refuseReservedOrDeep(d: Declaration, values: Record<string, unknown>, refusal: (key: string) => string): void {
  for (const key of Object.keys(values)) {
    if (RESERVED.has(key))
      throw new Error(`${d.className} ${d.name}: ${refusal(key)}${key === "id" ? " (set workloadId)" : ""}`);
    refuseDeepInput(d.className, d.name, key, values[key]);
  }
}

/** The options replacement needs (see replacement-options.ts), and the options that replace without `diff`. */
function replacementSettings(d: Declaration, opts: pulumi.CustomResourceOptions | undefined) {
  // The engine's detailed diff then marks these `*-replace`.
  const ownReplaceKeys = WORKLOAD_RULES.replaceOnChanges(d.type);
  const replaceOnChanges = [...new Set([...(opts?.replaceOnChanges ?? []), ...ownReplaceKeys])];
  const { deleteBeforeReplace, replacedBy } = replacementOptions(opts, ownReplaceKeys);
  return { opts: { ...opts, replaceOnChanges, deleteBeforeReplace }, replacedBy };
}

/** The common arguments other than the connection, the secret ones as secrets. */
function commonArgProps(d: Declaration): Record<string, unknown> {
  const given = d.args as Record<string, unknown>;
  const declared = WORKLOAD_RULES.commonArgs.filter((k) => !WORKLOAD_RULES.connectionKeys.includes(k));
  return Object.fromEntries(
    declared.map((k) => [k, WORKLOAD_RULES.secretKeys.includes(k) ? secretOrUndefined(given[k]) : given[k]]),
  );
}

/**
 * The digest of `credentials`, made here so that every resource's runs in parallel as the program
 * runs, not one after another in `check` (see dynamic/inputs/envelope.ts). A secret, like the login.
 */
function digestAsTheProgramRuns(
  workloadId: pulumi.Input<string>,
  credentials: pulumi.Input<CredentialsArgs> | undefined,
): pulumi.Output<string | undefined> | undefined {
  if (credentials === undefined) return undefined;
  return pulumi.secret(pulumi.all([workloadId, credentials]).apply(([id, login]) => credentialsDigestAsync(id, login)));
}

/**
 * What a declared (not read) workload registers: its inputs, its options and the envelope `check`
 * alone reads; refusing, as the program runs, what never can be.
 */
function declareWorkload(d: Declaration, givenOpts: pulumi.CustomResourceOptions | undefined) {
  const { opts, importId } = takeImportOption(givenOpts);
  refuseReservedOrDeep(d, d.spec, (key) => `spec field "${key}" is not allowed`);
  const extra = unknownArgs(d);
  refuseReservedOrDeep(d, extra, (key) => `"${key}" is not an argument of ${d.className}`);
  const replacement = replacementSettings(d, opts);
  const connection = connectionProps(d.args, replacement.opts, WORKLOAD_RULES.secretKeys);
  // Unset, the id is the resource name for a new resource, and the state's for an existing one
  // (renamed with aliases, say): check settles it (inputs/class-defaults.ts). Claimed here as the name.
  const workloadId = d.args.workloadId ?? d.name;
  const workspace = connection.defaulted.includes("workspace") ? undefined : connection.props.workspace;
  claimWorkloadId(`${d.className} "${d.name}"`, workspace, workloadId);
  const props: pulumi.Inputs = {
    ...specProps(d.spec),
    ...extra,
    ...commonArgProps(d),
    workloadId,
    type: d.type,
    ...connection.props,
    customTimeouts: carriedTimeouts(opts),
    // Every output must be a key here for the resource to get a property for it.
    ...Object.fromEntries(WORKLOAD_RULES.outputKeys.map((k) => [k, undefined])),
  };
  const envelope: EnvelopeArgs = {
    importId,
    credentialsDigest: digestAsTheProgramRuns(workloadId, d.args.credentials),
    replacedBy: replacement.replacedBy,
    createsFirst: replacement.opts.deleteBeforeReplace ? undefined : true,
    defaulted: defaultedKeys([...connection.defaulted, ...(d.args.workloadId === undefined ? ["workloadId"] : [])]),
  };
  return { props, opts: connection.opts, envelope };
}

/**
 * What every workload resource has: the type token `pulumi-nodejs:dynamic/wws:<Class>`, the
 * one-line provider of `provider/hosted-resource.ts` and these outputs.
 */
export abstract class WorkloadResource extends HostedResource {
  declare static isInstance: (obj: unknown) => obj is WorkloadResource;
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
    args: AllArgs,
    givenOpts?: pulumi.CustomResourceOptions,
    /** Arguments the class turned into something else (a VM's `os`, a `Workload`'s `kind` and `spec`). */
    consumed: readonly string[] = [],
  ) {
    const declaration: Declaration = { className, name, type, spec, args, consumed };
    if (givenOpts?.id !== undefined) {
      // `get`: a read resource, whose state argument is only a connection.
      const read = readWorkload(declaration, givenOpts);
      super("workload", className, name, read.props, read.properties, read.opts);
      return;
    }
    const declared = declareWorkload(declaration, givenOpts);
    super("workload", className, name, declared.props, WORKLOAD_RULES.properties, declared.opts, declared.envelope);
    const warning = deletedWithWarning(`${className} "${name}"`, givenOpts);
    if (warning) void pulumi.log.warn(warning, this);
  }
}

/**
 * Any workload, by type and spec: what the typed classes (`VirtualMachine`, `Pod`, `Browser`,
 * `Controller`, `Database`) build on, for a type they do not cover yet or a spec built as data.
 * @see pulumi-wws/docs/fields.md#workload (shipped in the package): each argument, its values, default and what a change does
 * @see pulumi-wws/provider/README.md#what-each-change-does (shipped in the package): what each change of its arguments does
 */
export class Workload extends WorkloadResource {
  static readonly __pulumiType = dynamicType("Workload");
  declare static isInstance: (obj: unknown) => obj is Workload;

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
