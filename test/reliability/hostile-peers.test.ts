/**
 * Hostile peers, through the real `pulumi` CLI (see test/support/hostile-matrix.ts): a service and a
 * forward proxy that refuse, accept and close, stall, drip, redirect, rate limit for ever, fail for
 * ever, answer malformed or 50 MB bodies, or break the event stream. For each, directly and through
 * a proxy, `pulumi preview` must end within its budget with a bounded number of connections and
 * requests and say truly what happened, and `pulumi up` must end within 5 s of one SIGTERM (where
 * the event stream alone is broken, `up` must succeed instead). The table is printed.
 *
 * HOSTILE_MATRIX_PACKAGE=<another checkout, built> runs the same matrix on that build (the "before"
 * of a change); HOSTILE_MATRIX_ONLY=<regex> runs the cases whose "peer mode path" matches.
 */
import { pulumiBinDir } from "../e2e/harness";
import { ROOT } from "../support/build";
import {
  hostileMatrix,
  PROXY_MODES,
  SERVICE_MODES,
  TABLE_HEAD,
  tableRow,
  type MatrixCase,
  type RunFigures,
} from "../support/hostile-matrix";
import { KEYS, start } from "./helpers";
import type { RunningService } from "../../server";

jest.setTimeout(15 * 60 * 1000);

/** What a failing preview must say, by `peer mode path` (`path` left out where both say the same). */
const SAYS: Record<string, RegExp> = {
  "service refuse direct": /cannot reach the service at http:\/\/127\.0\.0\.2:\d+ .*ECONNREFUSED.*Nothing was sent/,
  "service refuse proxy": /the proxy http:\/\/127\.0\.0\.1:\d+ \(from HTTP_PROXY\) answered 502 Bad Gateway/,
  "service accept-close": /cannot reach the service .*(other side closed|socket hang up|ECONNRESET).*Reads were sent/,
  "service accept-stall": /cannot reach the service .*timed out after .*Reads were sent/,
  "service drip": /cannot reach the service .*timed out after .*Reads were sent/,
  "service redirect-302":
    /answered the connection check .* with HTTP 302, a redirect to http:\/\/127\.0\.0\.1:9\/elsewhere/,
  "service redirect-307":
    /answered the connection check .* with HTTP 307, a redirect to http:\/\/127\.0\.0\.1:9\/elsewhere/,
  "service 429-huge-retry-after":
    /is rate limiting \(HTTP 429\) and asks to wait an hour or more \(Retry-After\), longer than the 20 s/,
  "service 500-forever": /failed the connection check .* with HTTP 500 for \d+(\.\d)? s/,
  "service malformed-json": /answered, but not as the Workspace Workload Service does/,
  "service 50mb-body":
    /is 52,428,800 bytes \(50 MiB\), over the answer-size cap of 33,554,432 bytes \(32 MiB\).*wws:maxResponseBytes/,
  "proxy refuse": /the proxy http:\/\/127\.0\.0\.1:\d+ \(from HTTP_PROXY\) could not be reached/,
  "proxy accept-close": /the proxy http:\/\/127\.0\.0\.1:\d+ \(from HTTP_PROXY\) failed before the tunnel \(CONNECT\)/,
  "proxy accept-stall": /through the proxy http:\/\/127\.0\.0\.1:\d+ \(from HTTP_PROXY\): .*timed out/,
  "proxy drip": /through the proxy http:\/\/127\.0\.0\.1:\d+ \(from HTTP_PROXY\): .*timed out/,
  "proxy 407": /the proxy http:\/\/127\.0\.0\.1:\d+ \(from HTTP_PROXY\) answered 407 Proxy Authentication Required/,
  "proxy 403": /the proxy http:\/\/127\.0\.0\.1:\d+ \(from HTTP_PROXY\) answered 403 Forbidden/,
  "proxy 502": /the proxy http:\/\/127\.0\.0\.1:\d+ \(from HTTP_PROXY\) answered 502 Bad Gateway/,
};

/** Budgets: the preview's connection check is 20 s; a CLI run takes up to 15 s more to start and end on a loaded 2-core machine. */
const PREVIEW_BUDGET_MS = 50 * 1000;
const UP_BUDGET_MS = 60 * 1000;
const AFTER_SIGTERM_MS = 5 * 1000;
/** "Tens of connections, not tens of thousands". */
const MAX_CONNECTIONS = 60;
const MAX_REQUESTS = 60;
const PARALLEL = 5;

