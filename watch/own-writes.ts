/**
 * The watch's own writes (a revert's update), told apart from a person's change made meanwhile.
 * The revert writes with the stack's key, whose rows name an actor like any person's ("api" for an
 * unlabelled key): taken as the author of the next change, it would name the watch itself. While a
 * revert writes a key, the first row of that key's update (and the phase row its request wrote) is
 * its own, unless its actor is not the one the watch's writes were seen to carry before: those rows
 * are no change by a person.
 */

/** How long after a revert's write ends its row may still come over the stream. */
export const OWN_ROW_GRACE_MS = 10_000;

export interface RowFacts {
  actor?: string;
  action?: string;
}

export class OwnWrites {
  /** Each key's own writes whose row has not come yet. */
  private readonly expected = new Map<string, Array<object>>();
  /** The actor the watch's own rows were seen to carry. */
  private ownActor: string | undefined;
  private readonly timers = new Set<NodeJS.Timeout>();
  /** Keys whose own update's row just came: the phase row of the same request may follow. */
  private readonly trailing = new Map<string, string | undefined>();

  /** A write of `key` begins; the returned function says it ended (its row may come a little later). */
  begin(key: string): () => void {
    const write = {};
    this.expected.set(key, [...(this.expected.get(key) ?? []), write]);
    let ended = false;
    return () => {
      if (ended) return;
      ended = true;
      const timer = setTimeout(() => {
        this.timers.delete(timer);
        this.forget(key, write);
      }, OWN_ROW_GRACE_MS);
      this.timers.add(timer);
    };
  }

  /** Whether `row` of `key` is the watch's own write; consumes the expectation when it is. */
  isOwn(key: string, row: RowFacts): boolean {
    // The update's own phase row (Pending, by the same request) follows its row.
    const trailing = this.trailing.get(key);
    this.trailing.delete(key);
    if (trailing !== undefined && row.actor === trailing && /\.phase$/.test(row.action ?? "")) return true;
    const first = this.expected.get(key)?.[0];
    if (!first || !/\.updated$/.test(row.action ?? "")) return false;
    if (this.ownActor !== undefined && row.actor !== this.ownActor) return false;
    this.ownActor = row.actor;
    this.trailing.set(key, row.actor);
    this.forget(key, first);
    return true;
  }

  stop(): void {
    for (const t of this.timers) clearTimeout(t);
    this.timers.clear();
  }

  private forget(key: string, write: object): void {
    const left = (this.expected.get(key) ?? []).filter((w) => w !== write);
    if (left.length > 0) this.expected.set(key, left);
    else this.expected.delete(key);
  }
}
