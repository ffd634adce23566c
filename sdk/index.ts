/**
 * The client SDK of the Workspace Workload Service: usable on its own, from plain Node, without Pulumi.
 *
 * - `WorkspaceClient`: typed HTTP client of one workspace (keep-alive pool shared per origin,
 *   per-attempt timeouts, retries with backoff and `Retry-After`, typed errors).
 * - `eventHub` / `EventHub`: the workspace's event stream, one shared connection per
 *   (base URL, workspace, key), with `Last-Event-ID` resume, `resync`, reconnect and a heartbeat watchdog.
 * - `waitForWorkload`: readiness decided from `/status`, woken by the stream, polling when it is down.
 * - The zod schemas of every body, record and event (`./schemas`).
 */
export { WorkspaceClient } from "./client";
export {
  DEFAULT_CLIENT_OPTIONS,
  resolveClientOptions,
  type CallOptions,
  type ClientOptions,
  type ResolvedClientOptions,
} from "./options";
export {
  WwsError,
  InvalidOptionError,
  ConnectionError,
  RequestTimeoutError,
  AbortedError,
  ResponseValidationError,
  HttpError,
  ValidationError,
  UnauthorizedError,
  ForbiddenError,
  NotFoundError,
  ConflictError,
  PayloadTooLargeError,
  RateLimitedError,
  UnavailableError,
  ServerError,
  RetriesExhaustedError,
  StreamAuthError,
  ReadinessTimeoutError,
  WorkloadFailedError,
  errorFromResponse,
  retryAfterOf,
  type HttpErrorInit,
  type ErrorResponse,
  type ErrorContext,
} from "./errors";
export { DEFAULT_RETRY, shouldRetry, backoffDelay, type RetryOptions, type RetryPolicy, type RetryDecision, type RetryInput } from "./retry";
export { isTransientFailure, isTransientStatus } from "./transient";
export { CONNECTION_SETTING_NAMES, connectionSettingProblem, type ConnectionSetting } from "./connection-check";
export { parseRetryAfter, MAX_RETRY_AFTER_MS } from "./http/retry-after";
export { systemClock, sleep, type Clock, type TimerHandle } from "./clock";
export { SDK_VERSION } from "./version";
export * from "./events";
export * from "./wait";
export * from "./schemas";
