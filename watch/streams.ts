/**
 * The watch's event streams: one per workspace connection (base URL, workspace, key, network),
 * turned into "look at these resources again" with who made the change. The stream is a doorbell:
 * what differs is decided by a comparison, never by an event.
 *
 * A group is blind, and says so at once, when its stream is refused (401/403: the key was refused,
 * named by where it came from), stopped for good, or not open within `openBoundMs`; it sees again
 * when the stream opens. `resync` frames and reconnects ask for the rows the stream missed once per
 * `catchUpWindowMs`, however many come.
 */
import type { ActivityRow, StreamState, WorkspaceEvent, WwsError } from "../sdk";
import type { WatchedConnection } from "../provider/dynamic/watch-seam";
import type { Cause } from "./finding";
import { byPerson, type RowsSince } from "./core";

/** What a group asks of the watch. */
export interface GroupHooks {
  /** Look at `keys` of the group again (`"*"`: all), with the row that asked. */
  touch(group: StreamGroup, keys: string[] | "*", cause: Cause): void;
  blind(group: StreamGroup, why: string): void;
  seeing(group: StreamGroup, why: string): void;
  /** A problem that is not the watch's business to act on (a catch-up read failed). */
  status(line: string): void;
  /** Whether `row` of `key` is the watch's own write (a revert's update): no change by a person. */
  ownRow(group: StreamGroup, key: string, row: ActivityRow): boolean;
}

export type Subscribe = (
  conn: WatchedConnection,
  listener: { onEvent(e: WorkspaceEvent): void; onState(s: StreamState): void; onError(e: WwsError): void },
) => () => void;

export interface GroupTiming {
  /** A stream not open this long after it went down (or was opened) is blind. @default 10000 (10 s) */
  openBoundMs: number;
  /** At most one catch-up read of the activity per window. @default 2000 (2 s) */
  catchUpWindowMs: number;
}

/** A workspace's stream as the watch sees it: for metrics and health, never for a decision. */
export interface StreamSight {
  workspace: string;
  state: StreamState;
  /** Why the watch does not see the workspace; undefined while it does (open, or reconnecting within its bound). */
  blindness: string | undefined;
  /** Epoch ms of the last event (a heartbeat is not one), or of when the watch began watching the workspace. */
  lastEventAt: number;
}

/** A row's target, or a managed resource, as a key of its group: a workload's id; `template:<id>`. */
export function keyOf(kind: string | undefined, id: string): string {
  return kind === "template" ? `template:${id}` : id;
}

function targetKey(row: ActivityRow): string | undefined {
  return row.target?.id === undefined ? undefined : keyOf(row.target.type, row.target.id);
}

function rowCause(row: ActivityRow, eventId?: string): Cause {
  return { actor: row.actor, activityId: row.id === undefined ? eventId : String(row.id), at: row.at };
}

export class StreamGroup {
  /** Managed keys of this workspace → their URNs (one per stack that records it; stacks of several projects may share a workspace). */
  keys = new Map<string, string[]>();
  /** What rows said of each key since its last comparison (taken by `takeRows`). */
  private rows = new Map<string, RowsSince>();
  private unsubscribe: () => void = () => undefined;
  private state: StreamState = "down";
  private wasOpen = false;
  private blindWhy: string | undefined;
  private openTimer: NodeJS.Timeout | undefined;
  private lastError: string | undefined;
  /** The newest event id seen (or the newest row's at the start): where a catch-up starts. */
  private lastEventId: string | undefined;
  private streamResumes = false;
  /** The service's rows name their target (an extension of the spec). */
  private rowsNameTargets = false;
  /** The stream this one succeeds left off here: the first open reads what was missed since. */
  private resumeOnOpen = false;
  private catchUp: { after: string | undefined; timer?: NodeJS.Timeout; running?: Promise<void>; again?: boolean } = {
    after: undefined,
  };
  private closed = false;
  private lastEventAt = Date.now();
  private settle: () => void = () => undefined;
  /**
   * Resolves once the stream has first opened, or the group is blind or closed: from then on a
   * change is seen as it happens (with the row that names who made it), or said not to be. A fresh
   * stream does not replay what came before it opened, and the spec's rows name no workload to read
   * back later, so a watch that says it watches before this would miss who made a change made meanwhile.
   */
  readonly settled = new Promise<void>((resolve) => (this.settle = resolve));

