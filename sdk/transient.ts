import { ConnectionError, HttpError, RequestTimeoutError, RetriesExhaustedError } from "./errors";

/**
 * The one answer to "could the same request succeed later?", shared by calls (`retry.ts`), waits
 * (`wait/workload-wait.ts`) and the event stream (`events/stream.ts`): a call retries, a wait
 * keeps waiting and the stream reconnects on exactly the failures this accepts.
 */
export function isTransientStatus(status: number): boolean {
  // 408 Request Timeout, 425 Too Early (RFC 8470) and 429 Too Many Requests ask to come back later.
  if (status === 408 || status === 425 || status === 429) return true;
  // 501 Not Implemented and 505 HTTP Version Not Supported say the service will never do it:
  // retrying, waiting or reconnecting would only hear the same answer until a deadline, so all
  // three stop at once and show the service's own message.
  if (status === 501 || status === 505) return false;
  // Every other 5xx (500, 502, 503, 504, ...) is the service or a proxy failing this once.
  return status >= 500 && status <= 599;
}

/** Whether a failure may pass on a second try: no answer, a slow answer, or a transient status. */
export function isTransientFailure(error: unknown): boolean {
  // A call that ran out of retries failed for its last error's reason: judge that one.
  if (error instanceof RetriesExhaustedError) return isTransientFailure(error.lastError);
  if (error instanceof ConnectionError || error instanceof RequestTimeoutError) return true;
  if (error instanceof HttpError) return isTransientStatus(error.status);
  // Aborts, invalid options, bodies that fail their schema: the same request fails the same way.
  return false;
}

/**
 * Whether a failure means the service gave no answer at all: no connection, no answer within the
 * attempt's timeout, or a gateway saying the service behind it did not answer (502, 504). A 429 or
 * 503 is an answer ("come back later"): the service is there.
 */
export function isNoAnswer(error: unknown): boolean {
  if (error instanceof RetriesExhaustedError) return isNoAnswer(error.lastError);
  if (error instanceof ConnectionError || error instanceof RequestTimeoutError) return true;
  return error instanceof HttpError && (error.status === 502 || error.status === 504);
}
