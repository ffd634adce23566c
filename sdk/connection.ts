import { createHash } from "node:crypto";
import { CONNECTION_SETTING_NAMES, connectionSettingProblem, type ConnectionSetting } from "./connection-check";
import { InvalidOptionError } from "./errors";

/** The three settings every request needs, as a caller gives them (see `ClientOptions`). */
export type ConnectionSettings = Record<ConnectionSetting, string>;

/**
 * How to reach one workspace, checked once: made by `workspaceConnection`, then handed down as it
 * is. Clients, the event hub and the provider's caches identify a connection by `key` instead of
 * each trimming the URL and hashing the API key again. Frozen.
 */
export interface WorkspaceConnection {
  /** `scheme://host[:port][/prefix]`: the URL's origin and path, without trailing slash. */
  readonly baseUrl: string;
  /** The workspace (tenant) name: a DNS label. */
  readonly workspace: string;
  /**
   * The workspace's API key, sent as `x-api-key`. Not enumerable: `JSON.stringify`, `util.inspect`
   * and `{ ...connection }` leave it out.
   */
  readonly apiKey: string;
  /**
   * `<baseUrl>\n<workspace>\n<SHA-256 of the API key, hex>`: the same for the same base URL (however
   * written), workspace and key, different otherwise. Never holds the key itself.
   */
  readonly key: string;
}

/** The connections `workspaceConnection` made: a look-alike object is checked again, not trusted. */
const made = new WeakSet<object>();

/** Whether `value` is a connection `workspaceConnection` made. */
export function isWorkspaceConnection(value: unknown): value is WorkspaceConnection {
  return typeof value === "object" && value !== null && made.has(value);
}

/**
 * The base URL as a connection holds it: the URL's origin and path without trailing slash
 * (`HTTP://Host:80/api/` is `http://host/api`); undefined when it is not a valid base URL (see
 * `connectionSettingProblem`).
 */
export function normalizedBaseUrl(baseUrl: unknown): string | undefined {
  if (connectionSettingProblem("baseUrl", baseUrl) !== undefined) return undefined;
  const url = new URL(baseUrl as string);
  return url.origin + url.pathname.replace(/\/+$/, "");
}

/**
 * The one place a connection is made: checks the three settings (the first invalid one is thrown
 * as an `InvalidOptionError` naming it, never quoting its value) and returns the frozen connection.
 * A connection it made is returned as it is.
 */
export function workspaceConnection(settings: ConnectionSettings | WorkspaceConnection): WorkspaceConnection {
  if (isWorkspaceConnection(settings)) return settings;
  if (typeof settings !== "object" || settings === null) throw new InvalidOptionError("options", "must be an object");
  for (const setting of CONNECTION_SETTING_NAMES) {
    const problem = connectionSettingProblem(setting, settings[setting]);
    if (problem !== undefined) throw new InvalidOptionError(setting, problem);
  }
  const baseUrl = normalizedBaseUrl(settings.baseUrl)!;
  const { workspace, apiKey } = settings;
  const key = `${baseUrl}\n${workspace}\n${createHash("sha256").update(apiKey).digest("hex")}`;
  const connection: WorkspaceConnection = Object.freeze(
    Object.defineProperty({ baseUrl, workspace, key }, "apiKey", { value: apiKey, enumerable: false }),
  ) as WorkspaceConnection;
  made.add(connection);
  return connection;
}
