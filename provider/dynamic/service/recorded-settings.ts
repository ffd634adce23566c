import { createHash } from "node:crypto";
import type { Connection, ResolvedConnection } from "./connection";
import { settingSource } from "./setting-source";

/**
 * Which key a `pulumi destroy` or `pulumi refresh` uses. The engine configures the provider of
 * either with the stack config its default provider recorded at the last `up` (seen: a wrong
 * `wws:apiKey` failed `preview`, and `destroy` deleted every workload with the recorded key, saying
 * nothing). The provider cannot know the config as it is now without the CLI, which would decrypt
 * the whole stack config into this process, on every refresh's path: instead each key the command
 * uses is said once, on the Stack row, with a short fingerprint a user can compare with theirs.
 * A destroy's preview calls no provider method, so a destroy says it at its first delete.
 */

/** The commands whose provider is configured with the recorded config: what `engine/host.ts` reads. */
export type RecordedConfigCommand = "destroy" | "refresh";

/** `sha256:1a2b3c4d`: the first 8 hex digits of the SHA-256 of `key`; never the key itself. */
export function keyFingerprint(key: string): string {
  return `sha256:${createHash("sha256").update(key, "utf8").digest("hex").slice(0, 8)}`;
}

/** How a user computes the fingerprint of a key they hold, to compare. */
const FINGERPRINT_HOWTO = 'printf %s "$KEY" | sha256sum | cut -c1-8';

/**
 * The Stack row's note of the key `command` uses for `conn`, once per key, workspace and base URL
 * per process; undefined when already said. `resolved`: where each setting was found.
 */
export class KeyNotes {
  private readonly said = new Set<string>();

  constructor(private readonly command: RecordedConfigCommand | undefined) {}

  noteFor(resolved: Pick<ResolvedConnection, "from">, conn: Connection): string | undefined {
    if (this.command === undefined) return undefined;
    const fingerprint = keyFingerprint(conn.connection.apiKey);
    const said = `${fingerprint}\n${conn.workspace}\n${conn.baseUrl}`;
    if (this.said.has(said)) return undefined;
    this.said.add(said);
    const from = resolved.from.apiKey;
    const where = settingSource("apiKey", resolved).where;
    const recorded =
      from === "config"
        ? `${where} as recorded at the last \`pulumi up\`: this command does not read the config as it is now`
        : from === "args"
          ? `${where}, as recorded in the resource's state`
          : where;
    const current =
      from === "config"
        ? `. To use the config's current key, run \`pulumi up\` first (a change of connection settings alone sends nothing)`
        : "";
    return (
      `this ${this.command} uses the API key ${fingerprint} (${recorded}) for workspace ${conn.workspace} at ${conn.baseUrl}; ` +
      `compare with your key's fingerprint: ${FINGERPRINT_HOWTO}${current}`
    );
  }
}
