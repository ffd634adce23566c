/**
 * `pulumi-wws watch --webhook … --listen …` as a user runs it, through the real `pulumi` CLI against
 * the local service over HTTP, in one stack run: a change outside Pulumi reaches a receiver as one
 * signed POST; a second webhook down for 30 s (refusing, then 503) gets it once it is back, once;
 * `/metrics` parses as Prometheus text and counts it; `/healthz` answers 200, then 503 once the
 * service is stopped.
 */
import type { Finding } from "../../watch";
import { SIGNATURE_HEADER, FINDING_ID_HEADER, verifySignature } from "../../watch";
import { ensureBuilt } from "../support/build";
import { sleep } from "../reliability/cli-helpers";
import { pollUntil } from "../support/poll";
import { parsePrometheusText, sampleValue } from "../support/prometheus-text";
import { WebhookReceiver, type Received } from "../../bench/webhook-receiver";
import { startWatchProcess, type WatchProcess } from "../support/watch-process";
import { changeLive, watchService, type WatchService } from "../support/watch-stack";

jest.setTimeout(4 * 60_000);
const SECRET = `webhook-secret-${Date.now()}`;
/** How long the second webhook is down after the finding, as the issue asks. */
const OUTAGE_MS = 30_000;

const until = <T>(
  what: string,
  check: () => T | undefined | false | Promise<T | undefined | false>,
  timeoutMs = 30_000,
) => pollUntil(check, { what, timeoutMs, intervalMs: 50 });

async function get(url: string): Promise<{ status: number; text: string }> {
  const res = await fetch(url);
  return { status: res.status, text: await res.text() };
}

const idOf = (r: Received): string => (JSON.parse(r.body) as Finding).findingId ?? "";

