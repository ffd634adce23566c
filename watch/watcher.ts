import {
  EventHub,
  resolveNetwork,
  type ActivityRow,
  type StreamState,
  type WorkspaceClient,
  type WorkspaceEvent,
} from "../sdk";
import { createContext, type ManagedContext } from "../provider/dynamic/context";
import { requireConnection } from "../provider/dynamic/service/connection";
import { requireNetworkSettings } from "../provider/dynamic/service/network";
import { forgetSpecs } from "../provider/dynamic/service/shared-spec";
import { createWorkloadProvider } from "../provider/dynamic/workloads/provider";
import { createTemplateProvider } from "../provider/dynamic/templates/provider";
import type { ProviderImpl } from "../provider/dynamic/types";
import { compareWorkload, type Difference } from "./compare";
import { changedBackFinding, findingsOf, signatureOf, type Cause, type Finding } from "./finding";
import { Reverter } from "./revert";
import type { StackPlace } from "../cli/recover/pulumi-cli";
import { stateStamp, loadStack, projectOf, stackLocked, type ManagedWorkload, type StackView } from "./stack";

/** How long a finding no row announced waits for the row that names who made it. */
const ROW_GRACE_MS = 1000;

/** Actors of rows the service writes itself, not a key's change. */
const SERVICE_ACTORS = new Set(["reconciler", "control"]);

export interface WatchOptions {
  /** Stack names; their project directory is the process's working directory unless `placeOf` says another. */
  stacks: string[];
  /** A stack's project directory and environment. @default this process's, with `env` */
  placeOf?: (stack: string) => StackPlace;
  onFinding: (finding: Finding) => void;
  /** Status lines ("all as declared", waits, stream changes). */
  onStatus?: (line: string) => void;
  /** Put back drifted in-place fields with `pulumi up --refresh --target`. */
  revert?: boolean;
  env?: NodeJS.ProcessEnv;
  /** Events within this window are compared in one go. @default 100 */
  debounceMs?: number;
  /** How often the "all as declared" line is printed, and the stacks' states are checked for changes. @default 60000 */
  statusEveryMs?: number;
  /** How often the stacks' record is checked for changes (an up made elsewhere). @default 15000 */
  relearnEveryMs?: number;
  /** Counts every comparison request (bench). */
  onRead?: (workspace: string, workloads: number) => void;
}

interface Group {
  key: string;
  workspace: string;
  workloads: Map<string, ManagedWorkload>; // by `keyOf`
  unsubscribe: () => void;
  pending: Map<string, Cause>; // workload id → cause; "*" all
  timer?: NodeJS.Timeout;
  wasOpen: boolean;
  /** The service's activity rows name their target (an extension of the spec). */
  rowsNameTargets: boolean;
  /** The newest event id seen, or at the start the newest activity row's: where a catch-up starts. */
  lastEventId?: string;
  /** An event came with an id: the stream itself resumes from it (`Last-Event-ID`) and replays the gap. */
  streamResumes: boolean;
  /** From a reconnect until the comparison that follows it: rows now are the ones replayed from the gap. */
  catchingUp: boolean;
  /** Rows by a key about a managed workload or template, made while the stream was down (`keyOf` → first such row). */
  gapRows: Map<string, Cause>;
  /** For the rows a `resync` skipped (`GET /activity?after=`). */
  client: () => WorkspaceClient;
}

interface StackEntry {
  view: StackView;
  /** `stateStamp` when `view` was read. */
  stamp: string;
  providers: Record<ManagedWorkload["kind"], ProviderImpl>;
  ctx: ManagedContext;
}

/** A row's target, or a managed resource, as a key of its group: a workload's id; `template:<id>`. */
function keyOf(kind: string | undefined, id: string): string {
  return kind === "template" ? `template:${id}` : id;
}

/** Keeps the first row by a key (not the service's own steps) of each workload. */
function noteGapRow(g: Group, id: string, cause: Cause): void {
  if (cause.actor && !SERVICE_ACTORS.has(cause.actor) && !g.gapRows.has(id)) g.gapRows.set(id, cause);
}