const name = (c: MatrixCase): string => `${c.peer} ${c.mode} ${c.path}`;
const streamOnly = (c: MatrixCase): boolean => c.peer === "service" && c.mode.startsWith("stream-");

function cases(): MatrixCase[] {
  const all: MatrixCase[] = [
    ...SERVICE_MODES.flatMap((mode) =>
      (["direct", "proxy"] as const).map((path) => ({ peer: "service" as const, mode, path })),
    ),
    ...PROXY_MODES.map((mode) => ({ peer: "proxy" as const, mode, path: "proxy" as const })),
  ];
  const only = process.env.HOSTILE_MATRIX_ONLY;
  return only ? all.filter((c) => new RegExp(only).test(name(c))) : all;
}

/** What is wrong with one run, by the rules above; empty when nothing is. */
function problems(c: MatrixCase, r: RunFigures): string[] {
  const out: string[] = [];
  const says = SAYS[name(c)] ?? SAYS[`${c.peer} ${c.mode}`];
  if (r.connections > MAX_CONNECTIONS) out.push(`${r.connections} connections`);
  if (r.requests > MAX_REQUESTS) out.push(`${r.requests} requests`);
  if (streamOnly(c)) {
    if (r.exitCode !== 0) out.push(`${r.command} failed where only the event stream is broken: ${r.said}`);
    if (r.wallMs > (r.command === "up" ? UP_BUDGET_MS : PREVIEW_BUDGET_MS)) out.push(`took ${r.wallMs} ms`);
    return out;
  }
  if (r.command === "preview") {
    if (r.exitCode === 0) out.push("preview passed");
    if (r.wallMs > PREVIEW_BUDGET_MS) out.push(`preview took ${r.wallMs} ms`);
    if (!says.test(r.output.replace(/\s+/g, " "))) out.push(`preview did not say ${says}: ${r.said}`);
  } else {
    if (r.afterSigtermMs === undefined && r.wallMs > UP_BUDGET_MS) out.push(`up took ${r.wallMs} ms`);
    // A SIGTERM that lands while the check runs must end it within 5 s. One that a peer which sees
    // nothing (refuse) cannot time may land earlier, while the CLI starts: the CLI's own, looser bound.
    const bound = r.sigtermDuringCheck || c.mode !== "refuse" ? AFTER_SIGTERM_MS : 3 * AFTER_SIGTERM_MS;
    if (r.afterSigtermMs !== undefined && r.afterSigtermMs > bound)
      out.push(`up ended ${r.afterSigtermMs} ms after SIGTERM`);
    if (r.afterSigtermMs !== undefined && !r.sigtermDuringCheck && c.mode !== "refuse")
      out.push("the SIGTERM was sent before the peers saw the check begin");
    if (r.exitCode === 0) out.push("up passed");
  }
  return out;
}

describe("hostile peers", () => {
  let svc: RunningService;
  beforeAll(async () => {
    svc = await start();
  });
  afterAll(() => svc.close());

  it("should end every preview and up within its budget, bounded, stoppable, and naming the cause truly", async () => {
    const matrix = hostileMatrix({
      packageRoot: process.env.HOSTILE_MATRIX_PACKAGE ?? ROOT,
      pulumiBinDir: pulumiBinDir(),
      serviceUrl: svc.url,
      workspace: "alpha",
      apiKey: KEYS.alpha,
    });
    const runs: Array<{ c: MatrixCase; r: RunFigures }> = [];
    // Each case: a preview to its end, then an up (SIGTERM once the check has begun, unless only the stream is broken).
    const jobs = cases().flatMap((c) => [
      () => matrix.run(c, "preview", false).then((r) => void runs.push({ c, r })),
      () => matrix.run(c, "up", !streamOnly(c)).then((r) => void runs.push({ c, r })),
    ]);
    try {
      await Promise.all(
        Array.from({ length: PARALLEL }, async () => {
          for (let job = jobs.shift(); job; job = jobs.shift()) await job();
        }),
      );
    } finally {
      matrix.cleanup();
    }
    runs.sort((a, b) => name(a.c).localeCompare(name(b.c)) || a.r.command.localeCompare(b.r.command));
    console.log([...TABLE_HEAD, ...runs.map(({ c, r }) => tableRow(c, r))].join("\n"));
    const found = runs.flatMap(({ c, r }) => problems(c, r).map((p) => `${name(c)} ${r.command}: ${p}`));
    expect(found).toEqual([]);
  });
});
