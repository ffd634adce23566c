import * as pulumi from "@pulumi/pulumi";
import type { WorkloadType } from "../../sdk/schemas";
import { workloadProvider } from "../stub";
import { connectionProps, credentialProps, refuseDeepInput, type ConnectionArgs, type CredentialsArgs, type WaitArgs } from "./inputs";

/** Arguments every workload resource takes. */
export interface WorkloadCommonArgs extends ConnectionArgs, WaitArgs {}

/** The outputs the service reports, as properties of the resource (undefined until known). */
const OUTPUTS = ["phase", "message", "restartCount", "endpoint", "adminUrl", "adminReady", "connectionUri", "generation", "observedGeneration"];

/** Keys of the property bag that are not spec fields; a spec must not use them. */
const RESERVED = new Set(["id", "workloadId", "type", "credentialsDigest", "workspace", "baseUrl", "apiKey", "waitForReady", "readyTimeoutSeconds", "waitForAdminConsole", "restartTrigger", "adopt", "__provider", ...OUTPUTS]);

/**
 * What every workload resource has: the type token `pulumi-nodejs:dynamic/wws:<Class>`, the
 * serialized stub provider (see `provider/stub.ts`) and these outputs.
 */
export abstract class WorkloadResource extends pulumi.dynamic.Resource {
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
    args: WorkloadCommonArgs & { credentials?: pulumi.Input<CredentialsArgs>; waitForAdminConsole?: pulumi.Input<boolean> },
    opts?: pulumi.CustomResourceOptions,
  ) {
    for (const key of Object.keys(spec)) {
      if (RESERVED.has(key)) throw new Error(`${className} ${name}: spec field "${key}" is not allowed${key === "id" ? " (set workloadId)" : ""}`);
      refuseDeepInput(className, name, key, spec[key]);
    }
    const connection = connectionProps(args, opts);
    const workloadId = args.workloadId ?? name;
    const props: pulumi.Inputs = {
      workloadId,
      type,
      ...spec,
      credentials: undefined,
      credentialsDigest: undefined,
      ...credentialProps(args.credentials, workloadId),
      ...connection.props,
      waitForReady: args.waitForReady,
      readyTimeoutSeconds: args.readyTimeoutSeconds,
      waitForAdminConsole: args.waitForAdminConsole,
      restartTrigger: args.restartTrigger,
      adopt: args.adopt,
      // Every output must be a key here for the resource to get a property for it.
      ...Object.fromEntries(OUTPUTS.map((k) => [k, undefined])),
    };
    super(workloadProvider, name, props, connection.opts, "wws", className);
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
}

/**
 * Any workload, by type and spec: what the typed classes (`VirtualMachine`, `Pod`, `Browser`,
 * `Controller`, `Database`) build on, for a type they do not cover yet or a spec built as data.
 */
export class Workload extends WorkloadResource {
  constructor(name: string, args: WorkloadArgs, opts?: pulumi.CustomResourceOptions) {
    const { credentials, ...spec } = args.spec ?? {};
    super("Workload", name, args.kind, spec, { ...args, credentials: args.credentials ?? (credentials as pulumi.Input<CredentialsArgs> | undefined) }, opts);
  }
}