/** Who made a change, as its activity row says; `eventId`: the event's, where the row has no id. */
function causeOf(row: ActivityRow, eventId?: string): Cause {
  return { actor: row.actor, activityId: row.id === undefined ? eventId : String(row.id), at: row.at };
}

/** The key of a row's target in its group, when it names one. */
function targetKey(row: ActivityRow): string | undefined {
  return row.target?.id === undefined ? undefined : keyOf(row.target.type, row.target.id);
}

/** The project of a stack's record (`""` before it records anything). */
function projectOfView(view: StackView | undefined): string {
  return view?.workloads[0] ? projectOf(view.workloads[0].urn) : "";
}

/**
 * The drift watch: learns each stack's workloads from its state, holds one event stream per
 * workspace, and on each event that could touch a managed workload compares it (the provider's
 * read and diff) with what the stack recorded. A finding is reported once; while a stack's update
 * holds its lock the comparison waits, and the stack is learnt again when it ends.
 */
export class Watch {
  private readonly hub = new EventHub();
  private readonly stacks = new Map<string, StackEntry>();
  private groups = new Map<string, Group>();
  /** What was reported of each URN while its drift lasts: a finding is reported once, not at every comparison. */
  private readonly reported = new Map<string, Set<string>>();
  private readonly env: NodeJS.ProcessEnv;
  private readonly reverter: Reverter;
  private timers: NodeJS.Timeout[] = [];
  private stopped = false;
  private learning: Promise<void> = Promise.resolve();
  /** Stacks whose update the watch waits out before it compares again. */
  private readonly waitingFor = new Set<string>();
  /** Findings held for the row that names who made them (`ROW_GRACE_MS`). */
  private readonly held = new Set<NodeJS.Timeout>();

  constructor(private readonly options: WatchOptions) {
    this.env = options.env ?? process.env;
    this.reverter = new Reverter({
      report: (f) => this.report(f),
      locked: (stack) => this.locked(stack),
      relearn: () => this.relearn(),
      place: (stack) => this.place(stack),
    });
  }

  /** Learns the stacks, opens the streams and compares everything once. */
  async start(): Promise<void> {
    await this.learn();
    const every = this.options.statusEveryMs ?? 60_000;
    this.timers.push(setInterval(() => this.status(), every));
    this.timers.push(setInterval(() => void this.checkStates(), this.options.relearnEveryMs ?? 15_000));
    for (const g of this.groups.values()) this.schedule(g, "*", {});
  }

  async stop(): Promise<void> {
    this.stopped = true;
    this.reverter.stop();
    for (const t of this.timers) clearInterval(t);
    for (const t of this.held) clearTimeout(t);
    for (const g of this.groups.values()) {
      clearTimeout(g.timer);
      g.unsubscribe();
    }
    this.groups.clear();
    await Promise.all([...this.stacks.values()].map((s) => s.ctx.close()));
  }

  /** Workloads and templates watched, over all stacks. */
  get size(): number {
    return [...this.stacks.values()].reduce((n, s) => n + s.view.workloads.length, 0);
  }

  /** What it watches, in words: `3 workloads`, `1 workload`, `3 workloads and 1 template`. */
  get watched(): string {
    const templates = [...this.stacks.values()].flatMap((s) => s.view.workloads).filter((w) => w.kind === "template");
    const count = (n: number, what: string): string => `${n} ${what}${n === 1 ? "" : "s"}`;
    const workloads = count(this.size - templates.length, "workload");
    return templates.length === 0 ? workloads : `${workloads} and ${count(templates.length, "template")}`;
  }

  private status(): void {
    const names = [...this.stacks.keys()].join(", ");
    const workspaces = [...new Set([...this.groups.values()].map((g) => g.workspace))].join(", ");
    const differing = this.reported.size;
    const verdict =
      differing === 0
        ? "all as declared"
        : `${differing} differ from the stack's record (reported above), the others as declared`;
    this.options.onStatus?.(`watching ${this.watched} of stack ${names} in workspace ${workspaces}: ${verdict}`);
  }

