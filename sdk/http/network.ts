import { createHash } from "node:crypto";
import * as fs from "node:fs";
import { isIP } from "node:net";
import * as tls from "node:tls";
import type { Dispatcher } from "undici";
import { InvalidOptionError } from "../errors";

/**
 * How requests and streams reach the service: a proxy, CA certificates to trust, plain HTTP
 * beyond loopback, or a dispatcher of the caller's. Options of `new WorkspaceClient(…)`.
 */
export interface NetworkOptions {
  /**
   * The proxy to the service, `http://host:port` (or `https://…`); credentials in it are sent to
   * the proxy only. Used for the service whatever `HTTPS_PROXY`, `HTTP_PROXY` and `NO_PROXY` say.
   * @default the environment's: `HTTPS_PROXY` for an https base URL, `HTTP_PROXY` for http (upper
   * or lower case), unless `NO_PROXY` lists the host
   */
  proxy?: string;
  /** Where `proxy` was set, for messages (`the stack config wws:proxy`). @default "the proxy option" */
  proxySetting?: string;
  /**
   * CA certificates (PEM text, one or more `-----BEGIN CERTIFICATE-----` blocks) trusted for the
   * service besides Node's own (and `NODE_EXTRA_CA_CERTS`): a private CA.
   */
  caCerts?: string;
  /**
   * Allows an `http://` base URL to a host other than loopback, whose requests carry the API key in
   * clear: only on a network you trust. @default false
   */
  allowInsecureHttp?: boolean;
  /**
   * undici dispatcher every request and stream of this client goes through (an `Agent`, a
   * `ProxyAgent`, …); `proxy` and `caCerts` are then the dispatcher's business. The client never
   * closes it. @default a keep-alive pool per origin, shared in the process
   */
  dispatcher?: Dispatcher;
}

/** The network options, checked: what the connection pools are made from. */
export interface ResolvedNetwork {
  readonly proxy?: string;
  readonly proxySetting?: string;
  /** Every CA to trust (Node's defaults and `caCerts`), when `caCerts` adds any. */
  readonly ca?: readonly string[];
  readonly dispatcher?: Dispatcher;
  /** Tells pools of different network settings apart ("" for none); never holds proxy credentials. */
  readonly id: string;
}

const PEM_CERT = /-----BEGIN CERTIFICATE-----[\s\S]+?-----END CERTIFICATE-----/g;

/** The PEM certificates `text` holds, each `-----BEGIN CERTIFICATE-----` block; none for anything else. */
export function pemCertificates(text: string): string[] {
  return text.match(PEM_CERT) ?? [];
}

/** The environment variables of a proxy, as other Node tools read them. */
const ENV_PROXY_VARIABLES = ["https_proxy", "HTTPS_PROXY", "http_proxy", "HTTP_PROXY"];

/** The environment's proxy variables, in `ENV_PROXY_VARIABLES` order ("" for each unset). */
export function envProxies(): string[] {
  return ENV_PROXY_VARIABLES.map((k) => process.env[k] ?? "");
}

/** Whether `hostname` (as `URL.hostname` gives it) is this machine: 127.0.0.0/8, ::1 or localhost. */
function isLoopbackHost(hostname: string): boolean {
  const host = hostname.replace(/^\[|\]$/g, "").toLowerCase();
  if (host === "localhost" || host.endsWith(".localhost")) return true;
  if (isIP(host) === 4) return host.startsWith("127.");
  return host === "::1" || host === "0:0:0:0:0:0:0:1";
}

/** Whether `url` (an absolute URL) names this machine: 127.0.0.0/8, ::1 or localhost. */
export function isLoopbackUrl(url: string): boolean {
  try {
    return isLoopbackHost(new URL(url).hostname);
  } catch {
    return false;
  }
}

/** Node's CA certificates, `NODE_EXTRA_CA_CERTS` included: an explicit `ca` replaces them otherwise. */
function defaultCaCertificates(): string[] {
  const get = (tls as { getCACertificates?: (type: string) => string[] }).getCACertificates;
  if (get) return get("default");
  const extraFile = process.env.NODE_EXTRA_CA_CERTS;
  let extra: string[] = [];
  try {
    if (extraFile) extra = pemCertificates(fs.readFileSync(extraFile, "utf8"));
  } catch {
    // Node itself warns about an unreadable NODE_EXTRA_CA_CERTS at start.
  }
  return [...tls.rootCertificates, ...extra];
}

