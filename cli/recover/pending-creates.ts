/**
 * The parts of `pulumi stack export` that `recover` reads and edits: the resources and the pending
 * operations of a version 3 deployment. Everything else is carried through untouched.
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

/** Every resource class of this package registers a type of this prefix (provider/hosted-resource.ts). */
export const OUR_TYPE_PREFIX = "pulumi-nodejs:dynamic/wws:";

/** The pending creates of this package's resources: what a killed `pulumi up` left of their creates. */
export function ourPendingCreates(stack: ExportedStack): PendingOperation[] {
  return (stack.deployment.pending_operations ?? []).filter(
    (op) => op.type === "creating" && op.resource.type.startsWith(OUR_TYPE_PREFIX),
  );
}

/** The secret marker of the checkpoint format: `{ [SECRET_SIG]: SECRET_VALUE, plaintext | ciphertext }`. */
const SECRET_SIG = "4dabf18193072939515e22adb298388d";
const SECRET_VALUE = "1b47061264138c4ac30d75fd1eb44270";

/** `value` with each secret of an export made with `--show-secrets` replaced by its plaintext value. */
export function revealed(value: unknown): unknown {
  if (Array.isArray(value)) return value.map(revealed);
  if (typeof value !== "object" || value === null) return value;
  const obj = value as Record<string, unknown>;
  if (obj[SECRET_SIG] === SECRET_VALUE && typeof obj.plaintext === "string") return revealed(JSON.parse(obj.plaintext));
  return Object.fromEntries(Object.entries(obj).map(([k, v]) => [k, revealed(v)]));
}

/**
 * `stack` with the pending creates in `adopt` recorded as resources of the state, each under the
 * id given, and the pending operations of `drop` removed. An adopted resource's outputs are its
 * inputs (secrets stay as the export encrypted them) until the refresh that follows reads the
 * live status; its inputs, provider and parent are the pending create's own.
 */
export function withPendingResolved(
  stack: ExportedStack,
  adopt: ReadonlyMap<string, string>,
  drop: ReadonlySet<string>,
): ExportedStack {
  const pending = stack.deployment.pending_operations ?? [];
  const taken = pending
    .filter((op) => op.type === "creating" && adopt.has(op.resource.urn))
    .map((op) => ({ ...op.resource, id: adopt.get(op.resource.urn), outputs: { ...op.resource.inputs } }));
  const kept = pending.filter(
    (op) => !(op.type === "creating" && (adopt.has(op.resource.urn) || drop.has(op.resource.urn))),
  );
  return {
    ...stack,
    deployment: {
      ...stack.deployment,
      resources: [...(stack.deployment.resources ?? []), ...taken],
      pending_operations: kept,
    },
  };
}