  private place(stack: string): StackPlace {
    return this.options.placeOf?.(stack) ?? { env: this.env };
  }

  private async locked(stack: string): Promise<boolean> {
    return stackLocked(stack, projectOfView(this.stacks.get(stack)?.view), this.place(stack));
  }

  private stamp(stack: string): Promise<string> {
    return stateStamp(stack, projectOfView(this.stacks.get(stack)?.view), this.place(stack));
  }

  private relearn(): Promise<void> {
    this.learning = this.learning.then(() => this.learn());
    return this.learning;
  }

  /** Reads each stack's state and config; a changed state's workloads are watched as it now records them. */
  private async learn(): Promise<void> {
    for (const name of this.options.stacks) {
      // Taken before the read where the project is known (a write between the two only costs one
      // more learning); at the first read, right after it.
      const known = this.stacks.has(name) ? await this.stamp(name).catch(() => "") : undefined;
      const view = await loadStack(name, this.place(name));
      const stamp = known ?? (await stateStamp(name, projectOfView(view), this.place(name)).catch(() => ""));
      const before = this.stacks.get(name);
      if (before?.view.version === view.version) {
        before.stamp = stamp;
        continue;
      }
      if (before) await before.ctx.close();
      const ctx = createContext({ config: view.config, env: this.place(name).env ?? this.env, replaceTargets: [] });
      const providers = { workload: createWorkloadProvider(ctx), template: createTemplateProvider(ctx) };
      this.stacks.set(name, { view, stamp, ctx, providers });
    }
    this.regroup();
  }

  private async checkStates(): Promise<void> {
    if (this.stopped) return;
    try {
      const versions = [...this.stacks.values()].map((s) => s.view.version).join();
      await this.relearn();
      if (versions !== [...this.stacks.values()].map((s) => s.view.version).join())
        for (const g of this.groups.values()) this.schedule(g, "*", {});
    } catch (err) {
      this.options.onStatus?.(`could not read the stacks' state: ${err instanceof Error ? err.message : String(err)}`);
    }
  }

  /** One group per workspace connection (base URL, workspace, key, network): one stream each. */
  private regroup(): void {
    const next = new Map<string, Group>();
    for (const { view, ctx } of this.stacks.values()) {
      for (const w of view.workloads) {
        const conn = requireConnection(w.recorded, ctx.sources(), `cannot watch ${w.urn}`);
        const network = requireNetworkSettings(ctx.sources(), `cannot watch ${w.urn}`);
        const key = `${conn.connection.key}\n${network.key}`;
        let g = next.get(key) ?? this.groups.get(key);
        if (!g) {
          const fresh: Group = {
            key,
            workspace: conn.workspace,
            workloads: new Map(),
            pending: new Map(),
            wasOpen: false,
            rowsNameTargets: false,
            catchingUp: false,
            streamResumes: false,
            gapRows: new Map(),
            client: () => ctx.client(conn),
            unsubscribe: () => undefined,
          };
          fresh.unsubscribe = this.hub.subscribe(
            { connection: conn.connection, network: resolveNetwork(conn.baseUrl, network.options) },
            {
              onEvent: (e) => this.onEvent(fresh, e),
              onState: (s) => this.onState(fresh, s),
            },
          );
          void this.seedLastEventId(fresh);
          g = fresh;
        }
        if (!next.has(key)) g.workloads = new Map();
        next.set(key, g);
        g.workloads.set(keyOf(w.kind, w.id.slice(w.id.indexOf("/") + 1)), w);
      }
    }
    for (const [key, g] of this.groups) if (!next.has(key)) g.unsubscribe();
    this.groups = next;
  }

  private onState(g: Group, state: StreamState): void {
    if (state === "open") {
      // Every (re)connect: whatever happened while down is compared in full.
      if (g.wasOpen) {
        this.options.onStatus?.(`event stream of workspace ${g.workspace} is back: comparing everything`);
        g.catchingUp = true;
        // No event yet, so nothing to resume from: the stream cannot replay what it missed.
        if (!g.streamResumes) return void this.catchUp(g, g.lastEventId);
      }
      g.wasOpen = true;
      this.schedule(g, "*", {});
    } else if (state === "down" && g.wasOpen)
      this.options.onStatus?.(`event stream of workspace ${g.workspace} is down: reconnecting`);
  }

