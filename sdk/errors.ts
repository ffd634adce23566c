import { connectionFailureText, type CutAnswer } from "./connection-failure";
import { describeDetails, type ErrorDetail, type WorkloadStatus } from "./schemas";

export type { CutAnswer };

/**
 * Every failure the SDK reports. Each class is one failure a caller can act on and has a stable
 * `code`. Messages say what failed and what to do about it.
 *
 * Invariant: nothing here ever holds a request header or a request body. The API key and the
 * credentials a caller sends cannot end up in a message or a property; service-provided text is
 * passed through `redact` (http/error-from-response.ts) as a second line of defence.
 */
export class WwsError extends Error {
  constructor(
    readonly code: string,
    message: string,
    options?: { cause?: unknown },
  ) {
    super(message, options);
    this.name = new.target.name;
  }
}

/** An option of a constructor or a call is invalid; `option` names it. */
export class InvalidOptionError extends WwsError {
  constructor(
    readonly option: string,
    readonly problem: string,
  ) {
    super("invalid_option", `invalid option ${option}: ${problem}`);
  }
}

/**
 * No whole HTTP answer: connection refused or reset, DNS failure, TLS failure, no connection ready
 * within the attempt's timeout (`beforeSend`), or an answer whose body was cut (`cut`).
 */
export class ConnectionError extends WwsError {
  constructor(
    operation: string,
    /** True when the request provably never reached the server (connect refused, DNS failure, a handshake that never ended). */
    readonly beforeSend: boolean,
    cause: unknown,
    /** Set when the answer began and its body was cut: the service did answer, so the request reached it. */
    readonly cut?: CutAnswer,
  ) {
    const why = cause instanceof Error ? cause.message : String(cause);
    const { what, check } = connectionFailureText(beforeSend, cut);
    super("connection_failed", `${operation} failed: ${what} (${why}). ${check}`, { cause });
    this.failure = `${what} (${why})`;
  }

  /** What happened, without the advice: for callers that give their own (`could not reach the service (connect ECONNREFUSED …)`). */
  readonly failure: string;
}

/** One attempt took longer than its `timeoutMs`. */
export class RequestTimeoutError extends WwsError {
  constructor(
    operation: string,
    readonly timeoutMs: number,
  ) {
    super(
      "request_timeout",
      `${operation} timed out after ${timeoutMs} ms. Raise timeoutMs or check the service's health.`,
    );
  }
}

/** The caller's `AbortSignal` fired. */
export class AbortedError extends WwsError {
  constructor(operation: string, cause?: unknown) {
    super("aborted", `${operation} was aborted by the caller`, { cause });
  }
}

/** The service answered 2xx with a body that does not match the schema. */
export class ResponseValidationError extends WwsError {
  constructor(
    operation: string,
    readonly status: number,
    readonly requestId: string | undefined,
    readonly issues: ReadonlyArray<ErrorDetail>,
  ) {
    super(
      "invalid_response",
      `${operation} failed: the service answered ${status} with a body this client cannot read (${describeDetails(issues)})` +
        `${requestId ? ` [request ${requestId}]` : ""}. The service and the SDK disagree on the contract: upgrade the SDK or report the request id.`,
    );
  }
}

export interface HttpErrorInit {
  operation: string;
  workspace?: string;
  /** The request as sent, `GET /v1/tenants/demo/workloads/web/status`, where known. */
  request?: string;
  status: number;
  /** This package's code for the status (`HTTP_ERROR_CODES`): what callers may branch on. */
  code: HttpErrorCode;
  /** The code the service's error body gave, if it had one: shown in the message, kept as sent. */
  serviceCode?: string;
  serviceMessage: string;
  requestId?: string;
  details?: ErrorDetail[];
  retryAfterMs?: number;
}

/**
 * The stable codes of HTTP errors, one per class: what a service says in its body may change, and
 * is kept as `serviceCode`; `http_error` is any other status.
 */
export const HTTP_ERROR_CODES = Object.freeze([
  "validation_failed",
  "unauthorized",
  "forbidden",
  "not_found",
  "conflict",
  "payload_too_large",
  "rate_limited",
  "unavailable",
  "server_error",
  "redirected",
  "http_error",
] as const);
export type HttpErrorCode = (typeof HTTP_ERROR_CODES)[number];

/** The service answered with an error status. */
export class HttpError extends WwsError {
  declare readonly code: HttpErrorCode;
  readonly status: number;
  /** The service's own code from its error body; undefined when the body had none. */
  readonly serviceCode: string | undefined;
  readonly requestId: string | undefined;
  /** The message of the service's error body. */
  readonly serviceMessage: string;
  /** Per-field details of the service's error body. */
  readonly details: ReadonlyArray<ErrorDetail>;

  constructor(init: HttpErrorInit, hint = "") {
    const details = init.details ?? [];
    const detailText = details.length > 0 ? ` (${describeDetails(details)})` : "";
    const rid = init.requestId ? ` [request ${init.requestId}]` : "";
    super(
      init.code,
      `${init.operation} failed: HTTP ${init.status} ${init.serviceCode ?? init.code}: ${init.serviceMessage}${detailText}${rid}.${hint ? ` ${hint}` : ""}`,
    );
    this.status = init.status;
    this.serviceCode = init.serviceCode;
    this.requestId = init.requestId;
    this.serviceMessage = init.serviceMessage;
    this.details = details;
  }
}

const ws = (init: HttpErrorInit): string => (init.workspace ? `workspace ${init.workspace}` : "the workspace");
const seconds = (ms: number | undefined): string => (ms === undefined ? "a moment" : `${Math.ceil(ms / 1000)} s`);

