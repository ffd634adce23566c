import type * as pulumi from "@pulumi/pulumi";
import { connectionProps, type ConnectionArgs } from "./inputs";

/**
 * The property bag of a read resource (`Class.get(name, id, state)`): only the connection of
 * `state` (its workspace, base URL and API key, each falling back on the stack config and the
 * environment in the provider), and every property of the class as undefined, for the engine's
 * `read` to fill with the live fields and status. No `check` runs for it, so nothing declares the
 * workload or template: the stack that manages it keeps it, and `destroy` only forgets it.
 */
export function readResourceProps(
  state: ConnectionArgs | undefined,
  opts: pulumi.CustomResourceOptions,
  secretKeys: readonly string[],
  properties: ReadonlySet<string>,
): { props: pulumi.Inputs; opts: pulumi.CustomResourceOptions } {
  const connection = connectionProps(state ?? {}, opts, secretKeys);
  const given = Object.fromEntries(Object.entries(connection.props).filter(([, v]) => v !== undefined));
  return {
    props: { ...Object.fromEntries([...properties].map((k) => [k, undefined])), ...given },
    opts: connection.opts,
  };
}
