/**
 * What this package reads of the checkpoint format Pulumi writes (`pulumi stack export`, the
 * Automation API's `exportStack`): the resources and pending operations of a version 3 deployment,
 * this package's type prefix, and the secret marker. Read by `recover` and by the watch.
 */
export interface StateResource {
  urn: string;
  type: string;
  id?: string;
  inputs?: Record<string, unknown>;
  outputs?: Record<string, unknown>;
  [key: string]: unknown;
}

export interface PendingOperation {
  resource: StateResource;
  type: string;
  [key: string]: unknown;
}

export interface ExportedStack {
  version: number;
  deployment: {
    resources?: StateResource[];
    pending_operations?: PendingOperation[];
    [key: string]: unknown;
  };
}

/** Every resource class of this package registers a type of this prefix (`dynamicType`, provider/resources/type-token.ts). */
export const OUR_TYPE_PREFIX = "pulumi-nodejs:dynamic/wws:";

/** The secret marker of the checkpoint format: `{ [SECRET_SIG]: SECRET_VALUE, plaintext | ciphertext }`. */
export const SECRET_SIG = "4dabf18193072939515e22adb298388d";
const SECRET_VALUE = "1b47061264138c4ac30d75fd1eb44270";

/** Whether `v` is a secret of the checkpoint (at this level). */
export function isSecretValue(v: unknown): boolean {
  return typeof v === "object" && v !== null && (v as Record<string, unknown>)[SECRET_SIG] !== undefined;
}

/** `value` with each secret of an export made with `--show-secrets` replaced by its plaintext value. */
export function revealed(value: unknown): unknown {
  if (Array.isArray(value)) return value.map(revealed);
  if (typeof value !== "object" || value === null) return value;
  const obj = value as Record<string, unknown>;
  if (obj[SECRET_SIG] === SECRET_VALUE && typeof obj.plaintext === "string") return revealed(JSON.parse(obj.plaintext));
  return Object.fromEntries(Object.entries(obj).map(([k, v]) => [k, revealed(v)]));
}
