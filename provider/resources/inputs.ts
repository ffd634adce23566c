import * as pulumi from "@pulumi/pulumi";
import { TEMPLATE_CONFIG_MAX_DEPTH, jsonDepth } from "../../sdk";
import { Workspace } from "./workspace";
import { connectionDefaults } from "./shown-defaults";

/** A login. Write-only: set on create, stored by the service as a secret, never returned. */
export interface CredentialsArgs {
  /** The user name. For a database it defaults to `app`. */
  username?: pulumi.Input<string>;
  /** The password: 1 to 1024 characters. */
  password: pulumi.Input<string>;
}

/** Where and how to reach the service. Each setting: this argument → stack config → environment. */
export interface ConnectionArgs {
  /**
   * The workspace: a `Workspace` (the resource becomes its child unless `parent` is set, and takes
   * its base URL and API key unless set here) or a workspace name (a DNS label). When omitted:
   * stack config `wws:workspace`, then `WWS_WORKSPACE`. A name other than the stack config's
   * (or, without one, `WWS_WORKSPACE`'s) fails preview naming both. Changing it replaces the resource.
   */
  workspace?: pulumi.Input<string> | Workspace;
  /** `http(s)://host[:port]` of the service. When omitted: stack config `wws:baseUrl`, then `WWS_BASE_URL`. Changing it sends nothing. */
  baseUrl?: pulumi.Input<string>;
  /**
   * The workspace's API key; stored as a Pulumi secret even when given as a plain string. When
   * omitted: stack config `wws:apiKey` (a secret), then `WWS_API_KEY`. Only `WWS_API_KEY` stays
   * out of the state: the engine records the stack config (encrypted) with its default provider.
   */
  apiKey?: pulumi.Input<string>;
}

/** How `pulumi up` waits, restarts and adopts. None of these is sent to the service. */
export interface WaitArgs {
  /**
   * The id of the workload in its workspace: a DNS label (it becomes a host name). Changing it
   * replaces the workload. @default the resource name
   */
  workloadId?: pulumi.Input<string>;
  /** Wait for the workload to be ready (Running, the latest generation observed) on create and update. @default true */
  waitForReady?: pulumi.Input<boolean>;
  /**
   * Give up waiting for readiness after this many seconds; the workload stays in the stack (with
   * the error) and the next `pulumi up` waits again. Overrides the `customTimeouts` resource option's
   * `create` and `update` for this resource. @default customTimeouts.create / .update, else 600
   */
  readyTimeoutSeconds?: pulumi.Input<number>;
  /**
   * Wait, on delete, until the service no longer knows the workload (its id is free again).
   * `false` returns once the delete is accepted: faster, but a replacement that reuses the id
   * (a new `os`, `kind` or database `engine`) may then find it still being deleted. The deletion
   * wait's timeout is `customTimeouts.delete`. @default true
   */
  waitForDeletion?: pulumi.Input<boolean>;
  /**
   * Any change of this value from one value to another restarts the workload (a restart call, then
   * a wait); nothing else is sent. Setting it the first time, or removing it, does not restart.
   */
  restartTrigger?: pulumi.Input<string | number>;
  /**
   * Take over a workload that already exists with this id (otherwise preview refuses it): its live
   * spec is replaced by this declaration, and destroying this resource (or removing it from the
   * program) deletes the workload. @default false
   */
  adopt?: pulumi.Input<boolean>;
}

/**
 * Properties and options every resource of the package shares. `secretKeys`: the resource's secret
 * fields (its declaration's), kept secret in the outputs too.
 */
export function connectionProps<O extends pulumi.CustomResourceOptions>(
  args: ConnectionArgs,
  opts: O | undefined,
  secretKeys: readonly string[],
): { props: Record<string, pulumi.Input<unknown> | undefined>; defaulted: string[]; opts: O } {
  let workspace: pulumi.Input<string> | undefined;
  let { baseUrl, apiKey } = args;
  let parent = opts?.parent;
  if (Workspace.isInstance(args.workspace)) {
    const ws = args.workspace;
    workspace = ws.connection.name;
    baseUrl ??= ws.connection.baseUrl;
    apiKey ??= ws.connection.apiKey;
    parent ??= ws;
  } else {
    workspace = args.workspace;
  }
  // Secrets on the way in, whatever the user passed; the engine keeps them secret in state.
  const additionalSecretOutputs = [...new Set([...(opts?.additionalSecretOutputs ?? []), ...secretKeys])];
  const defaults = connectionDefaults({ workspace, baseUrl });
  return {
    props: { workspace, baseUrl, ...defaults.values, apiKey: secretOrUndefined(apiKey) },
    defaulted: defaults.defaulted,
    opts: { ...(opts ?? ({} as O)), parent, additionalSecretOutputs },
  };
}

/** `value` as a secret, or undefined. */
export function secretOrUndefined(value: pulumi.Input<unknown> | undefined): pulumi.Output<unknown> | undefined {
  return value === undefined ? undefined : pulumi.secret(value);
}

/**
 * Throws, as the program runs, when a plain input value nests objects and arrays deeper than the
 * service accepts anywhere (32 levels, a template's config). `@pulumi/pulumi` serializes inputs
 * recursively: a value a few thousand levels deep overflows the stack there, and in an Automation
 * API inline program that error escapes as an unhandled rejection while the preview succeeds
 * without the resource (an `up` would delete it). Values inside outputs are left to `check`.
 */
export function refuseDeepInput(className: string, name: string, field: string, value: unknown): void {
  const resolvedLater = (v: object): boolean =>
    pulumi.Output.isInstance(v) || pulumi.Resource.isInstance(v) || v instanceof Promise;
  if (jsonDepth(value, TEMPLATE_CONFIG_MAX_DEPTH, resolvedLater) > TEMPLATE_CONFIG_MAX_DEPTH) {
    throw new Error(
      `${className} ${name}: ${field} nests objects and arrays more than ${TEMPLATE_CONFIG_MAX_DEPTH} levels deep`,
    );
  }
}

/** The `customTimeouts` resource option, carried into the inputs: the dynamic provider host never gets it. */
export function carriedTimeouts(opts: pulumi.CustomResourceOptions | undefined): Record<string, string> | undefined {
  const t = opts?.customTimeouts;
  if (!t) return undefined;
  const set = Object.fromEntries(Object.entries(t).filter(([, v]) => typeof v === "string" && v !== ""));
  return Object.keys(set).length > 0 ? set : undefined;
}
