import {
  AbortedError,
  CertificateError,
  ConnectionError,
  ForbiddenError,
  HttpError,
  NotFoundError,
  ProxyError,
  RateLimitedError,
  RedirectError,
  RequestTimeoutError,
  ResponseTooLargeError,
  ResponseValidationError,
  RetriesExhaustedError,
  UnauthorizedError,
  UnavailableError,
  proxyFor,
  formatDuration,
  isLoopbackUrl,
  MAX_RETRY_AFTER_MS,
  type FleetHosts,
  type ProxyInUse,
  type RetryNotice,
  type WorkspaceClient,
} from "../../../sdk";
import type { Connection, ConnectionField, ResolvedConnection } from "./connection";
import { settingSource } from "./setting-source";
import { clauseOf, failureAt, type Failure } from "../inputs/failures";
import { keepSpec } from "./shared-spec";

/**
 * How long one read-only check at preview may retry (429, 503, a dropped connection) before the
 * preview fails: long enough to ride out throttling, short enough that a wrong URL fails in seconds.
 */
export const PREFLIGHT_BUDGET_MS = 20 * 1000; // 20 s
/** Timeout of one attempt of a check: a URL that accepts connections and never answers. */
const ATTEMPT_TIMEOUT_MS = 10 * 1000; // 10 s
/** Connections refused or reset this long: nothing answers there (a throttled service does answer). */
const UNREACHABLE_AFTER_MS = 4 * 1000; // 4 s
/**
 * The same on this machine, where a refused connection is the kernel's word that nothing listens on
 * the port, not a network's passing trouble: a second look covers a local service just starting.
 */
const LOOPBACK_UNREACHABLE_AFTER_MS = 500; // 0.5 s

/** The port of `url`, its scheme's default when it names none. */
function portOf(url: string): string {
  const u = new URL(url);
  return u.port || (u.protocol === "https:" ? "443" : "80");
}

/** `(from the stack config wws:apiKey)` */
function origin(field: ConnectionField, r: ResolvedConnection): string {
  return ` (from ${settingSource(field, r).where})`;
}

/** The cause under a give-up: what the last attempt met. */
export function rootOf(err: unknown): unknown {
  return err instanceof RetriesExhaustedError ? err.lastError : err;
}

/** What the connection check met on its way: whether a request may have reached the service, and the proxy. */
interface CheckTrail {
  /** A request left this machine and may have reached the service (only reads are sent here). */
  reached: boolean;
  proxy: ProxyInUse | undefined;
  elapsedMs: number;
}

/** Whether `error` proves its request never reached the service (a refused connection, a proxy's failure). */
function neverReached(error: unknown): boolean {
  const cause = rootOf(error);
  return cause instanceof ConnectionError && cause.beforeSend;
}

