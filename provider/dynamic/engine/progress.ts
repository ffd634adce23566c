import {
  DEFAULT_CLIENT_OPTIONS,
  formatDuration,
  type Clock,
  type SettleRule,
  type TimerHandle,
  type WaitProgress,
} from "../../../sdk";
import type { EngineLog } from "./log";

/** What a user reads when a wait settles for lack of evidence (the rule: `sdk/wait/settle.ts`). */
function settlingText(rule: SettleRule): string {
  return (
    `but the service shows no evidence that this is the new spec (no generation, no phase change seen): settling, ` +
    `taking it once the workspace's events are quiet for ${formatDuration(rule.quietMs)}, ` +
    `${formatDuration(rule.minMs)} to ${formatDuration(rule.maxMs)} after the request`
  );
}

/** `12 s`, `3 m 5 s`, `10 m`: the compact form a row has room for. */
function shortDuration(ms: number): string {
  const s = Math.floor(ms / 1000);
  if (s < 60) return `${s} s`;
  const m = Math.floor(s / 60);
  return s % 60 === 0 ? `${m} m` : `${m} m ${s % 60} s`;
}

export interface ProgressOptions {
  /**
   * The engine's log: statuses on each resource's own row, warnings under Diagnostics (the
   * dynamic provider process). Without it, lines go to `write`.
   */
  engine?: EngineLog;
  /** Where lines go without `engine`. @default console.log */
  write?: (line: string) => void;
  /** Interval of the summary (and, with `engine`, of each row's elapsed time). @default 10000 (10 s); 5000 with `engine` */
  summaryEveryMs?: number;
  /**
   * Above this many waits at once, per-workload lines stop and only summaries are written; on the
   * engine's log, a wait that begins then gets no status on its row unless its status cannot be
   * read (each status is an engine call and an event the CLI writes and the Automation API reads:
   * at 250 pods at once, 3-4 per pod cost 2-4 s of CPU). @default 20
   */
  maxDetailed?: number;
  /** @default the system clock */
  clock?: Clock;
}

const DEFAULT_PROGRESS_OPTIONS = Object.freeze({
  summaryEveryMs: 10 * 1000, // 10 s
  engineTickMs: 5 * 1000, // 5 s
  maxDetailed: 20,
});

interface Wait {
  label: string;
  goal: string;
  urn: string | undefined;
  timeoutMs: number;
  phase: string;
  /** The service's message about the phase, for the row. */
  detail?: string;
  started: number;
  /** Whether the wait has a row of its own: it began while at most `maxDetailed` waits ran. */
  row: boolean;
  /** Whether anything was written to its row (then `end` says how the wait ended there). */
  shown?: boolean;
  /** The last error of reads that keep failing; cleared by the next record. */
  readError?: string;
  settlingSaid?: boolean;
}

/** One wait being reported; `end` it however the wait ends. */
interface ProgressHandle {
  report(progress: WaitProgress): void;
  /**
   * `reached`: whether the wait got what it waited for. Resolves once the row says how the wait
   * ended (at most `END_GRACE_MS` later): before the step's outcome shows.
   */
  end(reached: boolean): Promise<void>;
}

/** How long ending a wait waits for the engine to take its last status. */
const END_GRACE_MS = 500;

/**
 * Turns the waiter's progress into what a user reads during `pulumi up`. One reporter serves the
 * whole provider process (every dynamic resource of a deployment).
 *
 * With the engine's log (the provider process): each wait's status on its resource's own row,
 * replaced as it changes and every few seconds (`Provisioning, 12 s of 10 m`); a summary of all
 * waits on the Stack row; under Diagnostics only what a user must read after the run (warnings
 * such as a settled wait or a workload left to the resource that now holds it). Nothing per poll, nothing twice.
 *
 * Without it (tests, a program), lines, throttled so that hundreds of waits do not flood them: one
 * when a wait begins and one per phase change while at most `maxDetailed` waits run at once, and
 * a summary line every `summaryEveryMs`.
 */
