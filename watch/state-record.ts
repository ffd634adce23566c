import { isSecretValue as isSecretMarker } from "../provider/checkpoint";

/**
 * What the watch reads of one resource of a stack's exported state (`pulumi stack export
 * --show-secrets`): whether the stack manages it, and where its record keeps secrets.
 */

/**
 * Whether the stack manages the resource, rather than only reading it (`Pod.get`, a lookup: the
 * state keeps it with `external: true`). Reading is not owning: what a stack only reads is never
 * compared as its drift, and never put back.
 */
export function isManagedRecord(resource: Readonly<Record<string, unknown>>): boolean {
  return resource.external !== true;
}

/**
 * The paths (`source.repo`, `ports.0.name`) at which `values` (a resource's inputs and outputs as
 * exported) hold a secret, at any depth. Its plaintext, when exported with `--show-secrets`, is
 * walked too: a secret inside a secret adds nothing, the outer path hides it already.
 */
export function secretPathsOf(...values: unknown[]): Set<string> {
  const out = new Set<string>();
  const walk = (value: unknown, path: string): void => {
    if (isSecretMarker(value)) {
      if (path !== "") out.add(path);
      return;
    }
    if (typeof value !== "object" || value === null) return;
    for (const [k, v] of Object.entries(value)) walk(v, path === "" ? k : `${path}.${k}`);
  };
  for (const v of values) walk(v, "");
  return out;
}

/** Whether the field at `path` holds or sits inside a secret of `secretPaths` (either is a prefix of the other). */
export function touchesSecret(path: string, secretPaths: Iterable<string>): boolean {
  for (const s of secretPaths) if (s === path || s.startsWith(`${path}.`) || path.startsWith(`${s}.`)) return true;
  return false;
}
