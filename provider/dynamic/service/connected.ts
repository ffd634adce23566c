import { ConnectionError, ForbiddenError, UnauthorizedError } from "../../../sdk";
import { rootOf } from "./preflight";
import { requireResolved, type Connection, type ResolvedConnection } from "./connection";
import { guarded } from "../credentials/redacted-errors";
import { settingSource } from "./setting-source";
import { clauseOf } from "../inputs/failures";

/**
 * Runs the body of a provider method with the connection its settings resolved to (resource
 * arguments, then stack config, then environment: `resolved`, made once at the top of the method).
 * Whatever it throws leaves redacted of `secrets`, a missing or invalid setting included; a
 * rejected key or an unreachable service names the setting it came from.
 */
export function connected<T>(
  resolved: ResolvedConnection,
  secrets: readonly string[],
  body: (conn: Connection) => Promise<T>,
): Promise<T> {
  return guarded(
    () => secrets,
    async () => {
      const conn = requireResolved(resolved);
      try {
        return await body(conn);
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
