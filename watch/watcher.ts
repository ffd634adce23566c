import { EventHub, resolveNetwork, type StreamState, type WorkspaceEvent } from "../sdk";
import { createContext, type ManagedContext } from "../provider/dynamic/context";
import { requireConnection } from "../provider/dynamic/service/connection";
import { requireNetworkSettings } from "../provider/dynamic/service/network";
import { forgetSpecs } from "../provider/dynamic/service/shared-spec";
import { createWorkloadProvider } from "../provider/dynamic/workloads/provider";
import type { ProviderImpl } from "../provider/dynamic/types";
import { compareWorkload } from "./compare";
import { findingsOf, signatureOf, type Cause, type Finding } from "./finding";
import { Reverter } from "./revert";
import type { StackPlace } from "../cli/recover/pulumi-cli";
import { stateStamp, loadStack, projectOf, stackLocked, type ManagedWorkload, type StackView } from "./stack";

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
  workloads: Map<string, ManagedWorkload>; // by workload id
  unsubscribe: () => void;
  pending: Map<string, Cause>; // workload id → cause; "*" all
  timer?: NodeJS.Timeout;
  wasOpen: boolean;
  /** The service's activity rows name their target (an extension of the spec). */
  rowsNameTargets: boolean;
}

interface StackEntry {
  view: StackView;
  /** `stateStamp` when `view` was read. */
  stamp: string;
  provider: ProviderImpl;
  ctx: ManagedContext;
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
    for (const g of this.groups.values()) {
      clearTimeout(g.timer);
      g.unsubscribe();
    }
    this.groups.clear();
    await Promise.all([...this.stacks.values()].map((s) => s.ctx.close()));
  }

  /** Workloads watched, over all stacks. */
  get size(): number {
    return [...this.stacks.values()].reduce((n, s) => n + s.view.workloads.length, 0);
  }

  private status(): void {
    const names = [...this.stacks.keys()].join(", ");
    const workspaces = [...new Set([...this.groups.values()].map((g) => g.workspace))].join(", ");
    const differing = this.reported.size;
    const verdict =
      differing === 0
        ? "all as declared"
        : `${differing} differ from the stack's record (reported above), the others as declared`;
    this.options.onStatus?.(`watching ${this.size} workloads of stack ${names} in workspace ${workspaces}: ${verdict}`);
  }

  private place(stack: string): StackPlace {
    return this.options.placeOf?.(stack) ?? { env: this.env };
  }

  private async locked(stack: string): Promise<boolean> {
    const view = this.stacks.get(stack)?.view;
    const project = view?.workloads[0] ? projectOf(view.workloads[0].urn) : "";
    return stackLocked(stack, project, this.place(stack));
  }

  private stamp(stack: string): Promise<string> {
    const view = this.stacks.get(stack)?.view;
    const project = view?.workloads[0] ? projectOf(view.workloads[0].urn) : "";
    return stateStamp(stack, project, this.place(stack));
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
      const project = view.workloads[0] ? projectOf(view.workloads[0].urn) : "";
      const stamp = known ?? (await stateStamp(name, project, this.place(name)).catch(() => ""));
      const before = this.stacks.get(name);
      if (before?.view.version === view.version) {
        before.stamp = stamp;
        continue;
      }
      if (before) await before.ctx.close();
      const ctx = createContext({ config: view.config, env: this.place(name).env ?? this.env, replaceTargets: [] });
      this.stacks.set(name, { view, stamp, ctx, provider: createWorkloadProvider(ctx) });
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
            unsubscribe: () => undefined,
          };
          fresh.unsubscribe = this.hub.subscribe(
            { connection: conn.connection, network: resolveNetwork(conn.baseUrl, network.options) },
            {
              onEvent: (e) => this.onEvent(fresh, e),
              onState: (s) => this.onState(fresh, s),
            },
          );
          g = fresh;
        }
        if (!next.has(key)) g.workloads = new Map();
        next.set(key, g);
        g.workloads.set(w.id.slice(w.id.indexOf("/") + 1), w);
      }
    }
    for (const [key, g] of this.groups) if (!next.has(key)) g.unsubscribe();
    this.groups = next;
  }

  private onState(g: Group, state: StreamState): void {
    if (state === "open") {
      // Every (re)connect: whatever happened while down is compared in full.
      if (g.wasOpen) this.options.onStatus?.(`event stream of workspace ${g.workspace} is back: comparing everything`);
      g.wasOpen = true;
      this.schedule(g, "*", {});
    } else if (state === "down" && g.wasOpen)
      this.options.onStatus?.(`event stream of workspace ${g.workspace} is down: reconnecting`);
  }

  private onEvent(g: Group, e: WorkspaceEvent): void {
    if (e.type === "resync") return this.schedule(g, "*", {});
    // Where the service's rows name their workload, each change comes with one: spec-changed adds nothing.
    if (e.type === "spec-changed") return g.rowsNameTargets ? undefined : this.schedule(g, "*", {});
    if (e.type !== "activity") return;
    const row = e.data;
    const cause: Cause = {
      actor: row.actor,
      activityId: row.id === undefined ? e.id : String(row.id),
      at: row.at,
    };
    const id = row.target?.id;
    // A row that names nothing (the spec's rows): any managed workload may have changed.
    if (id === undefined) return this.schedule(g, "*", cause);
    g.rowsNameTargets = true;
    if (row.target?.type !== undefined && row.target.type !== "workload") return;
    if (g.workloads.has(id)) this.schedule(g, id, cause);
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
    const all = pending.has("*");
    const targets = all ? [...g.workloads.keys()] : [...pending.keys()];
    const anyCause = pending.get("*") ?? {};
    this.options.onRead?.(g.workspace, targets.length);
    // A fresh read of the workspace's spec, shared by every workload compared now.
    forgetSpecs();
    await Promise.all(
      targets.map(async (id) => {
        const w = g.workloads.get(id);
        if (!w) return;
        await this.compare(w, pending.get(id) ?? (anyCause.actor || anyCause.activityId ? anyCause : {}));
      }),
    );
  }

  private async compare(w: ManagedWorkload, cause: Cause): Promise<void> {
    const entry = this.stacks.get(w.stack);
    if (!entry || this.stopped) return;
    let diffs;
    try {
      diffs = await compareWorkload(entry.provider, w);
    } catch (err) {
      this.options.onStatus?.(`could not compare ${w.urn}: ${err instanceof Error ? err.message : String(err)}`);
      return;
    }
    if (diffs.length === 0) {
      // As declared again: a later drift of it is new.
      this.reported.delete(w.urn);
      return;
    }
    // An update of the stack runs: the workspace and the record differ on purpose until it ends.
    if (await this.locked(w.stack)) return this.afterUpdate(w.stack);
    // One that ended since the record was learnt: what it did is no drift. Learn it and compare again.
    if ((await this.stamp(w.stack).catch(() => "")) !== entry.stamp) return this.afterUpdate(w.stack);
    const seen = this.reported.get(w.urn) ?? new Set<string>();
    this.reported.set(w.urn, seen);
    for (const f of findingsOf(diffs, w, cause, new Date())) {
      const sig = signatureOf(f);
      if (seen.has(sig)) continue;
      seen.add(sig);
      this.report(f);
      if (this.options.revert && f.kind === "drift") this.reverter.consider(f, diffs);
    }
  }

  private waitingFor = new Set<string>();

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
