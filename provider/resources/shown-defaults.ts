import * as pulumi from "@pulumi/pulumi";
import { CONNECTION_SETTINGS } from "../dynamic/program-side";

const nonEmpty = (v: string | undefined): string | undefined => (v === undefined || v === "" ? undefined : v);

/**
 * The base URL and workspace a resource leaves unset, from the stack config or the environment,
 * with the keys filled, which the envelope's `defaulted` lists. `check` takes them out and resolves both
 * itself (provider/dynamic/inputs/class-defaults.ts): they are here so that the program's inputs
 * carry the keys the checked inputs carry, and `pulumi refresh --run-program` shows no change.
 */
export function connectionDefaults(given: { workspace?: unknown; baseUrl?: unknown }): {
  values: Record<string, string>;
  defaulted: string[];
} {
  const config = new pulumi.Config("wws");
  const values: Record<string, string> = {};
  for (const field of ["baseUrl", "workspace"] as const) {
    if (given[field] !== undefined) continue;
    const { config: key, env } = CONNECTION_SETTINGS[field];
    const value = nonEmpty(config.get(key.slice("wws:".length))) ?? nonEmpty(process.env[env]);
    if (value !== undefined) values[field] = value;
  }
  return { values, defaulted: Object.keys(values) };
}

/** The envelope's `defaulted`: `keys`, or nothing. */
export function defaultedKeys(keys: readonly string[]): string[] | undefined {
  return keys.length > 0 ? [...keys] : undefined;
}
