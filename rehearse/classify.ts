/**
 * What kind of failure an error message of the copy's run is. Vocabulary:
 * - `capacity`: the copy's scheduler had no host with room (the service's 409 "no host of … has room");
 * - `conflict`: the id is held by something else (a workload of another stack, another type, or
 *   one being deleted), or the service answered 409 for another reason;
 * - `failed`: anything else (the program's own error, a refused field, a timeout).
 */
export type FailureKind = "capacity" | "conflict" | "failed";

/** Ordered: the first rule that matches decides. */
const RULES: ReadonlyArray<readonly [FailureKind, RegExp]> = [
  ["capacity", /no host of .* has room/i],
  ["conflict", /already exists in workspace|exists with type|is being deleted|\b409\b|\bconflict\b/i],
];

export function classifyFailure(message: string): FailureKind {
  for (const [kind, pattern] of RULES) if (pattern.test(message)) return kind;
  return "failed";
}

/** Whether replacing or deleting a resource of `type` (a type token, or a workload type) loses its data. */
export function losesData(op: string, typeToken: string, workloadType: unknown): boolean {
  const destructive = op === "replace" || op === "delete";
  return destructive && (typeToken.endsWith(":Database") || workloadType === "storage");
}
