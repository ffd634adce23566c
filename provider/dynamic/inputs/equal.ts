import { containsUnknown } from "./unknown";

/** `undefined` and `null` both mean "not set". */
const unset = (v: unknown): boolean => v === undefined || v === null;

/**
 * Structural equality of two JSON values, as a diff needs it: a value not known yet is never
 * equal to anything (it may change), unset equals unset, and object key order does not matter.
 */
export function sameValue(a: unknown, b: unknown): boolean {
  if (containsUnknown(a) || containsUnknown(b)) return false;
  return equal(a, b);
}

function equal(a: unknown, b: unknown): boolean {
  if (unset(a) || unset(b)) return unset(a) && unset(b);
  if (typeof a !== "object" || typeof b !== "object") return a === b;
  if (Array.isArray(a) !== Array.isArray(b)) return false;
  if (Array.isArray(a) && Array.isArray(b)) return a.length === b.length && a.every((v, i) => equal(v, b[i]));
  const ao = a as Record<string, unknown>;
  const bo = b as Record<string, unknown>;
  const keys = new Set([...Object.keys(ao), ...Object.keys(bo)]);
  for (const k of keys) if (!equal(ao[k], bo[k])) return false;
  return true;
}