/** What the connection check's failure says, per answer; undefined for an answer that says nothing is wrong. */
function connectionFailure(
  err: unknown,
  conn: Connection,
  r: ResolvedConnection,
  trail: CheckTrail,
): Failure | undefined {
  const cause = rootOf(err);
  const at = `the service at ${conn.baseUrl}${origin("baseUrl", r)}`;
  const local = isLoopbackUrl(conn.baseUrl);
  const fixUrl = local
    ? // This machine: no https (plain HTTP is fine on loopback), and the local service's own command.
      `check that the service runs on this machine at that port (\`npx wws-local --port ${portOf(conn.baseUrl)}\`), or point the base URL at where it runs. ${settingSource("baseUrl", r).fix("the base URL").replace("https://…", `http://127.0.0.1:<port>`)}`
    : `check the base URL and that the service runs. ${settingSource("baseUrl", r).fix("the base URL")}`;
  const key = settingSource("apiKey", r);
  const sent = trail.reached ? "Reads were sent (the connection check's GET) and no change was" : "Nothing was sent";
  const check = `the connection check (GET ${conn.baseUrl.replace(/\/$/, "")}/v1/tenants/${conn.workspace}/spec)`;
  if (cause instanceof UnauthorizedError)
    return failureAt(
      ["apiKey"],
      `the API key${origin("apiKey", r)} is not valid: ${at} answered 401 for workspace ${conn.workspace} (a mistyped, unknown or revoked key). ${key.fix("the workspace's key")}`,
    );
  if (cause instanceof ForbiddenError)
    return failureAt(
      ["apiKey"],
      `the API key${origin("apiKey", r)} belongs to another workspace than ${conn.workspace}${origin("workspace", r)}: ${at} answered 403. Either name the key's workspace, or use a key minted for ${conn.workspace}. ${key.fix("that key")}`,
    );
  if (cause instanceof NotFoundError)
    return failureAt(
      ["workspace"],
      `${at} does not know workspace ${conn.workspace}${origin("workspace", r)} (HTTP 404): check the workspace name, and that the base URL is the service's (its path included)`,
    );
  if (cause instanceof CertificateError)
    return failureAt(["baseUrl"], `cannot reach ${at}: ${cause.message} Nothing was sent`);
  if (cause instanceof ProxyError)
    return failureAt(["baseUrl"], `cannot reach ${at}: ${clauseOf(cause)}. Nothing was sent to the service`);
  if (cause instanceof ConnectionError || cause instanceof RequestTimeoutError) {
    const via = trail.proxy ? ` through the proxy ${trail.proxy.url} (from ${trail.proxy.setting})` : "";
    // What happened, once; the advice is this check's own (the SDK's would say it a second time).
    const what =
      cause instanceof ConnectionError ? cause.failure : `timed out after ${formatDuration(cause.timeoutMs)}`;
    if (cause instanceof ConnectionError && cause.cut)
      return failureAt(
        ["baseUrl"],
        `${at} answered ${check}, but ${what}. ${sent}; run the preview again, and if it persists check the network between here and the service`,
      );
    return failureAt(["baseUrl"], `cannot reach ${at}${via}: ${what}. ${sent}; ${fixUrl}`);
  }
  // Not the base URL's fault as such: a workspace's spec grows with every key holder's workloads.
  if (cause instanceof ResponseTooLargeError)
    return { property: "", reason: `${at} answered ${check}: ${clauseOf(cause).replace(/^.*? failed: /, "")}` };
  if (cause instanceof ResponseValidationError)
    return failureAt(["baseUrl"], `${at} answered, but not as the Workspace Workload Service does: ${fixUrl}`);
  if (cause instanceof RateLimitedError || cause instanceof UnavailableError) {
    const what = cause instanceof RateLimitedError ? "is rate limiting" : "is unavailable";
    const wait =
      cause.retryAfterMs === undefined
        ? `kept answering ${cause.status} for ${formatDuration(trail.elapsedMs)}`
        : `asks to wait ${cause.retryAfterMs >= MAX_RETRY_AFTER_MS ? "an hour or more" : formatDuration(cause.retryAfterMs)} (Retry-After), longer than the ${formatDuration(PREFLIGHT_BUDGET_MS)} the connection check waits`;
    return failureAt(
      ["baseUrl"],
      `${at} ${what} (HTTP ${cause.status}) and ${wait}: run the preview again later. No change was sent`,
    );
  }
  if (cause instanceof RedirectError)
    return failureAt(
      ["baseUrl"],
      `${at} answered ${check} with HTTP ${cause.status}, ${cause.serviceMessage}: requests are not redirected, since the API key would go along. Set the base URL to the service's own address: ${fixUrl}`,
    );
  if (cause instanceof HttpError && cause.status >= 500)
    return failureAt(
      ["baseUrl"],
      `${at} failed ${check} with HTTP ${cause.status} for ${formatDuration(trail.elapsedMs)}: ${clauseOf(cause)}. No change was sent`,
    );
  if (cause instanceof HttpError)
    return failureAt(
      ["baseUrl"],
      `${at} answered ${check} with HTTP ${cause.status}, which the Workspace Workload Service does not (${cause.serviceMessage}): ${fixUrl}`,
    );
  return undefined;
}

/**
 * The read-only checks `check` makes, so that `pulumi preview` fails on what the service would
 * refuse at `up`: the base URL answers, the key fits the workspace, a placement's region or host
 * exists, a new workload's id is free. Each connection is checked once per process (the provider
 * process serves one deployment), and the fleet read once per connection.
 */
export class Preflight {
  // By `WorkspaceConnection.key`: the base URL, the workspace and a digest of the key.
  private readonly connections = new Map<string, Promise<Failure | undefined>>();
  private readonly fleets = new Map<string, Promise<FleetHosts | undefined>>();

