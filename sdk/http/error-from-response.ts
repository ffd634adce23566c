import {
  ConflictError,
  ForbiddenError,
  HttpError,
  NotFoundError,
  PayloadTooLargeError,
  RateLimitedError,
  RedirectError,
  ServerError,
  UnauthorizedError,
  UnavailableError,
  ValidationError,
  type HttpErrorCode,
  type HttpErrorInit,
} from "../errors";
import { redact } from "../redact";
import { ErrorBody } from "../schemas";
import { parseRetryAfter } from "../retry/retry-after";

type HttpErrorClass = new (init: HttpErrorInit) => HttpError;

/** The class and code of each status; `ServerError`/`HttpError` cover the rest. */
const BY_STATUS: Readonly<Record<number, readonly [HttpErrorClass, HttpErrorCode]>> = Object.freeze({
  400: [ValidationError, "validation_failed"],
  401: [UnauthorizedError, "unauthorized"],
  403: [ForbiddenError, "forbidden"],
  404: [NotFoundError, "not_found"],
  409: [ConflictError, "conflict"],
  413: [PayloadTooLargeError, "payload_too_large"],
  429: [RateLimitedError, "rate_limited"],
  503: [UnavailableError, "unavailable"],
});

interface ErrorResponse {
  status: number;
  headers: Readonly<Record<string, string | string[] | undefined>>;
  /** The body: parsed JSON, or the raw text when it is not JSON. */
  body: unknown;
}

interface ErrorContext {
  /** What was being done, for the message: `get status of workload web in workspace demo`. */
  operation: string;
  workspace?: string;
  /** The request's method and path (no query), named where the service lacks the operation (501). */
  method?: string;
  path?: string;
  /** Strings that must never appear in an error (the API key, credentials of the request body). */
  secrets?: readonly string[];
  /** Epoch ms, for `Retry-After` given as an HTTP date. */
  now?: number;
}

function header(headers: ErrorResponse["headers"], name: string): string | undefined {
  const v = headers[name];
  return Array.isArray(v) ? v[0] : v;
}

/** The only place an HTTP status becomes an error class. */
export function errorFromResponse(res: ErrorResponse, ctx: ErrorContext): HttpError {
  const secrets = ctx.secrets ?? [];
  const parsed = ErrorBody.safeParse(res.body);
  const redirect = res.status >= 300 && res.status < 400;
  const [Class, code] =
    BY_STATUS[res.status] ??
    (redirect
      ? [RedirectError, "redirected"]
      : res.status >= 500
        ? [ServerError, "server_error"]
        : [HttpError, "http_error"]);
  const location = header(res.headers, "location");
  const retryAfter = header(res.headers, "retry-after");
  const init: HttpErrorInit = {
    operation: ctx.operation,
    workspace: ctx.workspace,
    request: ctx.method && ctx.path ? `${ctx.method} ${redact(ctx.path, secrets)}` : undefined,
    status: res.status,
    code,
    serviceCode: parsed.success ? parsed.data.error.code : undefined,
    serviceMessage: redact(
      parsed.success
        ? parsed.data.error.message
        : redirect
          ? `a redirect to ${location ?? "no Location"}`
          : "no error body",
      secrets,
    ),
    requestId: header(res.headers, "x-request-id"),
    details: parsed.success
      ? parsed.data.error.details?.map((d) => ({ path: d.path, message: redact(d.message, secrets) }))
      : undefined,
    retryAfterMs: retryAfter === undefined ? undefined : parseRetryAfter(retryAfter, ctx.now ?? Date.now()),
  };
  return new Class(init);
}
