/**
 * The watch's work queue, after client-go's (`util/workqueue`): a key is a resource (its URN).
 *
 * - Keys added within `debounceMs` are processed in one batch; one batch runs at a time, so a
 *   resource is never compared twice at once. A key added while its batch runs is processed once
 *   more in the next batch (client-go's "dirty" key).
 * - A key whose processing failed is added again after a backoff, `min(initial * 2^(n-1), max)`,
 *   and `onFailure` is told whether it is the first failure of its streak (to say it once).
 * - `stop()` ends every timer; a batch under way finishes, and nothing starts after it.
 */
export interface WorkQueueOptions<K> {
  /** Processes one batch; resolves to the keys that failed, with why. Must not reject (a rejection fails the whole batch). */
  process(keys: K[]): Promise<Map<K, string>>;
  /** A key failed: `first` is true for the first failure since it last succeeded. */
  onFailure(key: K, why: string, first: boolean, retryInMs: number): void;
  /** Called when a key that had failed succeeds again. */
  onRecovered?(key: K): void;
  /** @default 100 (ms) */
  debounceMs?: number;
  /** @default 1000 (1 s) */
  retryInitialMs?: number;
  /** @default 60000 (1 min) */
  retryMaxMs?: number;
}

export class WorkQueue<K> {
  private readonly pending = new Set<K>();
  private readonly failures = new Map<K, number>();
  private readonly retryTimers = new Map<K, NodeJS.Timeout>();
  private timer: NodeJS.Timeout | undefined;
  private running: Promise<void> | undefined;
  private stopped = false;

  constructor(private readonly options: WorkQueueOptions<K>) {}

  /** Keys waiting for a batch (not the one under way). */
  get size(): number {
    return this.pending.size;
  }

  /** Whether a batch runs now. */
  get busy(): boolean {
    return this.running !== undefined;
  }

  add(key: K): void {
    if (this.stopped) return;
    this.pending.add(key);
    this.arm();
  }

  /** No batch starts after this; retries are dropped. */
  stop(): void {
    this.stopped = true;
    clearTimeout(this.timer);
    for (const t of this.retryTimers.values()) clearTimeout(t);
    this.retryTimers.clear();
    this.pending.clear();
  }

  /** Resolves once no batch runs and none is waiting (tests, a clean stop). */
  async idle(): Promise<void> {
    for (let i = 0; i < 1000 && (this.running || this.timer); i++)
      await (this.running ?? new Promise((r) => setTimeout(r, this.options.debounceMs ?? 100)));
  }

  private arm(): void {
    if (this.timer || this.running || this.stopped) return;
    this.timer = setTimeout(() => {
      this.timer = undefined;
      this.running = this.batch().finally(() => {
        this.running = undefined;
        if (this.pending.size > 0) this.arm();
      });
    }, this.options.debounceMs ?? 100);
  }

  private async batch(): Promise<void> {
    const keys = [...this.pending];
    this.pending.clear();
    let failed: Map<K, string>;
    try {
      failed = await this.options.process(keys);
    } catch (err) {
      const why = err instanceof Error ? err.message : String(err);
      failed = new Map(keys.map((k) => [k, why]));
    }
    for (const key of keys) {
      const why = failed.get(key);
      if (why === undefined) {
        if (this.failures.delete(key)) this.options.onRecovered?.(key);
        continue;
      }
      const n = (this.failures.get(key) ?? 0) + 1;
      this.failures.set(key, n);
      const delay = retryDelay(n, this.options.retryInitialMs ?? 1000, this.options.retryMaxMs ?? 60_000);
      this.options.onFailure(key, why, n === 1, delay);
      if (this.stopped) continue;
      clearTimeout(this.retryTimers.get(key));
      this.retryTimers.set(
        key,
        setTimeout(() => {
          this.retryTimers.delete(key);
          this.add(key);
        }, delay),
      );
    }
  }
}

/** The wait before the `n`-th retry of a key: `min(initial * 2^(n-1), max)`. */
export function retryDelay(n: number, initialMs: number, maxMs: number): number {
  return Math.min(initialMs * 2 ** Math.min(n - 1, 30), maxMs);
}
