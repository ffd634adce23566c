import { EventHub, type ActivityRow } from "../sdk";
import { compareWorkload, type Difference } from "./compare";
import { byPerson, decide, statusLine } from "./core";
import type { Cause, Finding } from "./finding";
import { withFindingId } from "./finding-id";
import { DEFAULT_LEARN_DEPS, StackBook } from "./learn";
import type { StackPlace } from "../automation/place";
import { WorkQueue } from "./queue";
import { FindingReporter } from "./report";
import { Reverter } from "./revert";
import type { ManagedResource } from "./stack";
import type { WatchOptions } from "./options";
import { OwnWrites } from "./own-writes";
import { keyOf, StreamGroup, type StreamSight, type Subscribe } from "./streams";
import type { WatchedConnection } from "../provider/dynamic/watch-seam";

export type { WatchOptions };

/** How often a stack whose update holds its lock is looked at again. */
const LOCK_POLL_MS = 500;

interface Watched {
  w: ManagedResource;
  group: StreamGroup;
  key: string;
}

const message = (err: unknown): string => (err instanceof Error ? err.message : String(err));

/**
 * The drift watch, after client-go's informer: list (learn each stack's record), watch (one event
 * stream per workspace), a work queue of resources (one comparison of a resource at a time, a
 * failed one requeued with backoff and said once) and a periodic resync. What one comparison
 * reports is `core.ts`'s `decide`. While a stack's update holds its lock nothing is reported; the
 * stack is learnt again when it ends. Nothing is spawned while idle: the stamps are file times.
 */
export class Watch {
  private readonly book: StackBook;
  private readonly subscribe: Subscribe;
  private groups = new Map<string, StreamGroup>();
  private byUrn = new Map<string, Watched>();
  /** The cause each queued resource was asked with. */
  private readonly asked = new Map<string, Cause>();
  /** The same, for the resources of the comparison under way (a row's comparison that has begun is still to come). */
  private readonly comparing = new Map<string, Cause>();
  private readonly findings: FindingReporter;
  private readonly queue: WorkQueue<string>;
  private readonly reverter: Reverter;
  /** The reverts' own updates, whose rows name no person's change. */
  private readonly ownWrites = new OwnWrites();
  private readonly env: NodeJS.ProcessEnv;
  private timers: NodeJS.Timeout[] = [];
  private readonly waitingFor = new Set<string>();
  private stopped = false;
  private learning: Promise<unknown> = Promise.resolve();

  constructor(private readonly options: WatchOptions) {
    this.env = options.env ?? process.env;
    const hub = new EventHub();
    this.subscribe =
      options.deps?.subscribe ??
      ((conn, listener) => hub.subscribe({ connection: conn.connection, network: conn.network }, listener));
    this.book = new StackBook(
      { ...DEFAULT_LEARN_DEPS, ...options.deps },
      (stack) => this.place(stack),
      (line) => this.say(line),
    );
    this.queue = new WorkQueue<string>({
      debounceMs: options.debounceMs ?? 100,
      process: (urns) => this.compareBatch(urns),
      onFailure: (urn, why, first, retryInMs) => {
        if (first)
          this.say(
            `could not compare ${urn}: ${why}; trying again in ${Math.round(retryInMs / 1000)} s, and after that without a word until it works`,
          );
      },
      onRecovered: (urn) => this.say(`${urn} can be compared again`),
    });
    this.findings = new FindingReporter({
      report: (f) => this.report(f),
      rowPending: (urn) => byPerson(this.asked.get(urn)) || byPerson(this.comparing.get(urn)),
      revert: options.revert ? (f, diffs) => this.reverter.consider(f, diffs) : undefined,
    });
    this.reverter = new Reverter({
      report: (f) => this.report(f),
      locked: (stack) => this.book.reader(stack).locked(),
      relearn: () => this.relearn(true),
      place: (stack) => this.place(stack),
      writing: (urn) => this.ownWrites.begin(urn),
      differs: (urn) => this.findings.isReported(urn),
    });
  }