  private onEvent(g: Group, e: WorkspaceEvent): void {
    const previousId = g.lastEventId;
    if (e.id) {
      g.lastEventId = e.id;
      g.streamResumes = true;
    }
    if (e.type === "resync") return void this.catchUp(g, previousId);
    // Where the service's rows name their workload, each change comes with one: spec-changed adds nothing.
    if (e.type === "spec-changed") return g.rowsNameTargets ? undefined : this.schedule(g, "*", {});
    if (e.type !== "activity") return;
    const cause = causeOf(e.data, e.id);
    const key = targetKey(e.data);
    // A row that names nothing (the spec's rows): any managed workload may have changed.
    if (key === undefined) return this.schedule(g, "*", cause);
    g.rowsNameTargets = true;
    if (!g.workloads.has(key)) return;
    if (g.catchingUp) noteGapRow(g, key, cause);
    this.schedule(g, key, cause);
  }

  /** The newest activity row's id, for a catch-up after a cut that comes before any event. */
  private async seedLastEventId(g: Group): Promise<void> {
    const newest = (
      await g
        .client()
        .listActivity({ limit: 1 })
        .catch(() => [])
    ).at(-1);
    if (g.lastEventId === undefined && newest?.id !== undefined) g.lastEventId = String(newest.id);
  }

  /**
   * After a `resync` (the service could not replay what the stream missed), or a reconnect before
   * any event, the rows it missed are asked for once, where the service keeps them, so that a
   * change made and undone meanwhile is still reported; then everything is compared.
   */
  private async catchUp(g: Group, after: string | undefined): Promise<void> {
    if (after !== undefined && g.wasOpen) {
      try {
        for (const row of await g.client().listActivity({ after, limit: 1000 })) {
          const key = targetKey(row);
          if (key !== undefined && g.workloads.has(key)) noteGapRow(g, key, causeOf(row));
        }
      } catch (err) {
        this.options.onStatus?.(
          `could not read the activity the stream of workspace ${g.workspace} missed: ${err instanceof Error ? err.message : String(err)}`,
        );
      }
    }
    this.schedule(g, "*", {});
  }

  private schedule(g: Group, id: string, cause: Cause): void {
    if (this.stopped) return;
    const had = g.pending.get(id);
    // The first row of a key's change names who made it; the service's own rows (the reconciler's
    // phase steps, a control action) are consequences, kept only while nothing better is known.
    const byService = (c?: Cause): boolean => !c?.actor || SERVICE_ACTORS.has(c.actor);
    if (!had || (byService(had) && !byService(cause))) g.pending.set(id, cause);
    if (g.timer) return;
    g.timer = setTimeout(() => void this.flush(g), this.options.debounceMs ?? 100);
  }

  private async flush(g: Group): Promise<void> {
    g.timer = undefined;
    const pending = new Map(g.pending);
    g.pending.clear();
    const gapRows = g.gapRows;
    g.gapRows = new Map();
    g.catchingUp = false;
    const all = pending.has("*");
    const targets = all ? [...g.workloads.keys()] : [...pending.keys()];
    const anyCause = pending.get("*") ?? {};
    this.options.onRead?.(g.workspace, targets.length);
    // A fresh read of the workspace's spec, shared by every workload compared now.
    forgetSpecs();
    const compared = await Promise.all(
      targets.map(async (id) => {
        const w = g.workloads.get(id);
        if (!w) return undefined;
        const knownDrift = this.reported.has(w.urn);
        const diffs = await this.compare(w);
        const cause = pending.get(id) ?? (anyCause.actor || anyCause.activityId ? anyCause : {});
        // A row from the gap, and nothing differs now: a change made and undone while the stream was
        // down (unless it undid a drift already reported).
        const gapRow = diffs?.length === 0 && !knownDrift ? gapRows.get(id) : undefined;
        return diffs && (diffs.length > 0 || gapRow) ? { w, diffs, cause, gapRow } : undefined;
      }),
    );
    const found = compared.filter((c) => c !== undefined);
    // Asked once per stack, after every read of this comparison: a read that shows an update's
    // change was made after that update took the stack's lock.
    const outOfDate = new Set<string>();
    for (const stack of new Set(found.map((c) => c.w.stack)))
      if (await this.recordOutOfDate(stack)) outOfDate.add(stack);
    for (const { w, diffs, cause, gapRow } of found) {
      if (outOfDate.has(w.stack)) continue;
      if (gapRow) this.report(changedBackFinding(w, gapRow));
      else this.reportDiffs(w, diffs, cause);
    }
  }

