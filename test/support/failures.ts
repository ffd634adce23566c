import type { Failure } from "../../provider/dynamic/inputs/failures";

/** A nested or quiet failure's reason: `<path> (<what was given>): <reason>` or `<path>: <reason>`. */
const PREFIXED = /^([A-Za-z0-9_.[\]]+)(?: \((not set|set[\s\S]*?)\))?: ([\s\S]*)$/;

/** The field a check failure names: its property, or the path its reason starts with when it names none. */
export function fieldOf(f: Failure): string {
  return f.property !== "" ? f.property : (PREFIXED.exec(f.reason)?.[1] ?? "");
}

/** What a nested failure says was given (`set to 70000`, `not set`, `set; not shown, …`), if it says. */
export function givenOf(f: Failure): string | undefined {
  return f.property !== "" ? undefined : PREFIXED.exec(f.reason)?.[2];
}

/** The failures keyed by the field each names, each reason without the field and what was given. */
export function byField(failures: readonly Failure[]): Record<string, string> {
  return Object.fromEntries(
    failures.map((f) => [fieldOf(f), f.property !== "" ? f.reason : (PREFIXED.exec(f.reason)?.[3] ?? f.reason)]),
  );
}
