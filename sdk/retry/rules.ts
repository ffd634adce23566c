import { ConnectionError, HttpError, RequestTimeoutError, RetriesExhaustedError } from "../errors";
import { ProxyError } from "../http/proxy-error";

/**
 * What every caller makes of a failure, in one table: the calls' retries (`decide.ts`), the waits
 * (`wait/workload-wait.ts`), the event stream (`events/stream.ts`), the attempt that classifies a
 * dropped connection (`http/attempt.ts`) and the provider's read-back of a call whose outcome is
 * unknown (provider/dynamic/service/read-back.ts). undici keeps its equivalent in one `retryOpts`.
 */
const RETRY_RULES = Object.freeze({
  /** Ask to come back later: 408 Request Timeout, 425 Too Early (RFC 8470), 429 Too Many Requests. */
  comeBackLaterStatuses: Object.freeze([408, 425, 429]),
  /**
   * 5xx that say the service will never do it (501 Not Implemented, 505 HTTP Version Not
   * Supported): retrying, waiting or reconnecting would only hear the same answer until a deadline.
   * Every other 5xx is the service or a proxy failing this once.
   */
  neverRetriedServerStatuses: Object.freeze([501, 505]),
  /** A gateway saying the service behind it gave no answer (502 Bad Gateway, 504 Gateway Timeout). */
  noAnswerStatuses: Object.freeze([502, 504]),
  /** The contract's "rate limited" and "unavailable": refused, so the service did not act on it. */
  notProcessedStatuses: Object.freeze([429, 503]),
  /** Errors of the connect phase: the request was never written, so nothing reached the service. */
  beforeSendCodes: Object.freeze([
    "ECONNREFUSED",
    "ENOTFOUND",
    "EAI_AGAIN",
    "EHOSTUNREACH",
    "ENETUNREACH",
    "EADDRNOTAVAIL",
    "UND_ERR_CONNECT_TIMEOUT",
  ]),
});

/** Whether the same request may get another answer later, judged on its status. */
function isTransientStatus(status: number): boolean {
  if (RETRY_RULES.comeBackLaterStatuses.includes(status)) return true;
  if (RETRY_RULES.neverRetriedServerStatuses.includes(status)) return false;
  return status >= 500 && status <= 599;
}

/** Whether a failure may pass on a second try: no answer, a slow answer, or a transient status. */
export function isTransientFailure(error: unknown): boolean {
  // A call that ran out of retries failed for its last error's reason: judge that one.
  if (error instanceof RetriesExhaustedError) return isTransientFailure(error.lastError);
  // A proxy that answered the tunnel (407, 403) answers the same again; one that failed may not.
  if (error instanceof ProxyError && error.status !== undefined) return isTransientStatus(error.status);
  if (error instanceof ConnectionError || error instanceof RequestTimeoutError) return true;
  if (error instanceof HttpError) return isTransientStatus(error.status);
  // Aborts, invalid options, bodies that fail their schema: the same request fails the same way.
  return false;
}

/**
 * Whether a failure means the service gave no answer at all (what the unreachable window counts):
 * no connection, no answer within the attempt's timeout, or a gateway saying so. A 429 or 503 is
 * an answer ("come back later"): the service is there.
 */
export function isNoAnswer(error: unknown): boolean {
  if (error instanceof RetriesExhaustedError) return isNoAnswer(error.lastError);
  if (error instanceof ProxyError && error.status !== undefined)
    return RETRY_RULES.noAnswerStatuses.includes(error.status);
  if (error instanceof ConnectionError || error instanceof RequestTimeoutError) return true;
  return error instanceof HttpError && RETRY_RULES.noAnswerStatuses.includes(error.status);
}

/** Whether the service provably did not act on a failed request: it never reached it, or refused it. */
export function provablyNotProcessed(error: unknown): boolean {
  if (error instanceof RetriesExhaustedError) return provablyNotProcessed(error.lastError);
  if (error instanceof ConnectionError) return error.beforeSend;
  return error instanceof HttpError && RETRY_RULES.notProcessedStatuses.includes(error.status);
}

/**
 * Whether the service may have acted on a request that failed transiently: the answer was lost (a
 * timeout, a reset after sending) or the service failed on its side (500, 502, 504, …). A call
 * that must not run twice reads back what happened before it is sent again.
 */
export function outcomeUnknown(error: unknown): boolean {
  return isTransientFailure(error) && !provablyNotProcessed(error);
}

/** Whether a connection failure happened before the request was written (`err` is the socket's error). */
export function isBeforeSend(err: unknown): boolean {
  const code = (err as { code?: unknown } | null)?.code;
  if (typeof code === "string" && RETRY_RULES.beforeSendCodes.includes(code)) return true;
  // Happy-eyeballs connects report every address tried in an AggregateError.
  if (err instanceof AggregateError && err.errors.length > 0) return err.errors.every(isBeforeSend);
  return false;
}
