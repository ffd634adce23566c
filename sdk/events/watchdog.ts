import type { Clock, TimerHandle } from "../clock";

/**
 * Fires `onExpire` once when `touch` was not called for `limitMs`. Touching only records the
 * time; the single timer re-arms itself for the remainder, so a busy stream costs no timer churn.
 */
export class Watchdog {
  private last: number;
  private handle: TimerHandle | undefined;
  private stopped = false;
  fired = false;

  constructor(
    private readonly clock: Clock,
    private readonly limitMs: number,
    private readonly onExpire: () => void,
  ) {
    this.last = clock.now();
    this.arm(limitMs);
  }

  touch(): void {
    this.last = this.clock.now();
  }

  stop(): void {
    this.stopped = true;
    if (this.handle !== undefined) this.clock.clearTimeout(this.handle);
    this.handle = undefined;
  }

  private arm(ms: number): void {
    this.handle = this.clock.setTimeout(() => this.check(), ms);
  }

  private check(): void {
    if (this.stopped) return;
    const idle = this.clock.now() - this.last;
    if (idle < this.limitMs) {
      this.arm(this.limitMs - idle);
      return;
    }
    this.fired = true;
    this.handle = undefined;
    this.onExpire();
  }
}
