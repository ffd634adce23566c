import { ConnectionError, ForbiddenError, UnauthorizedError, type WorkspaceClient } from "../../../sdk";
import type { ProgressReporter } from "../engine/progress";
import type { KeyNotes } from "./recorded-settings";
import { rootOf } from "./preflight";
import {
  requireResolved,
  resolveConnection,
  type Connection,
  type ConnectionSources,
  type ResolvedConnection,
} from "./connection";
import { guarded } from "../credentials/redacted-errors";
import { settingSource } from "./setting-source";
import { clauseOf } from "../inputs/failures";

/** What a provider method's body is handed once its connection is resolved and complete. */
export interface Reached {
  conn: Connection;
  /** The process's client of `conn`, made on first use (shared per connection and network settings). */
  readonly client: WorkspaceClient;
  /** At a refresh or a destroy: says once per key, on the Stack row, which API key is in use (service/recorded-settings.ts). */
  sayKeyInUse(): void;
}

/** What reaching the service takes of the provider's context. */
export interface ServiceAccess {
  /** Stack config and environment, for connection settings. */
  sources(): ConnectionSources;
  client(connection: Connection): WorkspaceClient;
  readonly keyNotes: KeyNotes;
  readonly progress: ProgressReporter;
}

/**
 * Runs the body of a provider method against the service its `settings` name, resolved once here
 * (resource arguments, then stack config, then environment), so that no method digs them out of
 * the context. Whatever it throws leaves redacted of `secrets`, a missing or invalid setting
 * included; a rejected key or an unreachable service names the setting it came from.
 */
export function connected<T>(
  ctx: ServiceAccess,
  settings: Readonly<Record<string, unknown>>,
  secrets: readonly string[],
  body: (reached: Reached) => Promise<T>,
): Promise<T> {
  return guarded(
    () => secrets,
    async () => {
      const resolved = resolveConnection(settings, ctx.sources());
      const conn = requireResolved(resolved);
      const reached: Reached = {
        conn,
        get client() {
          return ctx.client(conn);
        },
        sayKeyInUse() {
          const note = ctx.keyNotes.noteFor(resolved, conn);
          if (note) ctx.progress.note(note);
        },
      };
      try {
        return await body(reached);
      } catch (err) {
        throw withSettingSource(err, resolved);
      }
    },
  );
}

/**
 * `err` with the source of the setting it says is wrong: the API key of a 401 or 403, the base URL
 * of a service that cannot be reached. A refresh or a destroy uses the arguments the state
 * recorded at the last `up`, so an argument's new value is not in use until an `up` records it.
 */
function withSettingSource(err: unknown, r: ResolvedConnection): unknown {
  const cause = rootOf(err);
  const field =
    cause instanceof UnauthorizedError || cause instanceof ForbiddenError
      ? "apiKey"
      : cause instanceof ConnectionError
        ? "baseUrl"
        : undefined;
  if (field === undefined || !(err instanceof Error)) return err;
  const source = settingSource(field, r);
  const what = field === "apiKey" ? "API key" : "base URL";
  const recorded =
    r.from[field] === "args"
      ? "; a refresh or destroy uses the value the last `pulumi up` recorded, so run `pulumi up` first (a change of connection settings alone sends nothing)"
      : "";
  const fix = source.fix(field === "apiKey" ? "a valid API key" : "the base URL");
  return new Error(`${clauseOf(err)}. The ${what} in use comes from ${source.where}. ${fix}${recorded}.`);
}
