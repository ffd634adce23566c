/**
 * The client SDK of the Workspace Workload Service: usable on its own, from plain Node, without Pulumi.
 *
 * - `WorkspaceClient`: typed HTTP client of one workspace (keep-alive pool shared per origin,
 *   per-attempt timeouts, retries with backoff and `Retry-After`, typed errors).
 * - `workspaceConnection`: the base URL, workspace and API key checked once, as one frozen value
 *   (`WorkspaceConnection`) that clients and the hub share and identify by its `key`.
 * - `eventHub` / `EventHub`: the workspace's event stream, one shared connection per
 *   (base URL, workspace, key), with `Last-Event-ID` resume, `resync`, reconnect and a heartbeat watchdog.
 * - `waitForWorkload`: readiness decided from `/status`, woken by the stream, polling when it is down.
 * - The errors a caller catches, the options and their defaults, and the zod schemas of every
 *   body, record and event.
 *
 * Only what a caller needs is exported here; the rest (retry decisions, the transient-failure
 * predicate, the status-to-error mapping, clocks, the waiter's parts) is internal and may change.
 * The last block is exported for this package's provider and CLI only (see there).
 */
export { WorkspaceClient } from "./client";
export { workspaceConnection, type ConnectionSettings, type WorkspaceConnection } from "./connection";
export { DEFAULT_CLIENT_OPTIONS, type CallOptions, type ClientOptions } from "./options";
export { DEFAULT_RETRY, type RetryNotice, type RetryOptions } from "./retry/decide";
export type { NetworkOptions } from "./http/network";
export type { Clock, TimerHandle } from "./clock";
export { SDK_VERSION } from "./version";
export { CertificateError } from "./http/certificate";
export { StreamCutError } from "./events/stream-cut";
export { proxyFor } from "./http/proxy";
export { ProxyError, type ProxyInUse } from "./http/proxy-error";
export { DEFAULT_MAX_RESPONSE_BYTES, ResponseTooLargeError } from "./http/response-size";
export { MAX_RETRY_AFTER_MS } from "./retry/retry-after";
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
  RedirectError,
  UnavailableError,
  ServerError,
  RetriesExhaustedError,
  StreamAuthError,
  ReadinessTimeoutError,
  WorkloadFailedError,
  HTTP_ERROR_CODES,
  type HttpErrorCode,
} from "./errors";
export { EventHub, eventHub, type StreamConnectionSpec } from "./events/hub";
export { DEFAULT_STREAM_OPTIONS, type StreamOptions } from "./events/stream";
export type { StreamListener, StreamState, Unsubscribe } from "./events/types";
export { waitForWorkload, DEFAULT_WAIT_TIMING, type WaitOptions, type WaitableClient } from "./wait/waiter";
export type { WaitProgress } from "./wait/workload-wait";
export type { Since, WaitGoal } from "./wait/condition";
export type { ObserverTiming } from "./wait/timing";
export { DEFAULT_SETTLE_RULE, type SettleRule } from "./wait/settle";
export {
  // names, limits and codes of the contract
  ERROR_CODES,
  type ErrorCode,
  WORKLOAD_TYPES,
  VM_TYPES,
  PHASES,
  type Phase,
  EVENT_PAYLOADS,
  EVENT_TYPES,
  type EventType,
  TEMPLATE_CONFIG_MAX_BYTES,
  TEMPLATE_CONFIG_MAX_DEPTH,
  // request bodies
  CREATE_BODY,
  type CreateBody,
  CreateVm,
  CreatePod,
  CreateBrowser,
  CreateController,
  CreateStorage,
  TemplateCreate,
  Name,
  SizeQuantity,
  CpuQuantity,
  Port,
  Credentials,
  VmPort,
  Placement,
  AiDaemon,
  PodPort,
  PodSource,
  StorageEngine,
  Backup,
  WorkloadType,
  // answers and records
  CreateResponse,
  RestartResponse,
  WorkloadStatus,
  TenantSpec,
  SavedTemplate,
  TemplateList,
  ErrorBody,
  ErrorDetail,
  Pulse,
  AgentState,
  ActivityRow,
  ActivityList,
  AskList,
  SecretList,
  FleetHosts,
  // events
  type WorkspaceEvent,
  TaskUpdate,
  AskEvent,
  AgentBusy,
  AgentSleepState,
  SpecChanged,
  SecretChanged,
  Resync,
} from "./schemas";

/*
 * For pulumi-wws's own provider and CLI, which must word and judge things as the SDK does (a
 * setting's problem, a duration, a wait's goal, redaction, the request bodies' fields): not part of
 * the SDK's promise to other callers, and may change with the provider.
 */
export { CONNECTION_SETTING_NAMES, connectionSettingProblem, type ConnectionSetting } from "./connection-check";
export { normalizedBaseUrl } from "./connection";
export {
  CA_CERTS_RULE,
  isLoopbackUrl,
  pemCertificates,
  plainHttpProblem,
  proxyProblem,
  resolveNetwork,
} from "./http/network";
export { collectSecrets, redact } from "./redact";
export { outcomeUnknown } from "./retry/rules";
export { FailureStreak } from "./retry/failure-streak";
export { RetrySpacing, type NextAttempt } from "./retry/spacing";
export { formatDuration } from "./wait/workload-wait";
export { describeWaitGoal } from "./wait/goal";
export { readWorkspace, type LiveWorkload, type LiveWorkspace } from "./read-workspace";
export {
  createBodyFields,
  isVmType,
  daemonEnabled,
  DAEMON_CREDENTIALS_RULE,
  configByteLength,
  jsonDepth,
  templatePasswordPaths,
  formatPath,
  specKeyOf,
  parseMemoryMi,
  formatMemoryMi,
} from "./schemas";
