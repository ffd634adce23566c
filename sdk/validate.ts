import { InvalidOptionError } from "./errors";

/** Throws `InvalidOptionError` naming `name` unless `value` is an integer in [min, max]. */
export function checkInteger(name: string, value: unknown, min: number, max = Number.MAX_SAFE_INTEGER): void {
  if (typeof value !== "number" || !Number.isInteger(value) || value < min || value > max) {
    throw new InvalidOptionError(
      name,
      `must be an integer from ${min} to ${max}, got ${typeof value === "number" ? value : typeof value}`,
    );
  }
}

/** `{a: 1, b: undefined}` → `{a: 1}`, so an explicit undefined falls back to the default. */
export function definedOnly<T extends object>(o: T): Partial<T> {
  return Object.fromEntries(Object.entries(o).filter(([, v]) => v !== undefined)) as Partial<T>;
}