  /**
   * Learns the stacks, opens the streams and compares everything once; resolves once every stream
   * is open or said to be blind (within `streamOpenBoundMs`), so that a change made after it
   * resolves is seen with who made it.
   */
  async start(): Promise<void> {
    for (const name of this.options.stacks) await this.book.learn(name, true);
    this.regroup();
    this.timers.push(setInterval(() => this.status(), this.options.statusEveryMs ?? 60_000));
    this.timers.push(
      setInterval(() => this.guard("checking the stacks", this.relearn(false)), this.options.relearnEveryMs ?? 15_000),
    );
    this.timers.push(setInterval(() => this.resyncAll(), this.options.resyncEveryMs ?? 600_000));
    this.resyncAll();
    await Promise.all([...this.groups.values()].map((g) => g.settled));
  }

  async stop(): Promise<void> {
    this.stopped = true;
    this.reverter.stop();
    this.ownWrites.stop();
    this.queue.stop();
    for (const t of this.timers) clearInterval(t);
    this.findings.stop();
    for (const g of this.groups.values()) g.close();
    this.groups.clear();
    await this.book.closeAll();
  }

  /** Workloads and templates watched, over all stacks. */
  get size(): number {
    return this.all().length;
  }

  /** What it watches, in words: `3 workloads`, `1 workload`, `3 workloads and 1 template`. */
  get watched(): string {
    const templates = this.all().filter((w) => w.kind === "template").length;
    const count = (n: number, what: string): string => `${n} ${what}${n === 1 ? "" : "s"}`;
    const workloads = count(this.size - templates, "workload");
    return templates === 0 ? workloads : `${workloads} and ${count(templates, "template")}`;
  }

  /** Each workspace's event stream as the watch sees it (metrics, health). */
  get streams(): StreamSight[] {
    return [...this.groups.values()].map((g) => g.sight);
  }

  private all(): ManagedResource[] {
    return [...this.book.stacks.values()].flatMap((s) => s.view.workloads);
  }

  private say(line: string): void {
    if (!this.stopped) this.options.onStatus?.(line);
  }

  /** Every background task ends here: a failure is said, never an unhandled rejection. */
  private guard(what: string, task: Promise<unknown>): void {
    task.catch((err) => this.say(`${what} failed: ${message(err)}`));
  }

  private status(): void {
    const groups = [...this.groups.values()];
    this.say(
      statusLine({
        watched: this.watched,
        stacks: [...this.book.stacks.keys()],
        workspaces: [...new Set(groups.map((g) => g.workspace))],
        blind: groups.flatMap((g) => (g.blindness ? [{ workspace: g.workspace, why: g.blindness }] : [])),
        differing: this.findings.differing,
      }),
    );
  }

  private place(stack: string): StackPlace {
    return this.options.placeOf?.(stack) ?? { env: this.env };
  }

  /** Reads the stacks whose stamp changed (all with `force`); on a change, watches them as they now record and compares everything. */
  private relearn(force: boolean): Promise<void> {
    const next = this.learning.then(async () => {
      if (this.stopped) return;
      let changed = false;
      for (const name of this.options.stacks) {
        try {
          const version = this.book.stacks.get(name)?.view.version;
          if (!(await this.book.learn(name, force))) continue;
          changed = true;
          const view = this.book.stacks.get(name)?.view;
          if (view && view.version !== version) this.findings.recorded(view.workloads.map((w) => w.urn));
        } catch (err) {
          this.say(
            `could not read the state of stack ${name}: ${message(err)}; trying again in ${Math.round((this.options.relearnEveryMs ?? 15_000) / 1000)} s`,
          );
        }
      }
      if (changed) {
        this.regroup();
        this.resyncAll();
      }
    });
    this.learning = next.catch(() => undefined);
    return next;
  }