  constructor(
    readonly conn: WatchedConnection,
    private readonly hooks: GroupHooks,
    private readonly timing: GroupTiming,
  ) {}

  get workspace(): string {
    return this.conn.workspace;
  }

  /** Why it is blind, or undefined while it sees. */
  get blindness(): string | undefined {
    return this.blindWhy;
  }

  get sight(): StreamSight {
    return { workspace: this.workspace, state: this.state, blindness: this.blindWhy, lastEventAt: this.lastEventAt };
  }

  /** Takes over from `old` (the same workspace by another key or setting): where it left off, and its blindness. */
  succeed(old: StreamGroup): void {
    this.lastEventId = old.lastEventId;
    this.blindWhy = old.blindWhy;
    this.resumeOnOpen = this.lastEventId !== undefined;
  }

  open(subscribe: Subscribe): void {
    this.armOpenBound();
    this.unsubscribe = subscribe(this.conn, {
      onEvent: (e) => this.onEvent(e),
      onState: (s) => this.onState(s),
      onError: (e) => this.onError(e),
    });
    if (this.lastEventId === undefined) void this.seedLastEventId();
  }

  close(): void {
    this.closed = true;
    this.settle();
    clearTimeout(this.openTimer);
    clearTimeout(this.catchUp.timer);
    this.unsubscribe();
  }

  /** What the rows said of `key` since it was last taken. */
  takeRows(key: string): RowsSince {
    const r = this.rows.get(key) ?? {};
    this.rows.delete(key);
    return r;
  }

  private note(key: string, change: (r: RowsSince) => void): void {
    const r = this.rows.get(key) ?? {};
    change(r);
    this.rows.set(key, r);
  }

  /** Rows taken by a comparison that could not read: kept for the next one. */
  restoreRows(key: string, rows: RowsSince): void {
    this.note(key, (r) => {
      r.change ??= rows.change;
      r.deleted ??= rows.deleted;
      r.secretChanged ||= rows.secretChanged;
    });
  }

  private noteRow(key: string, row: ActivityRow, cause: Cause): void {
    this.note(key, (r) => {
      if (byPerson(cause) && !r.change) r.change = cause;
      if (/\.deleted$/.test(row.action ?? "")) r.deleted = cause;
    });
  }

  private armOpenBound(): void {
    clearTimeout(this.openTimer);
    this.openTimer = setTimeout(() => {
      if (this.state === "open" || this.closed) return;
      const s = Math.round(this.timing.openBoundMs / 1000);
      this.goBlind(`its event stream has not been open for ${s} s${this.lastError ? ` (${this.lastError})` : ""}`);
    }, this.timing.openBoundMs);
  }

  private goBlind(why: string): void {
    if (this.blindWhy === why || this.closed) return;
    this.blindWhy = why;
    this.hooks.blind(this, why);
    this.settle();
  }

  private onError(e: WwsError): void {
    this.lastError = e.message;
    if (e.code === "stream_unauthorized") {
      const status = (e as { status?: number }).status;
      this.goBlind(
        `the key was refused${status ? ` (HTTP ${status})` : ""}: the API key from ${this.conn.keySource}; ` +
          `put a valid key there (for the stack config: pulumi config set --secret wws:apiKey <key>), the watch takes it within a minute`,
      );
    }
  }