const dispatcherIds = new WeakMap<Dispatcher, number>();
let nextDispatcherId = 1;

/**
 * Checks the network options against the base URL; throws an `InvalidOptionError` naming the
 * option and the fix. An `http://` base URL beyond loopback is refused unless `allowInsecureHttp`.
 */
export function resolveNetwork(baseUrl: string, options: NetworkOptions = {}): ResolvedNetwork {
  if (options.allowInsecureHttp !== undefined && typeof options.allowInsecureHttp !== "boolean")
    throw new InvalidOptionError("allowInsecureHttp", "must be true or false");
  const plainHttp = plainHttpProblem(baseUrl, options.allowInsecureHttp === true);
  if (plainHttp) throw new InvalidOptionError("baseUrl", plainHttp);
  if (options.dispatcher !== undefined) {
    const d = options.dispatcher;
    if (typeof d !== "object" || d === null || typeof (d as { request?: unknown }).request !== "function")
      throw new InvalidOptionError("dispatcher", "must be an undici Dispatcher (an Agent, a Pool, a ProxyAgent, …)");
    let id = dispatcherIds.get(d);
    if (id === undefined) dispatcherIds.set(d, (id = nextDispatcherId++));
    return Object.freeze({ dispatcher: d, id: `dispatcher ${id}` });
  }
  const proxy = options.proxy === undefined || options.proxy === "" ? undefined : options.proxy;
  if (proxy !== undefined) {
    const problem = proxyProblem(proxy);
    if (problem) throw new InvalidOptionError("proxy", problem);
  }
  let ca: string[] | undefined;
  if (options.caCerts !== undefined && options.caCerts !== "") {
    const certs = typeof options.caCerts === "string" ? pemCertificates(options.caCerts) : [];
    if (certs.length === 0) throw new InvalidOptionError("caCerts", CA_CERTS_RULE);
    ca = [...defaultCaCertificates(), ...certs];
  }
  const fromEnv = envProxies();
  const plain = proxy === undefined && ca === undefined && fromEnv.every((p) => p === "");
  const id = plain
    ? ""
    : createHash("sha256")
        .update(JSON.stringify([proxy ?? "", fromEnv, ca ?? []]))
        .digest("hex")
        .slice(0, 16);
  const proxySetting = proxy === undefined ? undefined : options.proxySetting;
  return Object.freeze({ proxy, proxySetting, ca: ca && Object.freeze(ca), id });
}

export const CA_CERTS_RULE =
  "must hold one or more PEM certificates (-----BEGIN CERTIFICATE----- … -----END CERTIFICATE-----)";

/**
 * Why `baseUrl` may not be used, naming the two ways out: `http://` to a host other than loopback
 * carries the API key in clear, unless `allowInsecureHttp`. Undefined when it may.
 */
export function plainHttpProblem(baseUrl: string, allowInsecureHttp: boolean): string | undefined {
  const url = new URL(baseUrl);
  if (url.protocol !== "http:" || isLoopbackHost(url.hostname) || allowInsecureHttp) return undefined;
  const host = url.hostname;
  return (
    `uses http:// to ${host}, which is not this machine: the API key would cross the network in clear. ` +
    `Use https://, or on a network you trust set allowInsecureHttp ` +
    `(pulumi config set wws:allowInsecureHttp true, or WWS_ALLOW_INSECURE_HTTP=true)`
  );
}

/** What is wrong with a proxy URL, never quoting it (it may hold the proxy's password). */
export function proxyProblem(value: unknown): string | undefined {
  if (typeof value !== "string") return "must be a URL such as http://proxy.example.com:3128";
  let url: URL;
  try {
    url = new URL(value);
  } catch {
    return "must be an absolute URL such as http://proxy.example.com:3128";
  }
  if (url.protocol !== "http:" && url.protocol !== "https:") return "must use http or https";
  return undefined;
}