export class ProgressReporter {
  private readonly engine: EngineLog | undefined;
  private readonly write: (line: string) => void;
  private readonly clock: Clock;
  private readonly tickMs: number;
  private readonly maxDetailed: number;
  private readonly waits = new Set<Wait>();
  /** Waits begun since none was running, and whether the Stack row shows their summary. */
  private waitsSinceIdle = 0;
  private summaryShown = false;
  private timer: TimerHandle | undefined;

  constructor(options: ProgressOptions = {}) {
    this.engine = options.engine;
    this.write = options.write ?? ((line) => console.log(line));
    this.clock = options.clock ?? DEFAULT_CLIENT_OPTIONS.clock;
    this.tickMs =
      options.summaryEveryMs ??
      (this.engine ? DEFAULT_PROGRESS_OPTIONS.engineTickMs : DEFAULT_PROGRESS_OPTIONS.summaryEveryMs);
    this.maxDetailed = options.maxDetailed ?? DEFAULT_PROGRESS_OPTIONS.maxDetailed;
  }

  /**
   * What a user must read after the run, once (a takeover, a replacement that loses data, what a
   * planned change does): a warning when `text` starts with `warning: `. `urn`: the resource's.
   */
  note(text: string, urn?: string): void {
    void this.delivered(text, urn);
  }

  /** `note`, resolving once the engine has it (or the line is written): for what is said as the process ends. */
  delivered(text: string, urn?: string): Promise<void> {
    if (!this.engine) return Promise.resolve(this.line(text));
    const warning = text.startsWith("warning: ");
    return this.engine.diagnostic(urn, warning ? "warning" : "info", warning ? text.slice("warning: ".length) : text);
  }

  /** Progress that is stale once replaced (a call retrying): the resource's row, or a line. */
  status(text: string, urn?: string): void {
    if (this.engine) void this.engine.status(urn, text);
    else this.line(text);
  }

  /** `label`: `vm-ubuntu web in workspace demo`; `goal`: `to be ready`; `urn`: the resource's, when known. */
  begin(label: string, goal: string, timeoutMs: number, urn?: string): ProgressHandle {
    const wait: Wait = { label, goal, urn, timeoutMs, phase: "waiting", started: this.clock.now(), row: false };
    this.waits.add(wait);
    this.waitsSinceIdle++;
    wait.row = this.detailed();
    // On a row, the first record (a moment away) says more than "waiting"; the tick covers a slow one.
    if (!this.engine && this.detailed()) this.line(`waiting up to ${formatDuration(timeoutMs)} for ${label} ${goal}`);
    this.schedule();
    return {
      report: (p) => this.report(wait, p),
      end: async (reached) => {
        this.waits.delete(wait);
        if (this.waits.size === 0) this.stop();
        if (!this.engine || !(wait.row || wait.shown)) return;
        // The last status says how the wait ended, beside the step's own outcome (created, failed).
        const elapsed = shortDuration(this.clock.now() - wait.started);
        const text = reached
          ? `${wait.goal.replace(/^to be /, "")} after ${elapsed}`
          : `stopped waiting after ${elapsed}`;
        let timer: TimerHandle | undefined;
        const grace = new Promise<void>((r) => (timer = this.clock.setTimeout(r, END_GRACE_MS)));
        await Promise.race([this.rowStatus(wait, text), grace]);
        this.clock.clearTimeout(timer);
      },
    };
  }

  /** The summary now (also written on the timer). */
  summary(): string | undefined {
    if (this.waits.size === 0) return undefined;
    const now = this.clock.now();
    const byPhase = new Map<string, number>();
    let longest: Wait | undefined;
    for (const w of this.waits) {
      byPhase.set(w.phase, (byPhase.get(w.phase) ?? 0) + 1);
      if (!longest || w.started < longest.started) longest = w;
    }
    const phases = [...byPhase.entries()]
      .sort((a, b) => b[1] - a[1])
      .map(([p, n]) => `${n} ${p}`)
      .join(", ");
    const n = this.waits.size;
    const failing = [...this.waits].find((w) => w.readError !== undefined);
    const lastError = failing ? `; status reads failing, last error: ${failing.readError}` : "";
    return `still waiting for ${n} workload${n === 1 ? "" : "s"} (${phases}); longest: ${longest!.label}, ${formatDuration(now - longest!.started)}${lastError}`;
  }

