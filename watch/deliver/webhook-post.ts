import { Agent, EnvHttpProxyAgent, request, type Dispatcher } from "undici";
import { SDK_VERSION } from "../../sdk";
import { parseRetryAfter } from "../../sdk/internal";
import type { AttemptFailure } from "./retry-schedule";

/** One attempt's answer must come within this, headers and body. */
const ATTEMPT_TIMEOUT_MS = 10 * 1000; // 10 s

const PROXY_VARIABLES = ["https_proxy", "HTTPS_PROXY", "http_proxy", "HTTP_PROXY"];

/**
 * The dispatcher of every webhook POST: through `HTTPS_PROXY`/`HTTP_PROXY` (`NO_PROXY` honoured,
 * as undici's `EnvHttpProxyAgent` reads them, like the service's requests) when one is set; the
 * CAs are Node's (`NODE_EXTRA_CA_CERTS` included).
 */
export function webhookDispatcher(env: NodeJS.ProcessEnv = process.env): Dispatcher {
  const timeouts = { headersTimeout: ATTEMPT_TIMEOUT_MS, bodyTimeout: ATTEMPT_TIMEOUT_MS };
  if (PROXY_VARIABLES.every((k) => !env[k])) return new Agent(timeouts);
  return new EnvHttpProxyAgent({
    ...timeouts,
    // A tunnel for http:// webhooks too, as the service's requests: the proxy sees the host, never the path (a token).
    proxyTunnel: true,
    httpProxy: env.http_proxy || env.HTTP_PROXY || undefined,
    httpsProxy: env.https_proxy || env.HTTPS_PROXY || env.http_proxy || env.HTTP_PROXY || undefined,
    noProxy: env.no_proxy ?? env.NO_PROXY,
  });
}

export type PostOutcome = { ok: true } | ({ ok: false; why: string } & AttemptFailure);

/** One POST of `body`: delivered (2xx), or what failed, in words that never hold the URL. */
export async function postOnce(
  dispatcher: Dispatcher,
  url: string,
  body: string,
  headers: Record<string, string>,
): Promise<PostOutcome> {
  try {
    const res = await request(url, {
      method: "POST",
      body,
      headers: { "content-type": "application/json", "user-agent": `pulumi-wws/${SDK_VERSION}`, ...headers },
      dispatcher,
      signal: AbortSignal.timeout(ATTEMPT_TIMEOUT_MS),
    });
    // The answer's body is not read, only let go: the connection is kept for the next finding.
    await res.body.dump().catch(() => undefined);
    if (res.statusCode >= 200 && res.statusCode < 300) return { ok: true };
    const retryAfter = res.headers["retry-after"];
    // Read as the service's `Retry-After` is (sdk/retry/retry-after.ts); the schedule bounds it.
    const after = typeof retryAfter === "string" ? parseRetryAfter(retryAfter, Date.now()) : undefined;
    return { ok: false, status: res.statusCode, retryAfterMs: after, why: `HTTP ${res.statusCode}` };
  } catch (err) {
    // undici's errors name the host and port at most (`connect ECONNREFUSED 127.0.0.1:8080`), never the path or query.
    const e = err as { code?: unknown; cause?: { code?: unknown }; name?: unknown };
    if (e.name === "TimeoutError") return { ok: false, why: `no answer within ${ATTEMPT_TIMEOUT_MS / 1000} s` };
    const code = [e.cause?.code, e.code, e.name].find((c) => typeof c === "string") ?? "error";
    return { ok: false, why: `no answer (${String(code)})` };
  }
}
