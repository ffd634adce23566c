import * as pulumi from "@pulumi/pulumi";
import { TEMPLATE_CONFIG_MAX_DEPTH, jsonDepth } from "../../sdk";
import { Workspace } from "./workspace";
import { connectionDefaults } from "./shown-defaults";
import type { ConnectionArgs } from "./args";

export type { ConnectionArgs, CredentialsArgs, WaitArgs } from "./args";

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
