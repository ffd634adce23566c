import type { IncomingHttpHeaders } from "node:http";
import type { Dispatcher } from "undici";
import type { Clock } from "../clock";
import { AbortedError, ConnectionError, RequestTimeoutError } from "../errors";
import { isBeforeSend } from "../retry-rules";
import { certificateErrorOf } from "./certificate";

export interface AttemptSpec {
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
}

export interface RawResponse {
  status: number;
  headers: IncomingHttpHeaders;
  text: string;
}

/**
 * One HTTP exchange, body read in full. Resolves with any status; rejects only with
 * `AbortedError` (caller's signal), `RequestTimeoutError` (this attempt's timeout) or
 * `ConnectionError` (no answer) or `CertificateError` (the service's certificate refused). The
 * timeout covers headers and body alike.
 */
export async function sendOnce(spec: AttemptSpec): Promise<RawResponse> {
  const { signal, clock } = spec;
  if (signal?.aborted) throw new AbortedError(spec.operation, signal.reason);
  const controller = new AbortController();
  let timedOut = false;
  const timer = clock.setTimeout(() => {
    timedOut = true;
    controller.abort();
  }, spec.timeoutMs);
  const onAbort = (): void => controller.abort();
  signal?.addEventListener("abort", onAbort, { once: true });
  try {
    const res = await spec.dispatcher.request({
      origin: spec.origin,
      method: spec.method as "GET",
      path: spec.path,
      headers: spec.headers,
      body: spec.body,
      signal: controller.signal,
    });
    const text = await res.body.text();
    return { status: res.statusCode, headers: res.headers, text };
  } catch (err) {
    if (signal?.aborted) throw new AbortedError(spec.operation, signal.reason);
    if (timedOut) throw new RequestTimeoutError(spec.operation, spec.timeoutMs);
    const refused = certificateErrorOf(spec.operation, err);
    if (refused) throw refused;
    throw new ConnectionError(spec.operation, isBeforeSend(err), err);
  } finally {
    clock.clearTimeout(timer);
    signal?.removeEventListener("abort", onAbort);
  }
}
