import { STATUS_CODES } from "node:http";
import { ConnectionError } from "../errors";

/** The proxy a request goes through, for messages: its URL without credentials, and who named it. */
export interface ProxyInUse {
  /** `http://proxy.example.com:3128` */
  url: string;
  /** `HTTPS_PROXY`, `the proxy option`, or what the caller said (`NetworkOptions.proxySetting`). */
  setting: string;
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