  private report(wait: Wait, p: WaitProgress): void {
    if (p.readError) {
      wait.phase = `${p.phase}, status unreadable`;
      wait.readError = p.readError.message;
      const { sinceMs, message, unreachableMs } = p.readError;
      const bound = unreachableMs
        ? `gives up after ${formatDuration(unreachableMs)} without an answer`
        : `up to ${formatDuration(wait.timeoutMs)} in all`;
      const text = `cannot read its status for ${formatDuration(sinceMs)} (the service does not answer as it should: ${message}); still waiting, ${bound}`;
      if (this.engine) void this.rowStatus(wait, text);
      else if (this.detailed()) this.line(`${wait.label}: ${text}`);
      return;
    }
    wait.readError = undefined;
    const phase = p.settling ? `${p.phase}, settling` : p.phase;
    if (phase === wait.phase) return;
    wait.phase = phase;
    wait.detail = p.settling ? undefined : p.message;
    if (this.engine) {
      if (wait.row) this.showRow(wait);
      // Accepted without evidence is worth reading after the run: once per wait.
      if (p.settling && !wait.settlingSaid) {
        wait.settlingSaid = true;
        this.engine.diagnostic(wait.urn, "warning", `${wait.label}: ${p.phase}, ${settlingText(p.settling.rule)}`);
      }
      return;
    }
    if (!this.detailed()) return;
    if (p.settling)
      this.line(`${wait.label}: ${p.phase} after ${formatDuration(p.elapsedMs)}, ${settlingText(p.settling.rule)}`);
    else
      this.line(`${wait.label}: ${p.phase}${p.message ? ` (${p.message})` : ""} after ${formatDuration(p.elapsedMs)}`);
  }

  /** `waiting to be ready: Provisioning, 12 s of 10 m` on the wait's row. */
  private showRow(wait: Wait): void {
    const elapsed = shortDuration(this.clock.now() - wait.started);
    const phase = wait.detail ? `${wait.phase} (${wait.detail})` : wait.phase;
    void this.rowStatus(wait, `waiting ${wait.goal}: ${phase}, ${elapsed} of ${shortDuration(wait.timeoutMs)}`);
  }

  /** A status of the wait's own row; on the Stack row (its URN unknown) with the workload's name. */
  private rowStatus(wait: Wait, text: string): Promise<void> {
    if (!this.engine) return Promise.resolve();
    wait.shown = true;
    return this.engine.status(wait.urn, wait.urn ? text : `wws: ${wait.label}: ${text}`);
  }

  private detailed(): boolean {
    return this.waits.size <= this.maxDetailed;
  }

  private line(text: string): void {
    try {
      this.write(`wws: ${text}`);
    } catch {
      // Output is best effort: a closed pipe must not fail a deployment.
    }
  }

  private tick(): void {
    const s = this.summary();
    if (s === undefined) return;
    if (!this.engine) return this.line(s);
    for (const w of this.waits) if (w.row && w.readError === undefined && w.urn) this.showRow(w);
    this.summaryShown = true;
    void this.engine.status(undefined, `wws: ${s}`);
  }

  private schedule(): void {
    if (this.timer !== undefined) return;
    this.timer = this.clock.setTimeout(() => {
      this.timer = undefined;
      if (this.waits.size === 0) return;
      this.tick();
      this.schedule();
    }, this.tickMs);
    // Never keep the provider process alive for a summary.
    (this.timer as { unref?: () => void } | undefined)?.unref?.();
  }

  private stop(): void {
    if (this.timer !== undefined) this.clock.clearTimeout(this.timer);
    this.timer = undefined;
    const n = this.waitsSinceIdle;
    this.waitsSinceIdle = 0;
    if (!this.summaryShown) return;
    this.summaryShown = false;
    void this.engine?.status(undefined, `wws: finished waiting for ${n} workload${n === 1 ? "" : "s"}`);
  }
}
