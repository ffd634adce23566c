import { STATUS_CODES } from "node:http";
import { ConnectionError } from "../errors";
import { isBeforeSend } from "../retry-rules";
import { envProxies, type ResolvedNetwork } from "./network";

/** The proxy a request goes through, for messages: its URL without credentials, and who named it. */
export interface ProxyInUse {
  /** `http://proxy.example.com:3128` */
  url: string;
  /** `HTTPS_PROXY`, `the proxy option`, or what the caller said (`NetworkOptions.proxySetting`). */
  setting: string;
}

/** Whether NO_PROXY (or no_proxy) exempts `url`, read the way undici's EnvHttpProxyAgent reads it. */
function exempt(url: URL): boolean {
  const list = process.env.no_proxy ?? process.env.NO_PROXY ?? "";
  const port = url.port || (url.protocol === "https:" ? "443" : "80");
  return list
    .split(/[,\s]/)
    .filter(Boolean)
    .some((entry) => {
      if (entry === "*") return true;
      const [host, entryPort] = entry.replace(/^\*?\./, "").split(":");
      if (entryPort !== undefined && entryPort !== port) return false;
      return url.hostname === host || url.hostname.endsWith(`.${host}`);
    });
}

function withoutCredentials(proxy: string): string {
  const url = new URL(proxy);
  return `${url.protocol}//${url.host}`;
}

/** The proxy requests to `origin` go through with `network`, or undefined for none (or a caller's dispatcher). */
export function proxyFor(origin: string, network: ResolvedNetwork): ProxyInUse | undefined {
  if (network.dispatcher) return undefined;
  if (network.proxy !== undefined)
    return { url: withoutCredentials(network.proxy), setting: network.proxySetting ?? "the proxy option" };
  const url = new URL(origin);
  if (exempt(url)) return undefined;
  const [https, HTTPS, http, HTTP] = envProxies();
  // An https origin falls back on the http proxy, as undici does.
  const named: Array<[string, string]> =
    url.protocol === "https:"
      ? [
          ["https_proxy", https],
          ["HTTPS_PROXY", HTTPS],
          ["http_proxy", http],
          ["HTTP_PROXY", HTTP],
        ]
      : [
          ["http_proxy", http],
          ["HTTP_PROXY", HTTP],
        ];
  const found = named.find(([, value]) => value !== "");
  return found && { url: withoutCredentials(found[1]), setting: found[0] };
}

/**
 * The proxy failed, so the request never reached the service: it refused the connection, closed it
 * before the tunnel (`CONNECT`) was open, or answered the tunnel with a status other than 200.
 * `status` is that answer, when there was one.
 */
export class ProxyError extends ConnectionError {
  override readonly code = "proxy_failed";
  constructor(
    operation: string,
    readonly proxy: ProxyInUse,
    readonly status: number | undefined,
    cause: unknown,
    /** False when the connection to the proxy itself failed (refused, no route). */
    readonly reachedProxy = true,
  ) {
    super(operation, true, cause);
    const inner = (cause as { cause?: unknown } | null)?.cause ?? cause;
    const why = inner instanceof Error ? inner.message : String(inner);
    const at = `the proxy ${proxy.url} (from ${proxy.setting})`;
    this.message = `${operation} failed: ${at} ${ProxyError.what(status, why, reachedProxy)}. ${ProxyError.fix(status)}`;
  }

  private static what(status: number | undefined, why: string, reached: boolean): string {
    if (!reached) return `could not be reached (${why})`;
    if (status !== undefined)
      return `answered ${status} ${STATUS_CODES[status] ?? ""} to the tunnel (CONNECT) to the service`.replace(
        "  ",
        " ",
      );
    return `failed before the tunnel (CONNECT) to the service was open (${why})`;
  }

  private static fix(status: number | undefined): string {
    if (status === 407)
      return "The proxy wants credentials: give them in the proxy URL (http://user:password@proxy:port).";
    if (status !== undefined && status < 500)
      return "The proxy refuses the service's host: have it allowed, or list the host in NO_PROXY if it is reachable directly.";
    return "Check the proxy setting and that the proxy runs and can reach the service, or list the service's host in NO_PROXY if it is reachable directly.";
  }
}

/** What the proxy did, when `err` (a failed request's) is the proxy's failure; undefined otherwise. */
export function proxyErrorOf(operation: string, err: unknown, proxy: ProxyInUse | undefined): ProxyError | undefined {
  if (proxy === undefined) return undefined;
  const { code, message, port } = (err ?? {}) as { code?: unknown; message?: unknown; port?: unknown };
  // undici ≥ 8.13: a proxy that closes or resets the connection while the tunnel opens.
  if (code === "UND_ERR_PRX_CONN") return new ProxyError(operation, proxy, undefined, err);
  const answered = typeof message === "string" ? /Proxy response \((\d{3})\)/.exec(message) : null;
  if (answered) return new ProxyError(operation, proxy, Number(answered[1]), err);
  const proxyPort = new URL(proxy.url).port || (proxy.url.startsWith("https:") ? "443" : "80");
  if (isBeforeSend(err) && String(port) === proxyPort) return new ProxyError(operation, proxy, undefined, err, false);
  return undefined;
}
