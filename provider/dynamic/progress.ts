import type { Clock, SettleRule, TimerHandle, WaitProgress } from "../../sdk";
import { formatDuration } from "../../sdk/wait/workload-wait";
import { systemClock } from "../../sdk/clock";

/** What a user reads when a wait settles for lack of evidence (the rule: `sdk/wait/settle.ts`). */
function settlingText(rule: SettleRule): string {
  return (
    `but the service shows no evidence that this is the new spec (no generation, no phase change seen): settling, ` +
    `taking it once the workspace's events are quiet for ${formatDuration(rule.quietMs)}, ` +
    `${formatDuration(rule.minMs)} to ${formatDuration(rule.maxMs)} after the request`
  );
}

export interface ProgressOptions {
  /** Where lines go. @default console.log (the dynamic provider host passes it to the engine's output) */
  write?: (line: string) => void;
  /** Interval of the summary line while anything is being awaited. @default 10000 (10 s) */
  summaryEveryMs?: number;
  /** Above this many waits at once, per-workload lines stop and only summaries are written. @default 20 */
  maxDetailed?: number;
  /** @default the system clock */
  clock?: Clock;
}

export const DEFAULT_PROGRESS_OPTIONS = Object.freeze({
  summaryEveryMs: 10 * 1000, // 10 s
  maxDetailed: 20,
});

interface Wait {
  label: string;
  phase: string;
  started: number;
  /** The last error of reads that keep failing; cleared by the next record. */
  readError?: string;
}

/** One wait being reported; `end` it however the wait ends. */
export interface ProgressHandle {
  report(progress: WaitProgress): void;
  end(): void;
}

/**
 * Turns the waiter's progress into lines a user reads during `pulumi up`, throttled so that a
 * stack waiting for hundreds of workloads does not flood the output:
 * - a line when a wait begins (what is awaited, for how long at most) and one per phase change,
 *   while at most `maxDetailed` waits run at once;
 * - every `summaryEveryMs` while anything is awaited, one summary line: how many, per phase,
 *   and the longest wait.
 * One reporter serves the whole provider process (every dynamic resource of a deployment).
 */
export class ProgressReporter {
  private readonly write: (line: string) => void;
  private readonly clock: Clock;
  private readonly summaryEveryMs: number;
  private readonly maxDetailed: number;
  private readonly waits = new Set<Wait>();
  private timer: TimerHandle | undefined;

  constructor(options: ProgressOptions = {}) {
    this.write = options.write ?? ((line) => console.log(line));
    this.clock = options.clock ?? systemClock;
    this.summaryEveryMs = options.summaryEveryMs ?? DEFAULT_PROGRESS_OPTIONS.summaryEveryMs;
    this.maxDetailed = options.maxDetailed ?? DEFAULT_PROGRESS_OPTIONS.maxDetailed;
  }

  /** One line the user should read whatever the number of waits: a takeover, what a planned change will do. */
  note(text: string): void {
    this.line(text);
  }

  /** `label`: `vm-ubuntu web in workspace demo`; `goal`: `to be ready`. */
  begin(label: string, goal: string, timeoutMs: number): ProgressHandle {
    const wait: Wait = { label, phase: "waiting", started: this.clock.now() };
    this.waits.add(wait);
    if (this.detailed()) this.line(`waiting up to ${formatDuration(timeoutMs)} for ${label} ${goal}`);
    this.schedule();
    return {
      report: (p) => {
        if (p.readError) {
          wait.phase = `${p.phase}, status unreadable`;
          wait.readError = p.readError.message;
          if (this.detailed())
            this.line(
              `${label}: cannot read its status for ${formatDuration(p.readError.sinceMs)} (the service does not answer as it should: ${p.readError.message}); still waiting, up to ${formatDuration(timeoutMs)} in all`,
            );
          return;
        }
        wait.readError = undefined;
        const phase = p.settling ? `${p.phase}, settling` : p.phase;
        if (phase === wait.phase) return;
        wait.phase = phase;
        if (!this.detailed()) return;
        if (p.settling)
          this.line(`${label}: ${p.phase} after ${formatDuration(p.elapsedMs)}, ${settlingText(p.settling.rule)}`);
        else
          this.line(`${label}: ${p.phase}${p.message ? ` (${p.message})` : ""} after ${formatDuration(p.elapsedMs)}`);
      },
      end: () => {
        this.waits.delete(wait);
        if (this.waits.size === 0) this.stop();
      },
    };
  }

  /** The summary line now (also written on the timer). */
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

  private schedule(): void {
    if (this.timer !== undefined) return;
    this.timer = this.clock.setTimeout(() => {
      this.timer = undefined;
      const s = this.summary();
      if (s === undefined) return;
      this.line(s);
      this.schedule();
    }, this.summaryEveryMs);
    // Never keep the provider process alive for a summary.
    (this.timer as { unref?: () => void } | undefined)?.unref?.();
  }

  private stop(): void {
    if (this.timer !== undefined) this.clock.clearTimeout(this.timer);
    this.timer = undefined;
  }
}
