import { isWorkspaceConnection, workspaceConnection, type WorkspaceConnection } from "./connection";
import type { ConnectionSetting } from "./connection-check";
import { NotFoundError, WwsError } from "./errors";
import { eventHub, type EventHub } from "./events/hub";
import type { StreamListener, Unsubscribe } from "./events/types";
import { acquirePool, type PoolLease } from "./http/pools";
import { Requester, type CallSpec } from "./http/requester";
import {
  resolveCallOptions,
  resolveClientOptions,
  type CallOptions,
  type ClientOptions,
  type ResolvedClientOptions,
} from "./options";
import {
  ActivityList,
  AskList,
  CreateResponse,
  FleetHosts,
  Pulse,
  RestartResponse,
  SecretList,
  SavedTemplate,
  TemplateList,
  TenantSpec,
  WorkloadStatus,
  type ActivityRow,
  type CreateBody,
  type TemplateCreate,
  type WorkloadType,
} from "./schemas";

const enc = encodeURIComponent;

/**
 * Typed client of one workspace of the Workspace Workload Service.
 *
 * Every method takes `options?: CallOptions` last (`signal`, `timeoutMs`, `deadline`, `onRetry`).
 * Failures are `WwsError` subclasses (see `errors.ts`). Calls that are safe to repeat are retried
 * with full-jitter exponential backoff, honouring `Retry-After`: within `retry.maxAttempts` and
 * `retry.maxElapsedMs`, or, for a call given a `deadline` (as every call of the provider is), for
 * as long as the deadline allows, in place of those two.
 * Clients of the same origin share one keep-alive connection pool; `close()` gives it back.
 */
export class WorkspaceClient {
  readonly #connection: WorkspaceConnection;
  readonly #requester: Requester;
  readonly #lease: PoolLease;
  readonly #hub: EventHub;
  #closed = false;
  /** The validated options, without the API key. */
  readonly options: ResolvedClientOptions;