/** 3xx: the base URL answers with a redirect, which is never followed (the API key would go along). */
export class RedirectError extends HttpError {
  constructor(init: HttpErrorInit) {
    super(
      init,
      "Requests are not redirected, since the API key would go along: set the base URL to the service's own.",
    );
  }
}

/** 400: the request body or a parameter is invalid; `details` names each field. */
export class ValidationError extends HttpError {
  constructor(init: HttpErrorInit) {
    super(init, "Fix the fields named above and send the request again.");
  }
}

/** 401: the API key is missing, unknown or revoked. */
export class UnauthorizedError extends HttpError {
  constructor(init: HttpErrorInit) {
    super(init, `Check the API key of ${ws(init)}: it is missing, mistyped or revoked.`);
  }
}

/** 403: the API key is valid but belongs to another workspace. */
export class ForbiddenError extends HttpError {
  constructor(init: HttpErrorInit) {
    super(init, `The API key belongs to another workspace: use a key minted for ${ws(init)}.`);
  }
}

/** 404: no such workload, template or workspace. */
export class NotFoundError extends HttpError {
  constructor(init: HttpErrorInit) {
    super(init, `Check the id and that it exists in ${ws(init)}.`);
  }
}

/** 409: the request conflicts with the current state (an id of another type, changed storage credentials, …). */
export class ConflictError extends HttpError {
  constructor(init: HttpErrorInit) {
    super(init, "Resolve the conflict the service names, then send the request again.");
  }
}

/** 413: the body is too large (a template config is at most 64 KB serialized). */
export class PayloadTooLargeError extends HttpError {
  constructor(init: HttpErrorInit) {
    super(init, "Make the body smaller: a template config may be at most 64 KB serialized.");
  }
}

/** 429: the service limits the request rate; `retryAfterMs` comes from `Retry-After`. */
export class RateLimitedError extends HttpError {
  readonly retryAfterMs: number | undefined;
  constructor(init: HttpErrorInit) {
    super(init, `The service is rate limiting ${ws(init)}: slow down and retry after ${seconds(init.retryAfterMs)}.`);
    this.retryAfterMs = init.retryAfterMs;
  }
}

/** 503: the service is temporarily unavailable; `retryAfterMs` comes from `Retry-After`. */
export class UnavailableError extends HttpError {
  readonly retryAfterMs: number | undefined;
  constructor(init: HttpErrorInit) {
    super(init, `The service is temporarily unavailable: retry after ${seconds(init.retryAfterMs)}.`);
    this.retryAfterMs = init.retryAfterMs;
  }
}

/**
 * Any other 5xx: the service failed. A 501 or a 505 is not a failure of the moment
 * (`retry/rules.ts`): the service will never do it, so the hint must not invite a retry.
 */
export class ServerError extends HttpError {
  constructor(init: HttpErrorInit) {
    super(init, finalAnswerHint(init) ?? "The service failed: try again, and report the request id if it persists.");
  }
}

function finalAnswerHint(init: HttpErrorInit): string | undefined {
  const what = init.request ? `this operation (${init.request})` : "this operation";
  if (init.status === 501) {
    return `The service does not implement ${what}: retrying will not help. Check that the base URL points at a Workspace Workload Service that offers it.`;
  }
  if (init.status === 505) {
    return `The service refuses the HTTP version of ${what}: retrying will not help. Check that no proxy between this client and the base URL rewrites the request.`;
  }
  return undefined;
}

/**
 * A call was tried more than once and every attempt failed transiently; `lastError` (also the
 * `cause`) is the last attempt's failure, with its status, request id and `Retry-After`. Thrown
 * only after a retry: a call that failed once throws its own error.
 */
export class RetriesExhaustedError extends WwsError {
  constructor(
    readonly lastError: WwsError,
    readonly attempts: number,
    readonly elapsedMs: number,
  ) {
    super(
      "retries_exhausted",
      `${lastError.message} (gave up after ${attempts} attempts in ${(elapsedMs / 1000).toFixed(1)} s)`,
      { cause: lastError },
    );
  }
}

/** The stream was refused with 401 or 403; it does not reconnect (waiters fall back to polling). */
export class StreamAuthError extends WwsError {
  readonly status: number;
  readonly requestId: string | undefined;
  constructor(cause: HttpError) {
    super("stream_unauthorized", `event stream refused: ${cause.message}`, { cause });
    this.status = cause.status;
    this.requestId = cause.requestId;
  }
}

/** The readiness wait ran out of time; `lastStatus` is the last `/status` record seen, if any. */
export class ReadinessTimeoutError extends WwsError {
  constructor(
    message: string,
    readonly workloadId: string,
    readonly timeoutMs: number,
    readonly lastStatus: WorkloadStatus | undefined,
  ) {
    super("readiness_timeout", message);
  }
}

/** The workload reached phase `Failed`; `serviceMessage` is the status record's message. */
export class WorkloadFailedError extends WwsError {
  readonly serviceMessage: string | undefined;
  constructor(
    readonly workloadId: string,
    readonly status: WorkloadStatus,
  ) {
    const what = status.type ? `${status.type} ${workloadId}` : `workload ${workloadId}`;
    super(
      "workload_failed",
      `${what} failed: ${status.message ?? "the service gave no message"}. Fix the cause the service names (see the workload's activity), then apply again.`,
    );
    this.serviceMessage = status.message;
  }
}

/** The `Retry-After` of a rate-limited or unavailable answer, in ms. */
export function retryAfterOf(error: unknown): number | undefined {
  return error instanceof RateLimitedError || error instanceof UnavailableError ? error.retryAfterMs : undefined;
}
