/**
 * One `--webhook`: its own queue of findings, delivered one at a time in the order found, each
 * retried (`retry-schedule.ts`) until delivered or dropped. A failing webhook never holds the watch
 * back: `send` only queues. Said on stderr once per outage (when it begins, and when it ends, with
 * what was delivered late and what was dropped), never per attempt; every attempt is counted.
 *
 * States: delivering (the queue is worked), in an outage (the head waits for its next attempt;
 * findings queued behind it past their bound are dropped without an attempt), closing (a last grace
 * to empty the queue, then what is left is said).
 */
import type { Dispatcher } from "undici";
import type { Finding } from "../finding";
import { postOnce } from "./webhook-post";
import { DEFAULT_RETRY_SCHEDULE, nextAttempt, type RetrySchedule } from "./retry-schedule";
import { slackMessageOf } from "./slack-format";
import { SIGNATURE_HEADER, signatureOf } from "./webhook-signature";
import type { WebhookTarget } from "./webhook-target";

export type WebhookFormat = "json" | "slack";
export type DropReason = "expired" | "refused" | "queue-full";

/** The header that carries the finding's id, the same in every delivery of it: a receiver's dedupe key. */
export const FINDING_ID_HEADER = "X-WWS-Finding-Id";

export interface WebhookCounters {
  delivered(target: WebhookTarget): void;
  /** One failed attempt. */
  failed(target: WebhookTarget): void;
  dropped(target: WebhookTarget, reason: DropReason): void;
}

export interface WebhookOptions {
  target: WebhookTarget;
  /** `json`: the finding as `--json` prints it; `slack`: `{"text": …}` (Slack, Teams). @default "json" */
  format?: WebhookFormat;
  /** Signs each body (`X-WWS-Signature-256`); none: unsigned. */
  secret?: string;
  schedule?: Partial<RetrySchedule>;
  /** Findings waiting past this many: the oldest is dropped (said). @default 1000 */
  maxQueued?: number;
  dispatcher: Dispatcher;
  say(line: string): void;
  counters?: WebhookCounters;
}

interface Queued {
  body: string;
  findingId: string;
  queuedAt: number;
  attempts: number;
}

interface Outage {
  since: number;
  why: string;
  dropped: number;
}

const NO_COUNTERS: WebhookCounters = { delivered: () => undefined, failed: () => undefined, dropped: () => undefined };

export class WebhookSink {
  private readonly queue: Queued[] = [];
  private readonly schedule: RetrySchedule;
  private readonly counters: WebhookCounters;
  private pumping: Promise<void> | undefined;
  private outage: Outage | undefined;
  private sleeper: { timer: NodeJS.Timeout; wake: () => void } | undefined;
  /** Past this epoch ms (set by `close`), nothing more is attempted. */
  private deadline = Infinity;
  private closing = false;

  constructor(private readonly options: WebhookOptions) {
    this.schedule = { ...DEFAULT_RETRY_SCHEDULE, ...options.schedule };
    this.counters = options.counters ?? NO_COUNTERS;
  }

  get target(): WebhookTarget {
    return this.options.target;
  }

  /** Findings waiting to be delivered, the one being tried included. */
  get queued(): number {
    return this.queue.length;
  }

  /** Queues `f` for delivery; returns at once. */
  send(f: Finding): void {
    if (this.closing) return;
    const body = JSON.stringify(this.options.format === "slack" ? slackMessageOf(f) : f);
    if (this.queue.length >= (this.options.maxQueued ?? 1000)) {
      // The oldest not being tried right now.
      const oldest = this.queue.splice(this.pumping ? 1 : 0, 1)[0];
      if (oldest) this.drop(oldest, "queue-full", `its queue is full (${this.queue.length + 1} findings waiting)`);
    }
    this.queue.push({ body, findingId: f.findingId ?? "", queuedAt: Date.now(), attempts: 0 });
    this.pumping ??= this.pump().finally(() => (this.pumping = undefined));
  }

  /** Stops taking findings; tries what is queued for up to `graceMs` more, then says what was not delivered. */
  async close(graceMs: number): Promise<void> {
    this.closing = true;
    this.deadline = Date.now() + graceMs;
    this.sleeper?.wake();
    // An attempt under way may outlast the grace (a webhook that does not answer): not waited for past it.
    let timer: NodeJS.Timeout | undefined;
    await Promise.race([this.pumping, new Promise((resolve) => (timer = setTimeout(resolve, graceMs)))]);
    clearTimeout(timer);
    if (this.queue.length > 0)
      this.options.say(
        `${this.target.label}: ${this.queue.length} finding(s) not delivered at exit (${this.outage ? `failing: ${this.outage.why}` : "no time left"})`,
      );
    this.queue.length = 0;
  }

  private async pump(): Promise<void> {
    while (this.queue.length > 0 && Date.now() < this.deadline) {
      const item = this.queue[0];
      const ageMs = Date.now() - item.queuedAt;
      // In an outage, a finding past its bound gets no attempt of its own: the webhook is known to be failing.
      if (this.outage && item.attempts === 0 && ageMs >= this.schedule.retryForMs) {
        this.queue.shift();
        this.drop(item, "expired", `not delivered within ${Math.round(this.schedule.retryForMs / 1000)} s`);
        continue;
      }
      item.attempts++;
      const headers: Record<string, string> = { [FINDING_ID_HEADER]: item.findingId };
      if (this.options.secret) headers[SIGNATURE_HEADER] = signatureOf(this.options.secret, item.body);
      const outcome = await postOnce(this.options.dispatcher, this.target.url, item.body, headers);
      if (outcome.ok) {
        this.queue.shift();
        this.counters.delivered(this.target);
        this.deliveredAgain();
        continue;
      }
      this.counters.failed(this.target);
      this.failing(outcome.why);
      const next = nextAttempt(outcome, item.attempts, Date.now() - item.queuedAt, this.schedule);
      if (!next.retry) {
        this.queue.shift();
        this.drop(item, next.reason, next.why);
        continue;
      }
      await this.sleep(Math.min(next.delayMs, this.deadline - Date.now()));
    }
  }

  private failing(why: string): void {
    if (this.outage) {
      this.outage.why = why;
      return;
    }
    this.outage = { since: Date.now(), why, dropped: 0 };
    const s = Math.round(this.schedule.retryForMs / 1000);
    this.options.say(
      `${this.target.label} is failing (${why}): its findings wait in its queue and are tried again for up to ${s} s each; the watch goes on`,
    );
  }

  /** A delivery: the end of an outage, if there was one (said with what waited and what was dropped). */
  private deliveredAgain(): void {
    const o = this.outage;
    if (!o) return;
    this.outage = undefined;
    const s = Math.round((Date.now() - o.since) / 1000);
    this.options.say(
      `${this.target.label} delivers again after ${s} s: ${this.queue.length + 1} finding(s) waited in its queue, ${o.dropped} dropped`,
    );
  }

  private drop(item: Queued, reason: DropReason, why: string): void {
    this.counters.dropped(this.target, reason);
    if (this.outage) this.outage.dropped++;
    // Said for the first drop of an outage; the ones after it are counted in the line that ends it.
    if (this.outage && this.outage.dropped > 1) return;
    this.options.say(`${this.target.label}: dropped finding ${item.findingId}: ${why}`);
  }

  private sleep(ms: number): Promise<void> {
    if (ms <= 0) return Promise.resolve();
    return new Promise((resolve) => {
      const wake = (): void => {
        clearTimeout(timer);
        this.sleeper = undefined;
        resolve();
      };
      const timer = setTimeout(wake, ms);
      this.sleeper = { timer, wake };
    });
  }
}
