import { systemClock, type Clock } from "./clock";
import { InvalidOptionError } from "./errors";
import { DEFAULT_RETRY, type RetryNotice, type RetryOptions } from "./retry/decide";
import type { WorkspaceConnection } from "./connection";
import type { ConnectionSetting } from "./connection-check";
import { SDK_VERSION } from "./version";
import type { EventHub } from "./events/hub";
import { resolveStreamOptions, type StreamOptions } from "./events/stream";
import { checkInteger, definedOnly } from "./validate";
import { resolveNetwork, type NetworkOptions, type ResolvedNetwork } from "./http/network";
import { DEFAULT_MAX_RESPONSE_BYTES } from "./http/response-size";

/**
 * Options of `new WorkspaceClient(…)`. `baseUrl`, `workspace` and `apiKey` are required, unless a
 * connection made by `workspaceConnection` is given first: `new WorkspaceClient(connection, options)`.
 */
export interface ClientOptions extends NetworkOptions {
  /** `http(s)://host[:port][/prefix]` of the service; paths `/v1/…` are appended. */
  baseUrl: string;
  /** The workspace (tenant) name: a DNS label. */
  workspace: string;
  /** The workspace's API key, sent as `x-api-key`. Never logged, never in an error. */
  apiKey: string;
  /** Timeout of one HTTP attempt. @default 30000 (30 s) */
  timeoutMs?: number;
  /**
   * The largest answer body read; a larger one is cut and its call fails with
   * `ResponseTooLargeError`. @default 33554432 (32 MiB, `DEFAULT_MAX_RESPONSE_BYTES`)
   */
  maxResponseBytes?: number;
  /** Retry bounds; see `DEFAULT_RETRY`. */
  retry?: RetryOptions;
  /** @default "pulumi-wws-sdk/<version>" */
  userAgent?: string;
  /** Event stream settings (heartbeat watchdog, reconnect backoff); see `DEFAULT_STREAM_OPTIONS`. */
  stream?: StreamOptions;
  /** Hub whose shared streams `subscribe` uses. @default the process-wide `eventHub` */
  eventHub?: EventHub;
  /** @default the system clock */
  clock?: Clock;
  /** Source of retry jitter in [0, 1). @default Math.random */
  random?: () => number;
}

/** Per-call options, accepted as the last argument of every client method. */
export interface CallOptions {
  /** Aborts the call (and its retries); the call rejects with `AbortedError`. */
  signal?: AbortSignal;
  /** Timeout of each HTTP attempt of this call. @default the client's `timeoutMs` */
  timeoutMs?: number;
  /**
   * Time (ms since the epoch, on the client's clock) by which the call ends: no retry starts past
   * it, and no attempt runs past it (its timeout is cut to the time left). With it, the call is
   * retried for as long as the deadline allows, honouring `Retry-After`, instead of
   * `retry.maxAttempts` within `retry.maxElapsedMs`; the retry rules of calls that must not run
   * twice are unchanged. @default none
   */
  deadline?: number;
  /** Called before each retry with what failed (progress for a user: a service that does not answer). */
  onRetry?: (retry: RetryNotice) => void;
}

export interface ResolvedClientOptions {
  readonly baseUrl: string;
  /** `scheme://host:port`: the key of the shared connection pool. */
  readonly origin: string;
  /** Path prefix of `baseUrl` without trailing slash ("" for none). */
  readonly basePath: string;
  readonly workspace: string;
  /** Proxy, CA certificates or the caller's dispatcher. */
  readonly network: ResolvedNetwork;
  readonly timeoutMs: number;
  readonly maxResponseBytes: number;
  readonly retry: Readonly<Required<RetryOptions>>;
  readonly userAgent: string;
  readonly stream: Readonly<Required<StreamOptions>>;
  readonly clock: Clock;
  readonly random: () => number;
}

