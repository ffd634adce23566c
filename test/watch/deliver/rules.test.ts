/** The webhooks' and `--listen`'s pure rules: the retry schedule, the signature, the chat text, health, the address. */
import { nextAttempt, type RetrySchedule } from "../../../watch/deliver/retry-schedule";
import { signatureOf, verifySignature } from "../../../watch/deliver/webhook-signature";
import { slackMessageOf } from "../../../watch/deliver/slack-format";
import { healthOf } from "../../../watch/deliver/health";
import { parseListenAddress } from "../../../watch/deliver/listen-address";
import { webhookTarget } from "../../../watch/deliver/webhook-target";
import { findingIdOf } from "../../../watch/finding-id";
import type { Finding } from "../../../watch/finding";
import type { StreamSight } from "../../../watch/streams";
import { parsePrometheusText } from "../../support/prometheus-text";
import { readFileSync } from "node:fs";
import { join } from "node:path";

const SCHEDULE: RetrySchedule = { initialMs: 1000, maxDelayMs: 30_000, retryForMs: 600_000 };
const lowest = () => 0;
const highest = () => 0.999999;

describe("nextAttempt (the webhook's retry schedule)", () => {
  it.each([
    ["no answer, first failure: 1 s", {}, 1, 0, lowest, { retry: true, delayMs: 1000 }],
    ["no answer, first failure, late jitter: at most 1.5 s", {}, 1, 0, highest, { retry: true, delayMs: 1499 }],
    ["503, third failure: 4 s", { status: 503 }, 3, 10_000, lowest, { retry: true, delayMs: 4000 }],
    ["tenth failure: capped at 30 s", {}, 10, 60_000, highest, { retry: true, delayMs: 30_000 }],
    [
      "Retry-After taken at its word",
      { status: 429, retryAfterMs: 7000 },
      1,
      0,
      lowest,
      { retry: true, delayMs: 7000 },
    ],
    ["Retry-After on a 503", { status: 503, retryAfterMs: 1000 }, 20, 0, highest, { retry: true, delayMs: 1000 }],
    ["the last attempt at the bound", {}, 8, 590_000, lowest, { retry: true, delayMs: 10_000 }],
    [
      "a Retry-After past the bound: the last attempt at the bound",
      { status: 503, retryAfterMs: 3_600_000 },
      2,
      599_000,
      lowest,
      { retry: true, delayMs: 1000 },
    ],
    ["past the bound: dropped", { status: 502 }, 30, 600_000, lowest, { retry: false, reason: "expired" }],
    ["408 is retried", { status: 408 }, 1, 0, lowest, { retry: true, delayMs: 1000 }],
    ["425 is retried", { status: 425 }, 1, 0, lowest, { retry: true, delayMs: 1000 }],
    ["400: refused, not retried", { status: 400 }, 1, 0, lowest, { retry: false, reason: "refused" }],
    ["404 (a removed hook): refused", { status: 404 }, 1, 0, lowest, { retry: false, reason: "refused" }],
    ["410 (an archived channel): refused", { status: 410 }, 1, 0, lowest, { retry: false, reason: "refused" }],
    ["301: a redirect is not followed", { status: 301 }, 1, 0, lowest, { retry: false, reason: "refused" }],
  ])("%s", (_name, failure, attempt, ageMs, random, expected) => {
    expect(nextAttempt(failure, attempt, ageMs, SCHEDULE, random)).toMatchObject(expected);
  });

  it("should say why it gives up, with the bound or the status", () => {
    expect(nextAttempt({}, 5, 600_000, SCHEDULE)).toMatchObject({ why: "not delivered within 600 s" });
    expect(nextAttempt({ status: 301 }, 1, 0, SCHEDULE)).toMatchObject({ why: expect.stringMatching(/redirect/) });
  });
});