  /**
   * One group per workspace (base URL, workspace, network), across every stack and project: one
   * stream each, on the key of one of its stacks. A group keeps its stream while a stack still
   * reaches the workspace by its key; else (a rotated key) a new one takes over where it left off.
   */
  private regroup(): void {
    const members = new Map<string, Array<{ w: ManagedResource; conn: WatchedConnection }>>();
    for (const { view, seam } of this.book.stacks.values()) {
      for (const w of view.workloads) {
        try {
          const conn = seam.connectionOf(w.recorded, `cannot watch ${w.urn}`);
          members.set(conn.place, [...(members.get(conn.place) ?? []), { w, conn }]);
        } catch (err) {
          this.say(message(err));
        }
      }
    }
    const next = new Map<string, StreamGroup>();
    const byUrn = new Map<string, Watched>();
    const fresh: StreamGroup[] = [];
    for (const [place, of] of members) {
      const old = this.groups.get(place);
      let g = old && of.some((m) => m.conn.key === old.conn.key) ? old : undefined;
      if (!g) {
        g = new StreamGroup(of[0].conn, this.groupHooks(), {
          openBoundMs: this.options.streamOpenBoundMs ?? 10_000,
          catchUpWindowMs: this.options.catchUpWindowMs ?? 2000,
        });
        // Another key or setting for a workspace already watched: what its old stream missed is
        // read from where it left off, and its blindness ends only when the new one opens.
        const before =
          old ?? [...this.groups.values()].find((r) => r.workspace === g!.workspace && !members.has(r.conn.place));
        if (before) g.succeed(before);
        fresh.push(g);
      }
      g.keys = new Map();
      for (const { w } of of) {
        const key = keyOf(w.kind, w.id.slice(w.id.indexOf("/") + 1));
        g.keys.set(key, [...(g.keys.get(key) ?? []), w.urn]);
        byUrn.set(w.urn, { w, group: g, key });
      }
      next.set(place, g);
    }
    for (const g of fresh) g.open(this.subscribe);
    for (const [place, g] of this.groups) if (next.get(place) !== g) g.close();
    this.groups = next;
    this.byUrn = byUrn;
  }

  private groupHooks() {
    return {
      touch: (g: StreamGroup, keys: string[] | "*", cause: Cause) => {
        const urns = keys === "*" ? [...g.keys.values()].flat() : keys.flatMap((k) => g.keys.get(k) ?? []);
        for (const urn of urns) this.enqueue(urn, cause);
      },
      blind: (g: StreamGroup, why: string) => this.sight(g, "blind", why),
      seeing: (g: StreamGroup, why: string) => this.sight(g, "watching-again", why),
      status: (line: string) => this.say(line),
      ownRow: (g: StreamGroup, key: string, row: ActivityRow) =>
        (g.keys.get(key) ?? []).some((urn) => this.ownWrites.isOwn(urn, row)),
    };
  }

  private sight(g: StreamGroup, kind: "blind" | "watching-again", why: string): void {
    const stacks = [...new Set([...g.keys.values()].flat().map((urn) => this.byUrn.get(urn)?.w.stack ?? ""))];
    this.report({
      kind,
      stack: stacks.join(", "),
      urn: "",
      resource: `workspace ${g.workspace}`,
      id: g.workspace,
      at: new Date().toISOString(),
      message: why,
    });
  }

  private enqueue(urn: string, cause: Cause): void {
    const had = this.asked.get(urn);
    // The first row of a key's change names who made it; the service's own rows are kept only while nothing better is known.
    if (!had || (!byPerson(had) && byPerson(cause))) this.asked.set(urn, cause);
    this.queue.add(urn);
  }

  private resyncAll(): void {
    for (const urn of this.byUrn.keys()) this.enqueue(urn, {});
  }

  /** One batch of the queue: every resource read (one fresh spec read shared), then each one's verdict acted on. */
  private async compareBatch(urns: string[]): Promise<Map<string, string>> {
    try {
      return await this.compareEach(urns);
    } finally {
      for (const urn of urns) this.comparing.delete(urn);
    }
  }