  /**
   * Whether the stack's record may not explain what the service shows: an update of it runs, or
   * one ended since the record was learnt. Either way the watch learns it once the update has
   * ended and compares everything again, and reports nothing now.
   */
  private async recordOutOfDate(stack: string): Promise<boolean> {
    const entry = this.stacks.get(stack);
    if (!entry) return true;
    // An update of the stack runs: the workspace and the record differ on purpose until it ends.
    // One that ended since the record was learnt: what it did is no drift.
    if ((await this.locked(stack)) || (await this.stamp(stack).catch(() => "")) !== entry.stamp) {
      this.afterUpdate(stack);
      return true;
    }
    return false;
  }

  /** The differences of `w` now; undefined when it could not be read. */
  private async compare(w: ManagedWorkload): Promise<Difference[] | undefined> {
    const entry = this.stacks.get(w.stack);
    if (!entry || this.stopped) return undefined;
    try {
      const diffs = await compareWorkload(entry.providers[w.kind], w);
      // As declared again: a later drift of it is new.
      if (diffs.length === 0) this.reported.delete(w.urn);
      return diffs;
    } catch (err) {
      this.options.onStatus?.(`could not compare ${w.urn}: ${err instanceof Error ? err.message : String(err)}`);
      return undefined;
    }
  }

  private reportDiffs(w: ManagedWorkload, diffs: Difference[], cause: Cause): void {
    if (!this.reported.has(w.urn)) this.reported.set(w.urn, new Set());
    for (const f of findingsOf(diffs, w, cause, new Date())) {
      if (this.reported.get(w.urn)?.has(signatureOf(f))) continue;
      // Found by a comparison no row asked for (the start, a reconnect): the row of the change may
      // still be on its way, and names who made it. Held that long; reported as found if none came.
      if (cause.actor === undefined) this.hold(() => this.reportOnce(w, f, diffs));
      else this.reportOnce(w, f, diffs);
    }
  }

  private reportOnce(w: ManagedWorkload, f: Finding, diffs: Difference[]): void {
    const sig = signatureOf(f);
    const seen = this.reported.get(w.urn);
    if (seen?.has(sig) || this.stopped) return;
    seen?.add(sig);
    this.report(f);
    // Not when it is as declared again meanwhile (no record of it): nothing to put back. Each kind is
    // the reverter's to decide: a drift may be put back, a delete or a restart is said not to be.
    if (seen && this.options.revert) this.reverter.consider(f, diffs);
  }

  private hold(then: () => void): void {
    const timer = setTimeout(() => {
      this.held.delete(timer);
      then();
    }, ROW_GRACE_MS);
    this.held.add(timer);
  }

  /** Waits for the stack's update to end, learns its new record, then compares everything again. */
  private afterUpdate(stack: string): void {
    if (this.waitingFor.has(stack)) return;
    this.waitingFor.add(stack);
    this.options.onStatus?.(`stack ${stack} is being updated: comparing once its update has ended`);
    const poll = async (): Promise<void> => {
      if (this.stopped) return;
      if (await this.locked(stack).catch(() => true)) {
        setTimeout(() => void poll(), 500);
        return;
      }
      this.waitingFor.delete(stack);
      await this.relearn();
      for (const g of this.groups.values()) this.schedule(g, "*", {});
    };
    void poll();
  }

  private report(f: Finding): void {
    this.options.onFinding(f);
  }
}
