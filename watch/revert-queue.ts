/**
 * The reverts of one stack, one at a time, and of each resource only the newest finding waiting.
 *
 * A revert takes seconds (the record read again with `pulumi stack export`, a preview of the
 * program, the update and its read-back); findings of a resource changed again and again come
 * faster than that. Queued one per finding, the reverts of a busy stack fell minutes behind, and a
 * revert asked for now waited behind hundreds asked for long ago. Here a finding of a resource
 * whose revert has not begun takes that revert's place: what waits is bounded by the resources,
 * not by the findings. A revert under way is not touched; a finding that comes meanwhile waits for
 * the next turn, after it.
 */
export class RevertQueue<Job> {
  /** The newest job of each key whose revert has not begun. */
  private readonly waiting = new Map<string, Job>();
  private tail: Promise<void> = Promise.resolve();

  /** `run` must not reject: a rejection is dropped. */
  constructor(private readonly run: (job: Job) => Promise<void>) {}

  /** Keys waiting for their turn (not the one under way). */
  get size(): number {
    return this.waiting.size;
  }

  add(key: string, job: Job): void {
    const queued = this.waiting.has(key);
    this.waiting.set(key, job);
    if (queued) return;
    this.tail = this.tail
      .then(() => {
        const newest = this.waiting.get(key) as Job;
        this.waiting.delete(key);
        return this.run(newest);
      })
      .catch(() => undefined);
  }

  /** Resolves once every revert queued so far has ended (tests, a clean stop). */
  idle(): Promise<void> {
    return this.tail;
  }
}
