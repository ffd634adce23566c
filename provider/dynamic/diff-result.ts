/**
 * What `diff` hands the dynamic provider host. At 3.259 the host forwards `changes` (true →
 * DIFF_SOME, false → DIFF_NONE, undefined → DIFF_UNKNOWN), `replaces` and `deleteBeforeReplace`,
 * and drops everything else (`stables` included): it has no field for a detailed diff.
 */
export interface DiffResult {
  changes: boolean | undefined;
  replaces: string[];
  deleteBeforeReplace: boolean;
}

/**
 * The `DiffResult` of a classified change, in the shape that makes the engine show it per property.
 * The host cannot carry a detailed diff, and a DIFF_SOME without one leaves `preview --json` with
 * no `detailedDiff`/`diffReasons` and `replaceOnChanges` with nothing to match. So when inputs
 * changed, `changes` is left undefined: the engine then diffs the old and new inputs itself (after
 * `ignoreChanges`), property by property, and keeps our `replaces` and `deleteBeforeReplace`.
 * Both diffs compare the same inputs, so the engine finds a change exactly when we do. With no
 * input change, a wait left unfinished (init errors) still needs the update: DIFF_SOME, nothing
 * to detail; otherwise DIFF_NONE. What the update then does is decided again in `update`.
 */
export function diffResultOf(change: {
  /** Some input differs from the state's. */
  inputsChanged: boolean;
  /** No input differs, but the last wait did not finish: the update waits again. */
  resumeWait: boolean;
  replaces: string[];
  /** A replacement deletes the old resource before it creates the new one. */
  deleteFirst: boolean;
}): DiffResult {
  if (change.inputsChanged)
    return {
      changes: undefined,
      replaces: change.replaces,
      deleteBeforeReplace: change.replaces.length > 0 && change.deleteFirst,
    };
  return { changes: change.resumeWait, replaces: [], deleteBeforeReplace: false };
}
