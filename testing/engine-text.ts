import type { Failure } from "../provider/dynamic/inputs/failures";

/**
 * A `check` failure as `pulumi preview` prints it (pulumi 3.259, step_generator.go
 * `issueCheckFailures`, diagnostics 2002 and 2003), the value being the program's input at the
 * failing property as Go prints a `resource.PropertyValue`.
 */
export function checkFailureText(
  type: string,
  name: string,
  failure: Failure,
  programInputs: Record<string, unknown>,
  secretKeys: ReadonlySet<string>,
): string {
  if (failure.property === "") return `${type} resource '${name}' has a problem: ${failure.reason}`;
  const value = propertyValue(programInputs[failure.property], secretKeys.has(failure.property));
  return `${type} resource '${name}': property ${failure.property} value ${value} has a problem: ${failure.reason}`;
}

/** Go's `{%v}` of a PropertyValue: `{512Mi}`, `{80}`, `{<nil>}`, `{[{a} {b}]}`, `{map[k:{v}]}`, a secret `{&{{v}}}`. */
function propertyValue(v: unknown, secret = false): string {
  if (secret) return `{&{${propertyValue(v)}}}`;
  if (v === undefined || v === null) return "{<nil>}";
  if (typeof v === "number") return `{${goFloat(v)}}`;
  if (Array.isArray(v)) return `{[${v.map((e) => propertyValue(e)).join(" ")}]}`;
  if (typeof v === "object") {
    const keys = Object.keys(v).sort();
    return `{map[${keys.map((k) => `${k}:${propertyValue((v as Record<string, unknown>)[k])}`).join(" ")}]}`;
  }
  return `{${String(v)}}`;
}

/** Go's `%v` of a float64 (`strconv` 'g', shortest): an exponent from 1e+06 and below 1e-04. */
function goFloat(n: number): string {
  if (!Number.isFinite(n)) return Number.isNaN(n) ? "NaN" : n > 0 ? "+Inf" : "-Inf";
  if (n === 0) return "0";
  const [mantissa, e] = n.toExponential().split("e");
  const exp = Number(e);
  if (exp >= -4 && exp < 6) return String(n);
  return `${mantissa}e${exp < 0 ? "-" : "+"}${String(Math.abs(exp)).padStart(2, "0")}`;
}