/** The README's receiver-side check (`signedBy`), as written there. */
function readmeSignedBy(): (secret: string, body: string, header: string | undefined) => boolean {
  const readme = readFileSync(join(__dirname, "../../../README.md"), "utf8");
  const block = /```js\n((?:(?!```)[\s\S])*function signedBy(?:(?!```)[\s\S])*)```/.exec(readme)?.[1];
  if (!block) throw new Error("README.md has no signedBy snippet");
  const source = block.replace(/^ {2}/gm, "");
  return new Function("require", `${source}\nreturn signedBy;`)(require) as ReturnType<typeof readmeSignedBy>;
}

describe("the webhook signature", () => {
  // HMAC-SHA256("It's a Secret to Everybody", "Hello, World!"): the example GitHub documents for its own.
  const GITHUB_EXAMPLE = "sha256=757107ea0eb2509fc211221cce984b8a37570b6d7586c22c46f4379c8b043e17";

  it.each([
    ["the documented example", "It's a Secret to Everybody", "Hello, World!", GITHUB_EXAMPLE, true],
    ["another body", "It's a Secret to Everybody", "Hello, World?", GITHUB_EXAMPLE, false],
    ["another secret", "it's a secret to everybody", "Hello, World!", GITHUB_EXAMPLE, false],
    ["no header", "s", "b", undefined, false],
    ["a truncated header", "It's a Secret to Everybody", "Hello, World!", GITHUB_EXAMPLE.slice(0, 20), false],
    ["no sha256= prefix", "It's a Secret to Everybody", "Hello, World!", GITHUB_EXAMPLE.slice(7), false],
  ])("%s", (_name, secret, body, header, ok) => {
    expect(verifySignature(secret, body, header)).toBe(ok);
    expect(readmeSignedBy()(secret, body, header)).toBe(ok);
  });

  it("should sign the raw bytes: the same object serialized otherwise does not verify", () => {
    const header = signatureOf("k", '{"a":1,"b":2}');
    expect(header).toBe(signatureOf("k", Buffer.from('{"a":1,"b":2}')));
    expect(verifySignature("k", '{"b":2,"a":1}', header)).toBe(false);
  });
});

const DRIFT: Finding = {
  kind: "drift",
  stack: "prod",
  urn: "urn:pulumi:prod::infra::pulumi-nodejs:dynamic/wws:Pod::web",
  resource: 'Pod "web"',
  id: "team/web",
  fields: [
    { path: "memory", recorded: "512Mi", live: "1Gi", secret: false },
    { path: "credentials.password", secret: true },
  ],
  actor: "ops-laptop",
  activityId: "4812",
  at: "2026-01-02T10:00:03.000Z",
};

describe("slackMessageOf", () => {
  it.each<[string, Finding, string]>([
    [
      "a drift: stack, resource, fields, actor; a secret by its path only",
      DRIFT,
      '*Drift* in stack `prod`: Pod "web" (team/web)\n• memory: 512Mi → 1Gi\n• credentials.password: changed (secret, not shown)\nby ops-laptop (activity 4812), at 2026-01-02T10:00:03.000Z',
    ],
    [
      "a delete, no actor known",
      { ...DRIFT, kind: "deleted", fields: undefined, actor: undefined, activityId: undefined },
      '*Deleted outside Pulumi* in stack `prod`: Pod "web" (team/web)\nactor unknown (the service did not say), at 2026-01-02T10:00:03.000Z',
    ],
    [
      "a workspace not seen: its reason, no actor",
      {
        kind: "blind",
        stack: "prod",
        urn: "",
        resource: "workspace team",
        id: "team",
        at: "2026-01-02T10:00:03.000Z",
        message: "the key was refused (HTTP 401)",
      },
      "*Blind: the watch does not see a workspace* in stack `prod`: workspace team\nthe key was refused (HTTP 401)\nat 2026-01-02T10:00:03.000Z",
    ],
    [
      "mrkdwn's <, > and & shown as text (no link, no mention)",
      { ...DRIFT, fields: [{ path: "image", recorded: "a", live: "<!channel> & <http://x|y>", secret: false }] },
      '*Drift* in stack `prod`: Pod "web" (team/web)\n• image: a → &lt;!channel&gt; &amp; &lt;http://x|y&gt;\nby ops-laptop (activity 4812), at 2026-01-02T10:00:03.000Z',
    ],
  ])("%s", (_name, finding, text) => {
    expect(slackMessageOf(finding)).toEqual({ text });
  });

  it("should never carry a secret value, even one a finding was given by mistake", () => {
    const leaky = {
      ...DRIFT,
      fields: [{ path: "credentials.password", recorded: "old-Pw-1", live: "new-Pw-2", secret: true }],
    };
    expect(JSON.stringify(slackMessageOf(leaky))).not.toMatch(/old-Pw-1|new-Pw-2/);
  });

  it("should cut a long value", () => {
    const long = { ...DRIFT, fields: [{ path: "config", recorded: "x", live: "y".repeat(1000), secret: false }] };
    expect(slackMessageOf(long).text).toContain(`${"y".repeat(200)}…`);
  });
});

describe("findingIdOf", () => {
  it("should be the same for the same finding, and differ with the row, the value or the stack", () => {
    const id = findingIdOf(DRIFT);
    expect(id).toMatch(/^[0-9a-f]{32}$/);
    expect(findingIdOf({ ...DRIFT })).toBe(id);
    expect(findingIdOf({ ...DRIFT, at: "2026-01-02T11:00:00.000Z" })).toBe(id); // the row names it
    expect(findingIdOf({ ...DRIFT, activityId: "4813" })).not.toBe(id);
    expect(findingIdOf({ ...DRIFT, stack: "dev" })).not.toBe(id);
    const noRow = { ...DRIFT, activityId: undefined };
    expect(findingIdOf({ ...noRow, at: "2026-01-02T11:00:00.000Z" })).not.toBe(findingIdOf(noRow));
  });
});

const sight = (workspace: string, state: StreamSight["state"], blindness?: string): StreamSight => ({
  workspace,
  state,
  blindness,
  lastEventAt: 0,
});

describe("healthOf (/healthz)", () => {
  it.each<[string, boolean, StreamSight[], boolean, RegExp]>([
    ["starting", false, [], false, /^starting/],
    [
      "every stream open",
      true,
      [sight("a", "open"), sight("b", "open")],
      true,
      /^ok: 2 workspace\(s\) watched, 2 stream\(s\) open$/,
    ],
    [
      "one reconnecting within its bound",
      true,
      [sight("a", "open"), sight("b", "down")],
      true,
      /1 reconnecting within their bound/,
    ],
    [
      "one past its bound",
      true,
      [sight("a", "open"), sight("b", "down", "its event stream has not been open for 10 s")],
      false,
      /^not watching workspace b: its event stream has not been open for 10 s$/,
    ],
    [
      "a refused key",
      true,
      [sight("a", "closed", "the key was refused (HTTP 401)")],
      false,
      /workspace a: the key was refused/,
    ],
    ["nothing to watch", true, [], true, /^ok: 0 workspace/],
  ])("%s", (_name, started, streams, ok, text) => {
    const h = healthOf(started, streams);
    expect(h.ok).toBe(ok);
    expect(h.text).toMatch(text);
  });
});

describe("parseListenAddress and webhookTarget (flags)", () => {
  it.each([
    ["127.0.0.1:9464", { host: "127.0.0.1", port: 9464 }],
    ["[::1]:9464", { host: "::1", port: 9464 }],
    ["0.0.0.0:0", { host: "0.0.0.0", port: 0 }],
    ["localhost:9464", { host: "localhost", port: 9464 }],
  ])("%s", (text, at) => expect(parseListenAddress(text)).toEqual(at));

  it.each([":9464", "9464", "127.0.0.1", "127.0.0.1:70000", "::1:9464", "host:port"])(
    "refuses %s, naming the flag",
    (text) => {
      expect(() => parseListenAddress(text)).toThrow(/--listen/);
    },
  );

  it("should name a webhook by its number and origin, never its path, query or credentials", () => {
    const t = webhookTarget("https://user:pw@hooks.slack.com/services/T0/B0/SECRETTOKEN?token=QUERYTOKEN", 2);
    expect(t).toMatchObject({ label: "webhook 2 (https://hooks.slack.com)", number: "2", host: "hooks.slack.com" });
    expect(() => webhookTarget("ftp://x/SECRETTOKEN", 1)).toThrow(/--webhook 1: expected an https/);
    expect(() => webhookTarget("hooks/SECRETTOKEN", 1)).toThrow(/--webhook 1: not a URL/);
    for (const bad of ["ftp://x/SECRETTOKEN", "hooks/SECRETTOKEN"]) {
      const message = (() => {
        try {
          webhookTarget(bad, 1);
          return "accepted";
        } catch (err) {
          return (err as Error).message;
        }
      })();
      expect(message).toMatch(/^--webhook 1: /);
      expect(message).not.toContain("SECRETTOKEN");
    }
  });
});

describe("parsePrometheusText (the tests' strict reader of /metrics)", () => {
  it("should read samples, labels and escapes, and refuse a line that is not the format", () => {
    const text =
      '# HELP a_total A.\n# TYPE a_total counter\na_total{x="1",y="q\\"uote"} 3\n# TYPE h histogram\nh_bucket{le="+Inf"} 2\nh_sum 0.5\nh_count 2\n';
    expect(parsePrometheusText(text)).toEqual([
      { name: "a_total", labels: { x: "1", y: 'q"uote' }, value: 3 },
      { name: "h_bucket", labels: { le: "+Inf" }, value: 2 },
      { name: "h_sum", labels: {}, value: 0.5 },
      { name: "h_count", labels: {}, value: 2 },
    ]);
    expect(() => parsePrometheusText("b 1\n")).toThrow(/no TYPE/);
    expect(() => parsePrometheusText("# TYPE b gauge\nb one\n")).toThrow(/line 2/);
    expect(() => parsePrometheusText("# TYPE b gauge\nb{x=1} 1\n")).toThrow(/line 2/);
  });
});