export const DEFAULT_CLIENT_OPTIONS = Object.freeze({
  timeoutMs: 30 * 1000, // 30 s
  maxResponseBytes: DEFAULT_MAX_RESPONSE_BYTES,
  retry: DEFAULT_RETRY,
  userAgent: `pulumi-wws-sdk/${SDK_VERSION}`,
  clock: systemClock,
  random: Math.random,
});

/**
 * Merges the options other than the connection over the defaults once and rejects invalid ones.
 * The connection was checked where it was made (`workspaceConnection`); its API key is not kept here.
 */
export function resolveClientOptions(
  options: Omit<ClientOptions, ConnectionSetting>,
  connection: WorkspaceConnection,
): ResolvedClientOptions {
  if (typeof options !== "object" || options === null) throw new InvalidOptionError("options", "must be an object");
  const origin = new URL(connection.baseUrl).origin;
  const network = resolveNetwork(connection.baseUrl, options);
  const timeoutMs = options.timeoutMs ?? DEFAULT_CLIENT_OPTIONS.timeoutMs;
  checkInteger("timeoutMs", timeoutMs, 1, 24 * 60 * 60 * 1000);
  const maxResponseBytes = options.maxResponseBytes ?? DEFAULT_CLIENT_OPTIONS.maxResponseBytes;
  checkInteger("maxResponseBytes", maxResponseBytes, 1024, 4 * 1024 * 1024 * 1024);
  const retry = { ...DEFAULT_RETRY, ...definedOnly(options.retry ?? {}) };
  checkInteger("retry.maxAttempts", retry.maxAttempts, 1, 100);
  checkInteger("retry.initialDelayMs", retry.initialDelayMs, 0, 60 * 60 * 1000);
  checkInteger("retry.maxDelayMs", retry.maxDelayMs, retry.initialDelayMs, 60 * 60 * 1000);
  checkInteger("retry.maxElapsedMs", retry.maxElapsedMs, 0, 24 * 60 * 60 * 1000);
  checkInteger("retry.neverAnsweredGiveUpMs", retry.neverAnsweredGiveUpMs, 0, 24 * 60 * 60 * 1000);
  checkInteger("retry.unreachableGiveUpMs", retry.unreachableGiveUpMs, 1, 24 * 60 * 60 * 1000);
  const userAgent = options.userAgent ?? DEFAULT_CLIENT_OPTIONS.userAgent;
  if (typeof userAgent !== "string" || !/^[\x20-\x7e]{1,512}$/.test(userAgent)) {
    throw new InvalidOptionError("userAgent", "must be 1-512 printable ASCII characters");
  }
  return Object.freeze({
    baseUrl: connection.baseUrl,
    origin,
    // The base URL is the origin and the path without trailing slash.
    basePath: connection.baseUrl.slice(origin.length),
    workspace: connection.workspace,
    network,
    timeoutMs,
    maxResponseBytes,
    retry: Object.freeze(retry),
    userAgent,
    stream: resolveStreamOptions(options.stream),
    clock: options.clock ?? DEFAULT_CLIENT_OPTIONS.clock,
    random: options.random ?? DEFAULT_CLIENT_OPTIONS.random,
  });
}

/** Validates per-call options; returns the effective timeout. */
export function resolveCallOptions(
  call: CallOptions | undefined,
  defaults: ResolvedClientOptions,
): { signal?: AbortSignal; timeoutMs: number; deadline?: number; onRetry?: (retry: RetryNotice) => void } {
  const timeoutMs = call?.timeoutMs ?? defaults.timeoutMs;
  checkInteger("timeoutMs", timeoutMs, 1, 24 * 60 * 60 * 1000);
  if (call?.signal !== undefined && !(call.signal instanceof AbortSignal))
    throw new InvalidOptionError("signal", "must be an AbortSignal");
  const deadline = call?.deadline;
  if (deadline !== undefined && !Number.isFinite(deadline))
    throw new InvalidOptionError("deadline", "must be a finite time in ms since the epoch, such as Date.now() + 60000");
  return { signal: call?.signal, timeoutMs, deadline, onRetry: call?.onRetry };
}
