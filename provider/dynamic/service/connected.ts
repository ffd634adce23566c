import { ConnectionError, ForbiddenError, UnauthorizedError } from "../../../sdk";
import { rootOf } from "./preflight";
import { requireConnection, resolveConnection, type Connection, type ConnectionSources } from "./connection";
import type { ProviderContext } from "../context";
import { guarded } from "../credentials/redacted-errors";
import { settingSource } from "./setting-source";
import { clauseOf } from "../inputs/failures";

/**
 * Runs the body of a provider method with the connection `settings` resolve to (resource
 * arguments, then stack config, then environment). Whatever it throws leaves redacted of
 * `secrets`, a missing or invalid setting included; a rejected key or an unreachable service
 * names the setting it came from.
 */
export function connected<T>(
  ctx: ProviderContext,
  settings: Readonly<Record<string, unknown>>,
  secrets: readonly string[],
  body: (conn: Connection) => Promise<T>,
): Promise<T> {
  return guarded(
    () => secrets,
    async () => {
      const sources = ctx.sources();
      const conn = requireConnection(settings, sources);
      try {
        return await body(conn);
      } catch (err) {
        throw withSettingSource(err, settings, sources);
      }
    },
  );
}

/**
 * `err` with the source of the setting it says is wrong: the API key of a 401 or 403, the base URL
 * of a service that cannot be reached. A refresh or a destroy uses the arguments the state
 * recorded at the last `up`, so an argument's new value is not in use until an `up` records it.
 */
function withSettingSource(
  err: unknown,
  settings: Readonly<Record<string, unknown>>,
  sources: ConnectionSources,
): unknown {
  const cause = rootOf(err);
  const field =
    cause instanceof UnauthorizedError || cause instanceof ForbiddenError
      ? "apiKey"
      : cause instanceof ConnectionError
        ? "baseUrl"
        : undefined;
  if (field === undefined || !(err instanceof Error)) return err;
  const r = resolveConnection(settings, sources);
  const source = settingSource(field, r);
  const what = field === "apiKey" ? "API key" : "base URL";
  const recorded =
    r.from[field] === "args"
      ? "; a refresh or destroy uses the value the last `pulumi up` recorded, so run `pulumi up` first (a change of connection settings alone sends nothing)"
      : "";
  const fix = source.fix(field === "apiKey" ? "a valid API key" : "the base URL");
  return new Error(`${clauseOf(err)}. The ${what} in use comes from ${source.where}. ${fix}${recorded}.`);
}