  private async compareEach(urns: string[]): Promise<Map<string, string>> {
    const failed = new Map<string, string>();
    if (this.stopped) return failed;
    const items = urns.flatMap((urn) => this.byUrn.get(urn) ?? []);
    for (const s of new Set(items.map((i) => i.w.stack))) this.book.stacks.get(s)?.seam.freshReads();
    const perWorkspace = new Map<string, number>();
    for (const i of items) perWorkspace.set(i.group.workspace, (perWorkspace.get(i.group.workspace) ?? 0) + 1);
    for (const [ws, n] of perWorkspace) this.options.onRead?.(ws, n);
    const compared = await Promise.all(
      items.map(async (item) => {
        const asked = this.asked.get(item.w.urn) ?? {};
        this.asked.delete(item.w.urn);
        this.comparing.set(item.w.urn, asked);
        const rows = item.group.takeRows(item.key);
        const seam = this.book.stacks.get(item.w.stack)?.seam;
        let diffs: Difference[] | undefined;
        const began = performance.now();
        try {
          if (!seam) throw new Error(`stack ${item.w.stack} is not known`);
          diffs = await compareWorkload(seam.provider(item.w.kind), item.w);
        } catch (err) {
          failed.set(item.w.urn, message(err));
          item.group.restoreRows(item.key, rows);
        }
        this.options.onCompared?.(performance.now() - began, diffs !== undefined);
        return { item, asked, rows, diffs };
      }),
    );
    // Asked once per stack, after every read: a read that shows an update's change was made after that update took the lock.
    const outOfDate = new Set<string>();
    for (const stack of new Set(
      compared
        .filter((c) => c.diffs && (c.diffs.length > 0 || c.rows.change || c.rows.secretChanged))
        .map((c) => c.item.w.stack),
    ))
      if (await this.recordOutOfDate(stack)) outOfDate.add(stack);
    for (const c of compared) {
      if (!c.diffs) continue;
      const verdicts = decide({
        diffs: c.diffs,
        rows: c.rows,
        asked: c.asked,
        reported: this.findings.isReported(c.item.w.urn),
        reportedDeleted: this.findings.isReportedDeleted(c.item.w.urn),
        recordOutOfDate: outOfDate.has(c.item.w.stack),
      });
      for (const v of verdicts) this.findings.act(c.item.w, c.diffs, v);
    }
    return failed;
  }

  /**
   * Whether the stack's record may not explain what the service shows: an update of it runs, or one
   * ended since the record was learnt. Either way the watch learns it once the update has ended.
   */
  private async recordOutOfDate(stack: string): Promise<boolean> {
    const entry = this.book.stacks.get(stack);
    if (!entry) return true;
    const locked = await this.locked(stack);
    const stamp = locked ? "" : await entry.reader.stamp().catch(() => "");
    if (locked || stamp !== entry.stamp) {
      this.afterUpdate(stack);
      return true;
    }
    return false;
  }

  /** Whether an update holds the stack's lock; one that cannot be told is taken as held, and said. */
  private async locked(stack: string): Promise<boolean> {
    try {
      return await this.book.reader(stack).locked();
    } catch (err) {
      this.say(`could not tell whether stack ${stack} is being updated (${message(err)}): taken as being updated`);
      return true;
    }
  }

  /** Waits for the stack's update to end, learns its new record, then compares everything again. */
  private afterUpdate(stack: string): void {
    if (this.waitingFor.has(stack)) return;
    this.waitingFor.add(stack);
    this.say(`stack ${stack} is being updated: comparing once its update has ended`);
    const poll = async (): Promise<void> => {
      if (this.stopped) return;
      if (await this.locked(stack)) {
        setTimeout(() => this.guard(`waiting for the update of stack ${stack}`, poll()), LOCK_POLL_MS);
        return;
      }
      this.waitingFor.delete(stack);
      await this.relearn(false);
      this.resyncAll();
    };
    this.guard(`waiting for the update of stack ${stack}`, poll());
  }

  private report(f: Finding): void {
    if (!this.stopped) this.options.onFinding(withFindingId(f));
  }
}
