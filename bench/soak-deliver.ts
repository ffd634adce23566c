/**
 * The soak's webhook and metrics (soak-watch.ts): the watch's findings go to a webhook receiver of
 * the soak's own and `/metrics` is served on 127.0.0.1 and scraped every 30 s. Every 6 minutes the
 * webhook is down for 30 s, alternately answering 503 and refusing connections. At the end: each
 * finding delivered once (a second delivery counted as allowed only where at-least-once allows it:
 * its first came less than 2 s before the receiver's port closed, so its answer may have been lost),
 * every scrape's findings counter matching the findings made by then, none with a bad signature.
 */
import { startDelivery, type Delivery } from "../watch/deliver";
import type { Finding } from "../watch/finding";
import { sleep } from "./common";
import { WebhookReceiver, findingsCounted } from "./webhook-receiver";

const SCRAPE_EVERY_MS = 30_000;
const OUTAGE_EVERY_MS = 6 * 60_000;
const OUTAGE_MS = 30_000;
/** A delivery this close before a refusal may have lost its answer: its redelivery is at-least-once. */
const ANSWER_LOST_WITHIN_MS = 2000;

export class SoakDelivery {
  readonly receiver: WebhookReceiver;
  private delivery: Delivery | undefined;
  private readonly findingIds: string[] = [];
  private scrapes = 0;
  private readonly scrapeMismatches: string[] = [];
  private scrapeFailures = 0;
  private outages = 0;
  private timers: NodeJS.Timeout[] = [];
  private lastCounted = Number.NaN;
  private readonly sayings: string[] = [];

  constructor(secret: string) {
    this.receiver = new WebhookReceiver({ secret, keep: false });
  }

  /** Starts the receiver and the watch's delivery (signed with `secret`, `/metrics` on a free port). */
  async start(secret: string): Promise<void> {
    await this.receiver.accept();
    this.delivery = await startDelivery({
      webhooks: [{ url: this.receiver.url }],
      secret,
      listen: "127.0.0.1:0",
      say: (line) => {
        this.sayings.push(line);
        process.stderr.write(`${new Date().toISOString()} ${line}\n`);
      },
      env: {},
    });
    this.timers.push(setInterval(() => void this.scrape(), SCRAPE_EVERY_MS));
    this.timers.push(setInterval(() => void this.outage(), OUTAGE_EVERY_MS));
  }

  /** Beside the soak's own handling of a finding. */
  onFinding(f: Finding): void {
    if (f.findingId) this.findingIds.push(f.findingId);
    this.delivery?.onFinding(f);
  }

  onCompared(ms: number, ok: boolean): void {
    this.delivery?.onCompared(ms, ok);
  }

  watching(watch: Parameters<Delivery["watching"]>[0]): void {
    this.delivery?.watching(watch);
  }

  private async scrape(): Promise<void> {
    if (!this.delivery?.url) return;
    const before = this.findingIds.length;
    try {
      const res = await fetch(`${this.delivery.url}/metrics`, { signal: AbortSignal.timeout(10_000) });
      const counted = findingsCounted(await res.text());
      const after = this.findingIds.length;
      this.scrapes++;
      this.lastCounted = counted;
      // A finding made while the scrape was under way may or may not be in it.
      if (!(counted >= before && counted <= after))
        this.scrapeMismatches.push(`counted ${counted}, findings ${before}..${after}`);
    } catch (err) {
      this.scrapeFailures++;
      process.stderr.write(`scrape failed: ${String(err)}\n`);
    }
  }

  private async outage(): Promise<void> {
    const refuse = this.outages++ % 2 === 1;
    if (refuse) await this.receiver.refuse();
    else this.receiver.answering = 503;
    await sleep(OUTAGE_MS);
    if (refuse) await this.receiver.accept();
    else this.receiver.answering = 200;
  }

  /** Stops the outages, waits (at most `waitMs`) for the receiver to have every finding, scrapes once more. */
  async settle(waitMs: number): Promise<void> {
    this.timers.forEach((t) => clearInterval(t));
    this.timers = [];
    const until = Date.now() + waitMs;
    while (Date.now() < until && this.missing().length > 0) await sleep(500);
    await this.scrape();
  }

  async close(): Promise<void> {
    this.timers.forEach((t) => clearInterval(t));
    await this.delivery?.close(2000);
    await this.receiver.close();
  }

  private missing(): string[] {
    return [...new Set(this.findingIds)].filter((id) => !this.receiver.deliveries.has(id));
  }

  /** The figures for the soak's JSON line, and whether they pass. */
  result(): { ok: boolean; figures: Record<string, unknown> } {
    const r = this.receiver;
    const distinct = new Set(this.findingIds);
    // Two findings alike (the same id) are two deliveries of it.
    const expected = new Map<string, number>();
    for (const id of this.findingIds) expected.set(id, (expected.get(id) ?? 0) + 1);
    const duplicates = [...r.deliveries].filter(([id, n]) => n > (expected.get(id) ?? 0)).map(([id]) => id);
    const allowed = duplicates.filter((id) =>
      r.refusedAt.some((t) => t - r.firstAt.get(id)! >= 0 && t - r.firstAt.get(id)! < ANSWER_LOST_WITHIN_MS),
    );
    const unknown = [...r.deliveries.keys()].filter((id) => !distinct.has(id));
    const missing = this.missing();
    const figures = {
      findings: this.findingIds.length,
      distinctIds: distinct.size,
      delivered: r.deliveries.size,
      attempts: r.attempts,
      missing: missing.length,
      duplicates: duplicates.length,
      duplicatesAllowedByAtLeastOnce: allowed.length,
      unknown: unknown.length,
      badSignatures: r.badSignatures,
      withoutId: r.withoutId,
      outages: this.outages,
      outagesSaid: this.sayings.filter((l) => /webhook/i.test(l)).length,
      scrapes: this.scrapes,
      scrapeFailures: this.scrapeFailures,
      scrapeMismatches: this.scrapeMismatches.slice(0, 5),
      metricsFindingsAtEnd: this.lastCounted,
    };
    const ok =
      missing.length === 0 &&
      duplicates.length === allowed.length &&
      unknown.length === 0 &&
      r.badSignatures === 0 &&
      r.withoutId === 0 &&
      this.scrapes > 0 &&
      this.scrapeMismatches.length === 0 &&
      this.lastCounted === this.findingIds.length;
    return { ok, figures };
  }
}
