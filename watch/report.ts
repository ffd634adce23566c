import type { Difference } from "./compare";
import { byPerson, type Verdict } from "./core";
import { changedBackFinding, findingsOf, signatureOf, type Cause, type Finding } from "./finding";
import type { ManagedResource } from "./stack";

/** How long a finding no row announced waits for the row that names who made it. */
const ROW_GRACE_MS = 1000;
/** A row that named the change is in the queue: its comparison, which names the actor, comes first, up to this many grace periods. */
const MAX_HOLDS = 10;

interface ReporterHooks {
  report(f: Finding): void;
  /** Whether a row that names who made a change of `urn` waits for its comparison (the queue's). */
  rowPending(urn: string): boolean;
  /** `--revert`: a finding just reported, with the differences it came from. */
  revert?: (f: Finding, diffs: Difference[]) => void;
}

/**
 * Turns the core's verdicts into findings, each said once while it lasts: what was reported of
 * each resource (by signature), and whether "deleted" was its last word.
 */
export class FindingReporter {
  /** What was reported of each URN while its drift lasts: a finding is reported once. */
  private readonly reported = new Map<string, Set<string>>();
  private readonly reportedDeleted = new Set<string>();
  /**
   * Resources replaced or given credentials outside Pulumi: they differ from the stack's record in
   * what no read shows (a password), until the stack records them again.
   */
  private readonly unseen = new Set<string>();
  private readonly held = new Set<NodeJS.Timeout>();
  private stopped = false;

  constructor(private readonly hooks: ReporterHooks) {}

  /** Resources whose reported drift lasts. */
  get differing(): number {
    return new Set([...this.reported.keys(), ...this.unseen]).size;
  }

  /** The stack recorded `urns` anew (an update, a refresh): what no read shows is as recorded again. */
  recorded(urns: Iterable<string>): void {
    for (const urn of urns) this.unseen.delete(urn);
  }

  isReported(urn: string): boolean {
    return this.reported.has(urn);
  }

  isReportedDeleted(urn: string): boolean {
    return this.reportedDeleted.has(urn);
  }

  stop(): void {
    this.stopped = true;
    for (const t of this.held) clearTimeout(t);
  }

  private report(f: Finding): void {
    if (!this.stopped) this.hooks.report(f);
  }

  /** Says what `v` (one verdict of `decide`) calls for, once. */
  act(w: ManagedResource, diffs: Difference[], v: Verdict): void {
    switch (v.kind) {
      case "wait-for-update":
      case "retry":
        return;
      case "as-declared":
        this.reported.delete(w.urn);
        this.reportedDeleted.delete(w.urn);
        return;
      case "drift":
        if (diffs.some((d) => d.kind === "deleted")) this.reportedDeleted.add(w.urn);
        return this.reportDiffs(w, diffs, v.cause);
      case "changed-back":
      case "replaced-outside":
      case "secret-changed":
        if (v.kind === "replaced-outside") this.reportedDeleted.delete(w.urn);
        if (v.kind !== "changed-back") this.unseen.add(w.urn);
        if (diffs.length === 0) this.reported.delete(w.urn);
        return this.report({ ...changedBackFinding(w, v.cause), kind: v.kind });
    }
  }

  private reportDiffs(w: ManagedResource, diffs: Difference[], cause: Cause): void {
    if (!this.reported.has(w.urn)) this.reported.set(w.urn, new Set());
    for (const f of findingsOf(diffs, w, cause, new Date())) {
      if (this.reported.get(w.urn)?.has(signatureOf(f))) continue;
      // Found by a comparison no row of a person asked for (the start, a reconnect, the reconciler's
      // phase row of an earlier change): the row of the change may still be on its way, and names
      // who made it. Held that long; reported as found if none came.
      if (!byPerson(cause)) this.hold(w.urn, () => this.reportOnce(w, f, diffs));
      else this.reportOnce(w, f, diffs);
    }
  }

  private reportOnce(w: ManagedResource, f: Finding, diffs: Difference[]): void {
    const sig = signatureOf(f);
    const seen = this.reported.get(w.urn);
    if (seen?.has(sig) || this.stopped) return;
    seen?.add(sig);
    this.report(f);
    // Not when it is as declared again meanwhile (no record of it): nothing to put back. Each kind is
    // the reverter's to decide: a drift may be put back, a delete or a restart is said not to be.
    if (seen && this.hooks.revert) this.hooks.revert(f, diffs);
  }

  /** `then` after `ROW_GRACE_MS`, or later while a row naming `urn` still waits for its comparison (at most `MAX_HOLDS` times). */
  private hold(urn: string, then: () => void, holds = 1): void {
    const timer = setTimeout(() => {
      this.held.delete(timer);
      if (holds < MAX_HOLDS && this.hooks.rowPending(urn)) this.hold(urn, then, holds + 1);
      else then();
    }, ROW_GRACE_MS);
    this.held.add(timer);
  }
}
