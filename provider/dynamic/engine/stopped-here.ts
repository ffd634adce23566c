import type { ProgressReporter } from "./progress";

/**
 * What a failed check means for the rest of the run: the engine stops at the first resource whose
 * check fails, and its summary leaves out every resource it had not finished with (checks of other
 * resources may still be running, or not yet begun: seen with the real CLI, a Template's failure
 * hid a Pod declared before it whose key was wrong). Said once per process, under the resource.
 */
const STOPPED_HERE =
  "pulumi stopped at this resource's failed check: the other resources are not all checked (the summary leaves out those it did not finish), so fix this one and preview again to check them";

let said = false;

/** Notes `STOPPED_HERE` on `urn`'s resource when `failures` is not empty, once per process. */
export function sayWhereItStopped(
  progress: Pick<ProgressReporter, "note">,
  failures: readonly unknown[],
  urn: unknown,
): void {
  if (failures.length === 0 || said) return;
  said = true;
  progress.note(STOPPED_HERE, typeof urn === "string" ? urn : undefined);
}
