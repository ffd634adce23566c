import { ERROR_CODES, type ErrorCode, type ErrorDetail } from "../../sdk/schemas";

/**
 * A failure answered with the contract's error body. The status comes from the code's entry in
 * `ERROR_CODES`, so that a code and its status never disagree. Messages are written
 * by this service and never contain request values that could be credentials.
 */
export class ErrorReply extends Error {
  readonly status: number;

  constructor(
    readonly code: ErrorCode,
    message: string,
    readonly details?: ErrorDetail[],
    readonly headers: Record<string, string> = {},
    /** Only injected faults use a status outside the catalogue. */
    status?: number,
  ) {
    super(message);
    this.name = "ErrorReply";
    this.status = status ?? ERROR_CODES[code];
  }
}

export function validationFailed(details: ErrorDetail[], message = "request validation failed"): ErrorReply {
  return new ErrorReply("validation_failed", message, details);
}

export function notFound(what: string, path?: string): ErrorReply {
  return new ErrorReply("not_found", `${what} not found`, path ? [{ path, message: "not found" }] : undefined);
}

export function conflict(message: string, path?: string): ErrorReply {
  return new ErrorReply("conflict", message, path ? [{ path, message }] : undefined);
}

/** Code of an HTTP status: the catalogue's when it has one, else `internal`/`unavailable`. */
export function codeOfStatus(status: number): ErrorCode {
  for (const [code, s] of Object.entries(ERROR_CODES)) if (s === status) return code as ErrorCode;
  return status >= 500 ? "unavailable" : "validation_failed";
}

export function errorBody(code: ErrorCode, message: string, details?: ErrorDetail[]): string {
  return JSON.stringify({ error: details && details.length > 0 ? { code, message, details } : { code, message } });
}
