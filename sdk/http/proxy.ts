import { isBeforeSend } from "../retry/rules";
import { ProxyError, type ProxyInUse } from "./proxy-error";
import { envProxies, type ResolvedNetwork } from "./network";

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
