/**
 * What the engine sends in place of a value that is not known yet (during `pulumi preview`, an
 * input computed from another resource's output). The dynamic provider host hands `check` and
 * `diff` plain JSON, so an unknown arrives as this exact string, at any depth
 * (`@pulumi/pulumi` runtime/rpc.js `unknownValue`; the provider stays free of a runtime import
 * of `@pulumi/pulumi`, and a unit test pins the two together).
 */
export const UNKNOWN = "04da6b54-80e4-46f7-96ec-b56ff0331ba9";

export function isUnknown(value: unknown): boolean {
  return value === UNKNOWN;
}

/** True when `value` is unknown or holds an unknown anywhere inside. */
export function containsUnknown(value: unknown, depth = 0): boolean {
  if (value === UNKNOWN) return true;
  if (typeof value !== "object" || value === null || depth > 64) return false;
  return Object.values(value).some((v) => containsUnknown(v, depth + 1));
}
