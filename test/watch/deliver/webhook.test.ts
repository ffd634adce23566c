/** One webhook's queue against a real receiver on 127.0.0.1: order, signature, an outage said once, drops said. */
import { Agent } from "undici";
import { WebhookSink, FINDING_ID_HEADER, type DropReason } from "../../../watch/deliver/webhook";
import { verifySignature, SIGNATURE_HEADER } from "../../../watch/deliver/webhook-signature";
import { webhookTarget } from "../../../watch/deliver/webhook-target";
import type { Finding } from "../../../watch/finding";
import { WebhookReceiver } from "../../../bench/webhook-receiver";
import { pollUntil } from "../../support/poll";
import { startForwardProxy } from "../../support/forward-proxy";
import { webhookDispatcher } from "../../../watch/deliver/webhook-post";

const finding = (n: number): Finding => ({
  kind: "drift",
  stack: "prod",
  urn: `urn:pulumi:prod::infra::pulumi-nodejs:dynamic/wws:Pod::web${n}`,
  resource: `Pod "web${n}"`,
  id: `team/web${n}`,
  at: new Date().toISOString(),
  findingId: `id-${n}`,
});

const FAST = { initialMs: 20, maxDelayMs: 50, retryForMs: 60_000 };

describe("WebhookSink", () => {
  const dispatcher = new Agent();
  let receiver: WebhookReceiver;
  let said: string[];
  let counted: { delivered: number; failed: number; dropped: DropReason[] };

  const sink = (overrides: Partial<ConstructorParameters<typeof WebhookSink>[0]> = {}) =>
    new WebhookSink({
      target: webhookTarget(receiver.url, 1),
      secret: "s3cret-value",
      schedule: FAST,
      dispatcher,
      say: (l) => said.push(l),
      counters: {
        delivered: () => counted.delivered++,
        failed: () => counted.failed++,
        dropped: (_t, r) => counted.dropped.push(r),
      },
      ...overrides,
    });

  beforeEach(async () => {
    receiver = await new WebhookReceiver().start();
    said = [];
    counted = { delivered: 0, failed: 0, dropped: [] };
  });
  afterEach(() => receiver.close());
  afterAll(() => dispatcher.close());

  it("should POST each finding once, in order, signed, with its id", async () => {
    const s = sink();
    for (const n of [1, 2, 3]) s.send(finding(n));
    await pollUntil(() => receiver.received.length === 3, { what: "three deliveries" });
    expect(receiver.received.map((r) => (JSON.parse(r.body) as Finding).resource)).toEqual([
      'Pod "web1"',
      'Pod "web2"',
      'Pod "web3"',
    ]);
    for (const r of receiver.received) {
      expect(verifySignature("s3cret-value", r.body, r.headers[SIGNATURE_HEADER.toLowerCase()] as string)).toBe(true);
      expect(r.headers[FINDING_ID_HEADER.toLowerCase()]).toBe((JSON.parse(r.body) as Finding).findingId);
    }
    expect(counted).toEqual({ delivered: 3, failed: 0, dropped: [] });
    expect(said).toEqual([]);
    await s.close(100);
  });

  it("should hold findings through an outage (refused, then 503 with Retry-After) and deliver each once after it, saying it once", async () => {
    await receiver.refuse();
    const s = sink();
    s.send(finding(1));
    s.send(finding(2));
    await pollUntil(() => counted.failed >= 3, { what: "refused attempts", timeoutMs: 5000 });
    await receiver.accept();
    receiver.answering = 503;
    await pollUntil(() => receiver.attempts >= 1, { what: "a 503", timeoutMs: 5000 });
    const answered503 = Date.now();
    await pollUntil(() => receiver.attempts >= 2, { what: "the attempt after the 503", timeoutMs: 5000 });
    // The schedule alone would try again within 50 ms: the answer's `Retry-After: 1` holds it a second.
    expect(Date.now() - answered503).toBeGreaterThanOrEqual(500);
    expect(s.queued).toBe(2);
    receiver.answering = 200;
    await pollUntil(() => receiver.received.length === 2, { what: "both delivered", timeoutMs: 5000 });
    await new Promise((r) => setTimeout(r, 200));
    expect(receiver.received.map((r) => (JSON.parse(r.body) as Finding).findingId)).toEqual(["id-1", "id-2"]);
    expect(said).toHaveLength(2);
    expect(said[0]).toMatch(/^webhook 1 \(http:\/\/127\.0\.0\.1:\d+\) is failing \(no answer \(ECONNREFUSED\)\)/);
    expect(said[1]).toMatch(/delivers again after \d+ s: 2 finding\(s\) waited in its queue, 0 dropped/);
    expect(said.join("\n")).not.toMatch(/QUERY-TOKEN|hooks\/wws|s3cret/);
    await s.close(100);
  });

  it("should drop what the webhook refuses (4xx) or what waited past its bound, and say so", async () => {
    await receiver.refuse();
    const s = sink({ schedule: { ...FAST, retryForMs: 300 } });
    s.send(finding(1));
    s.send(finding(2));
    await pollUntil(() => counted.dropped.length === 2, { what: "both dropped", timeoutMs: 5000 });
    expect(counted.dropped).toEqual(["expired", "expired"]);
    // The first drop of an outage is said; the second is counted in the line that ends it.
    expect(said.filter((l) => /dropped finding/.test(l))).toEqual([
      expect.stringMatching(/dropped finding id-1: not delivered within 0 s/),
    ]);
    await receiver.accept();
    s.send(finding(3));
    await pollUntil(() => receiver.received.length === 1, { what: "the next delivered", timeoutMs: 5000 });
    expect(said.at(-1)).toMatch(/delivers again .* 2 dropped/);
    // Refused for what it is: dropped at once, not retried.
    receiver.answering = 400;
    const before = receiver.attempts;
    s.send(finding(4));
    await pollUntil(() => counted.dropped.length === 3, { what: "the refusal", timeoutMs: 5000 });
    expect(counted.dropped[2]).toBe("refused");
    expect(receiver.attempts - before).toBe(1);
    expect(said).toContainEqual(expect.stringMatching(/dropped finding id-4: it refused it \(HTTP 400\)/));
    await s.close(100);
  });

  it("should drop the oldest waiting finding when its queue is full, and say what it could not deliver at exit", async () => {
    await receiver.refuse();
    const s = sink({ maxQueued: 2 });
    for (const n of [1, 2, 3]) s.send(finding(n));
    expect(counted.dropped).toEqual(["queue-full"]);
    expect(s.queued).toBe(2);
    await s.close(50);
    expect(said.at(-1)).toMatch(/webhook 1 .*: 2 finding\(s\) not delivered at exit \(failing: no answer/);
  });

  it("should go through HTTP_PROXY as the service's requests do, in a tunnel that shows the proxy the host only", async () => {
    const proxy = await startForwardProxy("hooks.proxy.test");
    const viaProxy = webhookDispatcher({ HTTP_PROXY: proxy.url });
    try {
      const port = new URL(receiver.url).port;
      const s = sink({
        dispatcher: viaProxy,
        target: webhookTarget(`http://hooks.proxy.test:${port}/hooks/wws?token=T0KEN`, 1),
      });
      s.send(finding(1));
      await pollUntil(() => receiver.received.length === 1, {
        what: "the delivery through the proxy",
        timeoutMs: 5000,
      });
      expect(proxy.seen).toEqual([`CONNECT hooks.proxy.test:${port}`]);
      await s.close(100);
    } finally {
      proxy.stop();
      await viaProxy.close();
    }
  });
});
