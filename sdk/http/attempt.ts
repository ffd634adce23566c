import type { IncomingHttpHeaders } from "node:http";
import type { Dispatcher } from "undici";
import type { Clock } from "../clock";
import { AbortedError, ConnectionError, RequestTimeoutError } from "../errors";
import { isBeforeSend } from "../retry/rules";
import { certificateErrorOf } from "./certificate";
import { proxyErrorOf } from "./proxy";
import type { ProxyInUse } from "./proxy-error";
import { startExchange } from "./exchange";
import { ResponseTooLargeError } from "./response-size";

interface AttemptSpec {
  dispatcher: Dispatcher;
  /** `scheme://host:port` of the service. */
  origin: string;
  method: string;
  /** Path and query, already encoded. */
  path: string;
  headers: Record<string, string>;
  body?: string;
  timeoutMs: number;
  /** The caller's signal. */
  signal?: AbortSignal;
  /** For messages: `get status of workload web in workspace demo`. */
  operation: string;
  clock: Clock;
  /** A body larger than this is cut and the attempt fails (`ResponseTooLargeError`). */
  maxResponseBytes: number;
  /** The proxy the request goes through, if any: its failures are named as its own. */
  proxy?: ProxyInUse;
}

export interface RawResponse {
  status: number;
  headers: IncomingHttpHeaders;
  text: string;
}

/**
 * One HTTP exchange, body read in full (up to `maxResponseBytes`). Resolves with any status;
 * rejects only with `AbortedError` (caller's signal), `RequestTimeoutError` (this attempt's
 * timeout), `ConnectionError` (no answer; a `ProxyError` when the proxy failed),
 * `CertificateError` (the service's certificate refused) or `ResponseTooLargeError`. The timeout
 * covers connecting, headers and body alike.
 *
 * The attempt ends on its timeout or the caller's signal even when undici does not end the
 * request: undici aborts a request only once it has a connection, so one queued behind a tunnel
 * that a proxy stalls or drops would otherwise hold the attempt, and a Ctrl-C, for as long as
 * undici keeps trying to connect.
 */
export async function sendOnce(spec: AttemptSpec): Promise<RawResponse> {
  const { signal, clock } = spec;
  if (signal?.aborted) throw new AbortedError(spec.operation, signal.reason);
  let timedOut = false;
  let giveUp: (reason: unknown) => void = () => undefined;
  const givenUp = new Promise<never>((_, reject) => (giveUp = reject));
  givenUp.catch(() => undefined);
  const exchange = startExchange(spec.dispatcher, spec);
  const timer = clock.setTimeout(() => {
    timedOut = true;
    exchange.abandon(new Error("attempt timed out"));
    giveUp(new Error("attempt timed out"));
  }, spec.timeoutMs);
  const onAbort = (): void => {
    exchange.abandon(new Error("aborted"));
    giveUp(signal?.reason);
  };
  signal?.addEventListener("abort", onAbort, { once: true });
  // Once the attempt has given up, what undici does with the request later is nobody's business.
  exchange.answer.catch(() => undefined);
  try {
    return await Promise.race([exchange.answer, givenUp]);
  } catch (err) {
    if (signal?.aborted) throw new AbortedError(spec.operation, signal.reason);
    const written = exchange.written();
    if (timedOut && !written)
      throw new ConnectionError(
        spec.operation,
        true,
        new Error(
          `timed out after ${spec.timeoutMs} ms before the request was sent: the connection, its TLS handshake or a proxy's tunnel did not complete`,
        ),
      );
    if (timedOut) throw new RequestTimeoutError(spec.operation, spec.timeoutMs);
    if (err instanceof ResponseTooLargeError || err instanceof ConnectionError) throw err;
    const refused = certificateErrorOf(spec.operation, err) ?? proxyErrorOf(spec.operation, err, spec.proxy);
    if (refused) throw refused;
    throw new ConnectionError(spec.operation, !written || isBeforeSend(err), err);
  } finally {
    clock.clearTimeout(timer);
    signal?.removeEventListener("abort", onAbort);
  }
}