  /**
   * From the options, connection settings included; or from a connection made by
   * `workspaceConnection` (shared, checked once) and the other options.
   */
  constructor(options: ClientOptions);
  constructor(connection: WorkspaceConnection, options?: Omit<ClientOptions, ConnectionSetting>);
  constructor(first: ClientOptions | WorkspaceConnection, rest: Omit<ClientOptions, ConnectionSetting> = {}) {
    const given = isWorkspaceConnection(first);
    this.#connection = given ? first : workspaceConnection(first);
    const options = given ? rest : (first as ClientOptions);
    this.options = resolveClientOptions(options, this.#connection);
    this.#hub = options.eventHub ?? eventHub;
    this.#lease = acquirePool(this.options.origin, "requests", this.options.network);
    this.#requester = new Requester(this.options, this.#connection.apiKey, this.#lease.dispatcher);
  }

  get workspace(): string {
    return this.options.workspace;
  }

  get baseUrl(): string {
    return this.options.baseUrl;
  }

  /**
   * `POST /v1/tenants/{name}/workloads/{type}`: creates the workload `body.id`, or updates it to
   * `body`. Answers once accepted (202); reconciliation follows (see `waitForWorkload`).
   *
   * Retried like a GET: the call is an upsert keyed by `body.id`, so sending the same body twice
   * asks for the same desired state twice, and the second answer is the same as the first
   * (at worst one more generation for the same spec).
   */
  upsertWorkload(type: WorkloadType, body: CreateBody, options?: CallOptions): Promise<CreateResponse> {
    const id = (body as { id?: unknown } | null)?.id;
    return this.call(options, {
      method: "POST",
      path: `/v1/tenants/${enc(this.workspace)}/workloads/${enc(type)}`,
      body,
      schema: CreateResponse,
      policy: "idempotent",
      operation: `upsert ${type} ${typeof id === "string" ? id : "(no id)"} in workspace ${this.workspace}`,
    });
  }

  /** `GET …/workloads/{id}/status`. Throws `NotFoundError` when there is no such workload. */
  getStatus(id: string, options?: CallOptions): Promise<WorkloadStatus> {
    return this.get(options, {
      path: `${this.workloadPath(id)}/status`,
      schema: WorkloadStatus,
      operation: `get status of workload ${id} in workspace ${this.workspace}`,
    });
  }

  /** `GET …/workloads/{id}/status`, or undefined when there is no such workload (404). */
  async findStatus(id: string, options?: CallOptions): Promise<WorkloadStatus | undefined> {
    try {
      return await this.getStatus(id, options);
    } catch (err) {
      if (err instanceof NotFoundError) return undefined;
      throw err;
    }
  }

  /**
   * `POST …/workloads/{id}/restart`. Not idempotent (each call restarts once more), so it is
   * retried only when the service provably did not act on it: connection refused, or refused with
   * 429/503. Any other failure after sending leaves the outcome unknown: read the status back
   * (`restartCount`, `generation`, phase) before trying again.
   */
  restartWorkload(id: string, options?: CallOptions): Promise<RestartResponse> {
    return this.call(options, {
      method: "POST",
      path: `${this.workloadPath(id)}/restart`,
      schema: RestartResponse,
      policy: "unprocessed-only",
      operation: `restart workload ${id} in workspace ${this.workspace}`,
    });
  }

  /** `DELETE …/workloads/{id}` (202): deletion starts. Throws `NotFoundError` when there is no such workload. */
  async deleteWorkload(id: string, options?: CallOptions): Promise<void> {
    await this.delete(options, {
      path: this.workloadPath(id),
      operation: `delete workload ${id} in workspace ${this.workspace}`,
    });
  }

  /** `GET …/spec`: the workspace's desired state. */
  getSpec(options?: CallOptions): Promise<TenantSpec> {
    return this.get(options, {
      path: `${this.tenantPath()}/spec`,
      schema: TenantSpec,
      operation: `get the spec of workspace ${this.workspace}`,
    });
  }

  /**
   * `POST …/templates` (201). Not idempotent: the service generates the id, so a repeat would
   * save a second template. Retried only when the service provably did not act on it (connection
   * refused, 429, 503); after any other failure, list the templates before trying again.
   */
  createTemplate(body: TemplateCreate, options?: CallOptions): Promise<SavedTemplate> {
    return this.call(options, {
      method: "POST",
      path: `${this.tenantPath()}/templates`,
      body,
      schema: SavedTemplate,
      policy: "unprocessed-only",
      operation: `create template ${body?.name ?? ""} in workspace ${this.workspace}`,
    });
  }

  async listTemplates(options?: CallOptions): Promise<SavedTemplate[]> {
    const list = await this.get(options, {
      path: `${this.tenantPath()}/templates`,
      schema: TemplateList,
      operation: `list templates of workspace ${this.workspace}`,
    });
    return list.templates;
  }

  /** Throws `NotFoundError` when there is no such template. */
  getTemplate(id: string, options?: CallOptions): Promise<SavedTemplate> {
    return this.get(options, {
      path: `${this.tenantPath()}/templates/${enc(id)}`,
      schema: SavedTemplate,
      operation: `get template ${id} in workspace ${this.workspace}`,
    });
  }

  /** Throws `NotFoundError` when there is no such template. */
  async deleteTemplate(id: string, options?: CallOptions): Promise<void> {
    await this.delete(options, {
      path: `${this.tenantPath()}/templates/${enc(id)}`,
      operation: `delete template ${id} in workspace ${this.workspace}`,
    });
  }

  /** `GET …/pulse`: the snapshot to load before opening the stream. */
  getPulse(options?: CallOptions): Promise<Pulse> {
    return this.get(options, {
      path: `${this.tenantPath()}/pulse`,
      schema: Pulse,
      operation: `get the pulse of workspace ${this.workspace}`,
    });
  }

  /** `GET …/activity`: audit rows; with `after`, the rows after that id (oldest first). */
  async listActivity(
    params: { after?: string | number; limit?: number } = {},
    options?: CallOptions,
  ): Promise<ActivityRow[]> {
    const list = await this.get(options, {
      path: `${this.tenantPath()}/activity`,
      query: { after: params.after, limit: params.limit },
      schema: ActivityList,
      operation: `list activity of workspace ${this.workspace}`,
    });
    return list.rows;
  }

  async listAsks(options?: CallOptions): Promise<unknown[]> {
    const list = await this.get(options, {
      path: `${this.tenantPath()}/asks`,
      schema: AskList,
      operation: `list asks of workspace ${this.workspace}`,
    });
    return list.asks;
  }

  /** Paths and update times of the stored secrets; never their values. */
  async listSecrets(options?: CallOptions): Promise<SecretList["secrets"]> {
    const list = await this.get(options, {
      path: `${this.tenantPath()}/secrets`,
      schema: SecretList,
      operation: `list secrets of workspace ${this.workspace}`,
    });
    return list.secrets;
  }

  /** `GET /v1/fleet/hosts`: regions, hosts and their live capacity. */
  getFleetHosts(options?: CallOptions): Promise<FleetHosts> {
    return this.get(options, { path: "/v1/fleet/hosts", schema: FleetHosts, operation: "get the fleet's hosts" });
  }

  /**
   * Listens to the workspace's event stream through the hub: one connection per (base URL,
   * workspace, key) in the process, shared by every listener. Returns the unsubscribe function.
   */
  subscribe(listener: StreamListener): Unsubscribe {
    this.assertOpen("subscribe to events");
    return this.#hub.subscribe(
      {
        connection: this.#connection,
        options: this.options.stream,
        userAgent: this.options.userAgent,
        network: this.options.network,
        clock: this.options.clock,
        random: this.options.random,
      },
      listener,
    );
  }

  /** Gives back the shared connection pool (closed with its last client). Subscriptions live on until unsubscribed. */
  async close(): Promise<void> {
    if (this.#closed) return;
    this.#closed = true;
    this.#lease.release();
  }

  /** A GET: safe to repeat, so retried like any idempotent call. */
  private get<T>(options: CallOptions | undefined, spec: Omit<CallSpec<T>, "method" | "policy">): Promise<T> {
    return this.call(options, { ...spec, method: "GET", policy: "idempotent" });
  }

  /** A DELETE: idempotent too (a repeat finds the resource gone or going); its body is ignored. */
  private async delete(options: CallOptions | undefined, spec: { path: string; operation: string }): Promise<void> {
    await this.call(options, { ...spec, method: "DELETE", policy: "idempotent" });
  }

  private call<T>(options: CallOptions | undefined, spec: CallSpec<T>): Promise<T> {
    try {
      this.assertOpen(spec.operation);
      return this.#requester.call(spec, resolveCallOptions(options, this.options));
    } catch (err) {
      return Promise.reject(err);
    }
  }

  private assertOpen(operation: string): void {
    if (this.#closed)
      throw new WwsError("client_closed", `${operation} failed: the client is closed. Create a new WorkspaceClient.`);
  }

  private tenantPath(): string {
    return `/v1/tenants/${enc(this.workspace)}`;
  }

  private workloadPath(id: string): string {
    return `${this.tenantPath()}/workloads/${enc(id)}`;
  }
}
