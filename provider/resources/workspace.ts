import * as pulumi from "@pulumi/pulumi";

export interface WorkspaceArgs {
  /**
   * The workspace (tenant) name: a DNS label (1-63 lower-case letters, digits and '-', starting
   * and ending with a letter or digit). When omitted, each workload takes the stack config
   * `wws:workspace`, then `WWS_WORKSPACE` (never the resource name). When given while the config or
   * environment names another workspace, `pulumi preview` fails naming both.
   */
  name?: pulumi.Input<string>;
  /**
   * `http(s)://host[:port]` of the service; no credentials, query or fragment.
   * When omitted, each workload falls back to the stack config `wws:baseUrl`, then `WWS_BASE_URL`.
   */
  baseUrl?: pulumi.Input<string>;
  /**
   * The workspace's API key (minted on its API keys page; valid for this workspace only). Always
   * stored as a Pulumi secret, even when given as a plain string. When omitted, each workload falls
   * back to the stack config `wws:apiKey` (`pulumi config set --secret wws:apiKey …`), then `WWS_API_KEY`.
   */
  apiKey?: pulumi.Input<string>;
}

const BRAND = "__wwsWorkspace";

/**
 * A workspace of the Workspace Workload Service, as the connection its workloads use. It creates
 * nothing remotely: workloads and templates given `workspace: <this>` take its name, base URL and
 * API key (each unless set on them) and become its children, unless their own `parent` is set.
 * Each setting it leaves out comes from the stack config, then the environment.
 * @see pulumi-wws/provider/README.md#connection (shipped in the package): where each setting comes from, and what preview checks
 */
export class Workspace extends pulumi.ComponentResource {
  /** The type token, by which `@pulumi/policy`'s `validateResourceOfType(Workspace, …)` and `isType` match. */
  static readonly __pulumiType = "wws:index:Workspace";

  /** The workspace name: the `name` given, else the stack config `wws:workspace`, else `WWS_WORKSPACE`. */
  readonly name: pulumi.Output<string | undefined>;
  /** The base URL, when one was given. */
  readonly baseUrl: pulumi.Output<string | undefined>;
  /** The API key, when one was given: a secret. */
  readonly apiKey: pulumi.Output<string | undefined>;
  /** What children take: the given inputs, the API key wrapped as a secret. */
  readonly connection: {
    readonly name?: pulumi.Input<string>;
    readonly baseUrl?: pulumi.Input<string>;
    readonly apiKey?: pulumi.Input<string>;
  };

  constructor(name: string, args: WorkspaceArgs = {}, opts?: pulumi.ComponentResourceOptions) {
    super(Workspace.__pulumiType, name, {}, opts);
    const apiKey = args.apiKey === undefined ? undefined : pulumi.secret(args.apiKey);
    this.connection = { name: args.name, baseUrl: args.baseUrl, apiKey };
    const fallback = new pulumi.Config("wws").get("workspace") || process.env.WWS_WORKSPACE || undefined;
    this.name = pulumi.output(args.name ?? fallback);
    this.baseUrl = pulumi.output(args.baseUrl);
    this.apiKey = apiKey ?? pulumi.output(undefined);
    Object.defineProperty(this, BRAND, { value: true });
    this.registerOutputs({ name: this.name, baseUrl: this.baseUrl });
  }

  /** True for a `Workspace`, also one from another copy of this package, or `{__pulumiType}` naming its type. */
  static isInstance(obj: unknown): obj is Workspace {
    if (typeof obj !== "object" || obj === null) return false;
    const o = obj as Record<string, unknown>;
    return o[BRAND] === true || o.__pulumiType === Workspace.__pulumiType;
  }
}
