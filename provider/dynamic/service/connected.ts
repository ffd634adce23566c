import { requireConnection, type Connection } from "./connection";
import type { ProviderContext } from "../context";
import { guarded } from "../credentials/redacted-errors";

/**
 * Runs the body of a provider method with the connection `settings` resolve to (resource
 * arguments, then stack config, then environment). Whatever it throws leaves redacted of
 * `secrets`, a missing or invalid setting included.
 */
export function connected<T>(
  ctx: ProviderContext,
  settings: Readonly<Record<string, unknown>>,
  secrets: readonly string[],
  body: (conn: Connection) => Promise<T>,
): Promise<T> {
  return guarded(
    () => secrets,
    async () => body(requireConnection(settings, ctx.sources())),
  );
}
