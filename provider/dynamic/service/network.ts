import * as fs from "node:fs";
import { CA_CERTS_RULE, pemCertificates, proxyProblem, type ClientOptions, type NetworkOptions } from "../../../sdk";
import type { ConnectionSources } from "./connection";

/**
 * How the provider reaches the service from where `pulumi` runs: a proxy, a private CA, plain HTTP
 * on a trusted network. Stack config (`wws:…`), then environment (`WWS_…`): they belong to the
 * machine and network that run the deployment, not to the resources, so they are never
 * arguments of a resource nor in its state (a laptop and a CI runner behind a proxy share one
 * state). `HTTPS_PROXY`, `HTTP_PROXY` and `NO_PROXY` are honoured without them (the SDK's pools).
 */
type NetworkField = "proxy" | "caCerts" | "allowInsecureHttp" | "maxResponseBytes";

const NETWORK_SETTINGS: Readonly<Record<NetworkField, { config: string; env: string }>> = Object.freeze({
  proxy: { config: "wws:proxy", env: "WWS_PROXY" },
  caCerts: { config: "wws:caCerts", env: "WWS_CA_CERTS" },
  allowInsecureHttp: { config: "wws:allowInsecureHttp", env: "WWS_ALLOW_INSECURE_HTTP" },
  maxResponseBytes: { config: "wws:maxResponseBytes", env: "WWS_MAX_RESPONSE_BYTES" },
});

interface NetworkSettings {
  /** The SDK's options, from the settings found (a setting with a problem is left out). */
  options: NetworkOptions & Pick<ClientOptions, "maxResponseBytes">;
  /** Each setting's problem, led by its name and where it was found. */
  problems: Array<{ field: NetworkField; message: string }>;
  /** The values found and where: what identifies these settings (a client per distinct set). Holds the proxy URL: never show it. */
  key: string;
}

function found(field: NetworkField, sources: ConnectionSources): { value: string; where: string } | undefined {
  const s = NETWORK_SETTINGS[field];
  const config = sources.config?.get(s.config);
  if (config !== undefined && config !== "") return { value: config, where: `the stack config ${s.config}` };
  const env = sources.env[s.env];
  if (env !== undefined && env !== "") return { value: env, where: `the environment variable ${s.env}` };
  return undefined;
}

/** PEM text as it is; anything else is the path of a PEM file (relative to the project's directory). */
function readCaCerts(value: string): { pem?: string; problem?: string } {
  if (value.includes("-----BEGIN")) return { pem: value };
  try {
    return { pem: fs.readFileSync(value, "utf8") };
  } catch (err) {
    const code = (err as { code?: string }).code ?? "unreadable";
    return { problem: `names a file that cannot be read (${code}): give the path of a PEM file or the PEM text` };
  }
}

/** The last settings made, by the values found: every check and call asks, and a CA file is read once. */
let last: NetworkSettings | undefined;

/** The network settings of `sources`, each checked. Never quotes a proxy URL (it may hold a password). */
export function networkSettings(sources: ConnectionSources): NetworkSettings {
  const proxy = found("proxy", sources);
  const ca = found("caCerts", sources);
  const insecure = found("allowInsecureHttp", sources);
  const maxBytes = found("maxResponseBytes", sources);
  const key = JSON.stringify([proxy, ca, insecure, maxBytes]);
  if (last?.key !== key) last = { ...checked(proxy, ca, insecure, maxBytes), key };
  return last;
}

type Found = ReturnType<typeof found>;

function checked(proxy: Found, ca: Found, insecure: Found, maxBytes: Found): Omit<NetworkSettings, "key"> {
  const options: NetworkSettings["options"] = {};
  const problems: NetworkSettings["problems"] = [];
  const fail = (field: NetworkField, where: string, problem: string): void =>
    void problems.push({ field, message: `${field} ${problem} (from ${where})` });

  if (proxy) {
    const problem = proxyProblem(proxy.value);
    if (problem) fail("proxy", proxy.where, problem);
    else Object.assign(options, { proxy: proxy.value, proxySetting: proxy.where });
  }
  if (ca) {
    const { pem, problem } = readCaCerts(ca.value);
    if (problem) fail("caCerts", ca.where, problem);
    else if (pemCertificates(pem!).length === 0) fail("caCerts", ca.where, CA_CERTS_RULE);
    else options.caCerts = pem;
  }
  if (insecure) {
    const v = insecure.value.toLowerCase();
    if (v === "true") options.allowInsecureHttp = true;
    else if (v !== "false") fail("allowInsecureHttp", insecure.where, "must be true or false");
  }
  if (maxBytes) {
    const n = Number(maxBytes.value);
    if (/^\d+$/.test(maxBytes.value) && n >= 1024) options.maxResponseBytes = n;
    else fail("maxResponseBytes", maxBytes.where, "must be a whole number of bytes, at least 1024");
  }
  return { options, problems };
}

/** `networkSettings` for a call about to be made: a setting with a problem fails it, after `what` (`cannot check Pod "web"`). */
export function requireNetworkSettings(sources: ConnectionSources, what: string): NetworkSettings {
  const settings = networkSettings(sources);
  if (settings.problems.length > 0) throw new Error(`${what}: ${settings.problems.map((p) => p.message).join("; ")}`);
  return settings;
}