  private onState(state: StreamState): void {
    this.state = state;
    if (state === "closed") {
      if (!this.closed && !this.blindWhy)
        this.goBlind(`its event stream stopped for good: ${this.lastError ?? "closed"}`);
      clearTimeout(this.openTimer);
      return;
    }
    if (state === "down") {
      if (this.wasOpen) this.hooks.status(`event stream of workspace ${this.workspace} is down: reconnecting`);
      this.armOpenBound();
      return;
    }
    // open
    clearTimeout(this.openTimer);
    this.settle();
    this.lastError = undefined;
    if (this.blindWhy) {
      this.blindWhy = undefined;
      this.hooks.seeing(this, "its event stream is open: comparing everything");
    }
    if (this.resumeOnOpen) {
      this.resumeOnOpen = false;
      this.wasOpen = true;
      return this.requestCatchUp(this.lastEventId);
    }
    if (this.wasOpen) {
      this.hooks.status(`event stream of workspace ${this.workspace} is back: comparing everything`);
      // No event yet, so nothing to resume from: the stream cannot replay what it missed.
      if (!this.streamResumes) return this.requestCatchUp(this.lastEventId);
    }
    this.wasOpen = true;
    this.hooks.touch(this, "*", {});
  }

  private onEvent(e: WorkspaceEvent): void {
    this.lastEventAt = Date.now();
    const previousId = this.lastEventId;
    if (e.id) {
      this.lastEventId = e.id;
      this.streamResumes = true;
    }
    if (e.type === "resync") return this.requestCatchUp(previousId);
    if (e.type === "secret-changed") {
      const m = /^workloads\/([^/]+)\//.exec(e.data.path ?? "");
      if (m && this.keys.has(m[1])) {
        this.note(m[1], (r) => (r.secretChanged = true));
        this.hooks.touch(this, [m[1]], {});
      }
      return;
    }
    // Where the service's rows name their workload, each change comes with one: spec-changed adds nothing.
    if (e.type === "spec-changed") return this.rowsNameTargets ? undefined : this.hooks.touch(this, "*", {});
    if (e.type !== "activity") return;
    this.onRow(e.data, e.id);
  }

  private onRow(row: ActivityRow, eventId?: string): void {
    const cause = rowCause(row, eventId);
    const key = targetKey(row);
    // A row that names nothing (the spec's rows): any managed workload may have changed.
    if (key === undefined) return this.hooks.touch(this, "*", cause);
    this.rowsNameTargets = true;
    if (!this.keys.has(key)) return;
    if (this.hooks.ownRow(this, key, row)) return this.hooks.touch(this, [key], {});
    this.noteRow(key, row, cause);
    this.hooks.touch(this, [key], cause);
  }

  /** The newest activity row's id, for a catch-up after a cut that comes before any event. */
  private async seedLastEventId(): Promise<void> {
    try {
      const newest = (await this.conn.client().listActivity({ limit: 1 })).at(-1);
      if (this.lastEventId === undefined && newest?.id !== undefined) this.lastEventId = String(newest.id);
    } catch {
      // Without it, a catch-up before any event reads nothing: the full comparison still runs.
    }
  }

  /** One catch-up read per window, from the oldest point asked for, however many `resync`s and reconnects come. */
  private requestCatchUp(after: string | undefined): void {
    const c = this.catchUp;
    if (c.timer || c.running) {
      c.again = true;
      if (c.after === undefined || (after !== undefined && Number(after) < Number(c.after))) c.after = after;
      return;
    }
    c.after = after;
    c.timer = setTimeout(() => {
      c.timer = undefined;
      const from = c.after;
      c.again = false;
      c.running = this.readMissed(from).finally(() => {
        c.running = undefined;
        if (c.again && !this.closed) this.requestCatchUp(this.lastEventId);
      });
    }, this.timing.catchUpWindowMs);
  }

  /**
   * The rows the stream missed (`GET /activity?after=`), where the service keeps them: a change
   * made and undone meanwhile is still reported, by whom; then everything is compared.
   */
  private async readMissed(after: string | undefined): Promise<void> {
    if (this.closed) return;
    if (after !== undefined && this.wasOpen) {
      try {
        for (const row of await this.conn.client().listActivity({ after, limit: 1000 })) {
          const key = targetKey(row);
          const cause = rowCause(row);
          if (key !== undefined && this.keys.has(key) && !this.hooks.ownRow(this, key, row))
            this.noteRow(key, row, cause);
        }
      } catch (err) {
        this.hooks.status(
          `could not read the activity the stream of workspace ${this.workspace} missed: ${err instanceof Error ? err.message : String(err)}`,
        );
      }
    }
    this.hooks.touch(this, "*", {});
  }
}