  constructor(
    private readonly now: () => number,
    /** The deployment's cancellation (Ctrl-C, SIGTERM): every check ends with it. */
    private readonly cancelled?: AbortSignal,
  ) {}

  /** Whether the service answers at `conn` and accepts its key for its workspace. */
  connection(client: WorkspaceClient, conn: Connection, r: ResolvedConnection): Promise<Failure | undefined> {
    return once(this.connections, conn, () => {
      const giveUp = new AbortController();
      let unreachable: ConnectionError | undefined;
      const startedAt = this.now();
      const trail: CheckTrail = { reached: false, proxy: undefined, elapsedMs: 0 };
      const call = {
        ...this.call(),
        signal: this.cancelled ? AbortSignal.any([giveUp.signal, this.cancelled]) : giveUp.signal,
        onRetry: (n: RetryNotice) => {
          if (!neverReached(n.error)) trail.reached = true;
          const after =
            isLoopbackUrl(conn.baseUrl) && neverReached(n.error) ? LOOPBACK_UNREACHABLE_AFTER_MS : UNREACHABLE_AFTER_MS;
          if (!(n.error instanceof ConnectionError) || n.elapsedMs < after) return;
          unreachable = n.error;
          giveUp.abort();
        },
      };
      return client.getSpec(call).then(
        // The answer also serves the checks' and creates' reads of which ids are taken.
        (spec) => void keepSpec(client, spec, startedAt),
        (err: unknown) => {
          if (this.cancelled?.aborted)
            throw new Error(
              `the connection check of ${conn.baseUrl} stopped: the deployment was cancelled (Ctrl-C or SIGTERM). No change was sent`,
            );
          const cause = err instanceof AbortedError && unreachable ? unreachable : err;
          if (!neverReached(cause)) trail.reached = true;
          trail.elapsedMs = this.now() - startedAt;
          trail.proxy = proxyFor(client.options.origin, client.options.network);
          const failure = connectionFailure(cause, conn, r, trail);
          if (failure === undefined) throw err;
          return failure;
        },
      );
    });
  }

  /** A placement's region or host that the fleet does not have; nothing when the service lists no fleet. */
  async placement(client: WorkspaceClient, conn: Connection, placement: unknown): Promise<Failure | undefined> {
    if (typeof placement !== "object" || placement === null) return undefined;
    const { region, host } = placement as { region?: unknown; host?: unknown };
    if (typeof region !== "string" && typeof host !== "string") return undefined;
    const fleet = await this.fleet(client, conn);
    if (fleet === undefined) return undefined;
    const regions = fleet.regions.map((g) => g.name);
    if (typeof region === "string" && !regions.includes(region))
      return failureAt(
        ["placement", "region"],
        `no region ${region} in the fleet; the regions are ${regions.join(", ")} (GET /v1/fleet/hosts). Pick one, or leave placement out for automatic placement`,
      );
    const hosts = fleet.regions.flatMap((g) => g.hosts.map((h) => h.name));
    if (typeof host === "string" && !hosts.includes(host))
      return failureAt(
        ["placement", "host"],
        `no host ${host} in the fleet; the hosts are ${hosts.join(", ")} (GET /v1/fleet/hosts). Pick one, or set a region instead`,
      );
    return undefined;
  }

  /** The fleet, read once per connection; undefined when the service has no fleet endpoint. */
  fleet(client: WorkspaceClient, conn: Connection): Promise<FleetHosts | undefined> {
    return once(this.fleets, conn, () =>
      // The fleet endpoint is named, not specified: a service without it is not a reason to fail.
      client.getFleetHosts(this.call()).catch((err: unknown) => {
        if (err instanceof HttpError && (err.status === 404 || err.status === 501)) return undefined;
        throw err;
      }),
    );
  }

  private call(): { deadline: number; timeoutMs: number; signal?: AbortSignal } {
    return { deadline: this.now() + PREFLIGHT_BUDGET_MS, timeoutMs: ATTEMPT_TIMEOUT_MS, signal: this.cancelled };
  }
}

/** `make()` once per connection: later callers share the first answer. */
function once<T>(cache: Map<string, Promise<T>>, { connection }: Connection, make: () => Promise<T>): Promise<T> {
  let p = cache.get(connection.key);
  if (p === undefined) {
    p = make();
    cache.set(connection.key, p);
  }
  return p;
}