describe("pulumi-wws watch --webhook --listen", () => {
  let on: WatchService | undefined;
  let resumeService: () => void = () => undefined;
  let stopped: Promise<void> | undefined;
  const receivers: WebhookReceiver[] = [];
  let watch: WatchProcess | undefined;

  afterAll(async () => {
    if (watch?.proc.exitCode === null) watch.proc.kill("SIGKILL");
    await Promise.all(receivers.map((r) => r.close()));
    resumeService();
    await stopped;
    await on?.close();
  });

  it("delivers each finding once, signed, to every webhook (one down for 30 s), counts it in /metrics, and says its health", async () => {
    ensureBuilt();
    on = await watchService("deliver");
    const { service, ws, ops } = on;
    const s = await on.stack(
      "wws-deliver",
      `const wws = require("pulumi-wws");\nnew wws.Pod("web", { image: "nginx:1.27", memory: "512Mi" });\nnew wws.Pod("api", { image: "nginx:1.27" });\n`,
    );

    const good = await new WebhookReceiver().start();
    const down = await new WebhookReceiver().start();
    receivers.push(good, down);
    await down.refuse();
    watch = startWatchProcess(s.stack, ["--webhook", good.url, "--webhook", down.url, "--listen", "127.0.0.1:0"], {
      env: { WWS_WEBHOOK_SECRET: SECRET },
    });
    const w = watch;
    const served = await until("the metrics address", () =>
      w.status.map((l) => /serving \/metrics and \/healthz at (http:\/\/127\.0\.0\.1:\d+)/.exec(l)?.[1]).find(Boolean),
    );
    await until("the watch to start", () => w.status.some((l) => /watching 2 workloads/.test(l)));
    expect(await get(`${served}/healthz`)).toEqual({ status: 200, text: expect.stringMatching(/^ok: 1 workspace/) });

    // A change outside Pulumi: one signed POST of the finding `--json` prints, within seconds.
    const changed = Date.now();
    await changeLive(ops, "web", { memory: "1Gi" });
    const [delivered] = await until("the POST", () => (good.received.length > 0 ? good.received : false));
    const latencyMs = delivered.at - changed;
    console.log(`webhook: the finding received ${latencyMs} ms after the change`);
    expect(latencyMs).toBeLessThan(10_000);
    const finding = JSON.parse(delivered.body) as Finding;
    expect(w.findings).toEqual([finding]);
    expect(finding).toMatchObject({ kind: "drift", resource: 'Pod "web"', actor: "ops-laptop", stack: "local" });
    expect(finding.findingId).toMatch(/^[0-9a-f]{32}$/);
    expect(delivered.headers[FINDING_ID_HEADER.toLowerCase()]).toBe(finding.findingId);
    expect(verifySignature(SECRET, delivered.body, delivered.headers[SIGNATURE_HEADER.toLowerCase()] as string)).toBe(
      true,
    );
    expect(
      verifySignature("another secret", delivered.body, delivered.headers[SIGNATURE_HEADER.toLowerCase()] as string),
    ).toBe(false);

    // The second webhook refuses connections, then answers 503, for 30 s after the finding.
    await until("attempts at the refusing webhook", () => w.status.some((l) => /webhook 2 .* is failing/.test(l)));
    await down.accept();
    down.answering = 503;
    await until("a 503", () => down.attempts > 0);

    // /metrics meanwhile: Prometheus text, the finding counted, the webhooks' deliveries and failures.
    const metricsText = (await get(`${served}/metrics`)).text;
    const metrics = parsePrometheusText(metricsText);
    expect(sampleValue(metrics, "wws_watch_findings_total", { stack: "local", kind: "drift", type: "Pod" })).toBe(1);
    expect(sampleValue(metrics, "wws_watch_stream_up", { workspace: ws.name })).toBe(1);
    expect(sampleValue(metrics, "wws_watch_last_event_age_seconds", { workspace: ws.name })).toBeGreaterThanOrEqual(0);
    // Each workload compared at least once (the change's comparison may be the one at the stream's opening).
    const compared = sampleValue(metrics, "wws_watch_comparisons_total", { outcome: "ok" });
    expect(compared).toBeGreaterThanOrEqual(2);
    expect(sampleValue(metrics, "wws_watch_comparison_duration_seconds_count")).toBeGreaterThanOrEqual(
      compared ?? Infinity,
    );
    expect(
      sampleValue(metrics, "wws_watch_webhook_deliveries_total", {
        webhook: "1",
        host: "127.0.0.1:" + new URL(good.url).port,
      }),
    ).toBe(1);
    expect(sampleValue(metrics, "wws_watch_webhook_failures_total", { webhook: "2" })).toBeGreaterThanOrEqual(2);
    expect(sampleValue(metrics, "wws_watch_webhook_queued", { webhook: "2" })).toBe(1);

    console.log(
      `/metrics as scraped (the watch's own):\n${metricsText
        .split("\n")
        .filter((l) => /^wws_watch_(?!comparison_duration_seconds_bucket)/.test(l))
        .join("\n")}`,
    );

    // --webhook-format slack, in a watch that exits at the first finding (the standing drift): posted before it exits.
    const chat = await new WebhookReceiver().start();
    receivers.push(chat);
    const once = startWatchProcess(s.stack, ["--exit-on-drift", "--webhook-format", "slack", "--webhook", chat.url]);
    expect(await once.exited).toBe(3);
    expect(chat.received).toHaveLength(1);
    const { text } = JSON.parse(chat.received[0].body) as { text: string };
    console.log(`a Slack-format message as posted:\n${chat.received[0].body}`);
    expect(text.split("\n").slice(0, 2)).toEqual([
      `*Drift* in stack \`local\`: Pod "web" (${ws.name}/web)`,
      "• memory: 512Mi → 1Gi",
    ]);
    expect(chat.received[0].headers[SIGNATURE_HEADER.toLowerCase()]).toBeUndefined();

    // The service stops: /healthz says which workspace is not seen once its stream is past its bound (10 s).
    stopped = service.restart(new Promise<void>((resume) => (resumeService = resume)));
    const unhealthy = await until("/healthz 503", async () => {
      const h = await get(`${served}/healthz`);
      return h.status === 503 && h;
    });
    expect(unhealthy.text).toMatch(
      new RegExp(`^not watching workspace ${ws.name}: its event stream has not been open`),
    );
    const down503 = parsePrometheusText((await get(`${served}/metrics`)).text);
    expect(sampleValue(down503, "wws_watch_stream_up", { workspace: ws.name })).toBe(0);
    expect(sampleValue(down503, "wws_watch_findings_total", { kind: "blind", type: "workspace" })).toBe(1);

    // 30 s after the finding the second webhook is back: it gets each finding, once.
    await sleep(Math.max(0, delivered.at + OUTAGE_MS - Date.now()));
    down.answering = 200;
    await until("both findings at the webhook that was down", () => down.received.length >= 2, 15_000);
    await sleep(1500);
    expect(down.received.map(idOf)).toEqual(w.findings.map((f) => f.findingId));
    expect(good.received.map(idOf)).toEqual(w.findings.map((f) => f.findingId));
    for (const r of down.received)
      expect(verifySignature(SECRET, r.body, r.headers[SIGNATURE_HEADER.toLowerCase()] as string)).toBe(true);
    expect(w.status.filter((l) => /webhook 2 .* is failing/.test(l))).toHaveLength(1);
    expect(
      w.status.filter((l) => /webhook 2 .* delivers again after \d+ s: 2 finding\(s\) waited/.test(l)),
    ).toHaveLength(1);

    w.proc.kill("SIGTERM");
    expect(await w.exited).toBe(0);
    expect(w.notJson).toEqual([]);
    // Neither the secret nor the webhook URL's path or query token in anything it said or served.
    const said = JSON.stringify([w.status, w.findings, metrics, down503]);
    for (const hidden of [SECRET, "QUERY-TOKEN", "/hooks/wws", on.keys.stack, on.keys.ops])
      expect(said).not.toContain(hidden);
  });
});
