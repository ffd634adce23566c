import { execFile } from "node:child_process";
import { CONNECTION_SETTINGS, type Connection, type ResolvedConnection } from "./connection";

/**
 * Which connection a delete uses when the stack config now gives another. The engine configures
 * the provider of a `pulumi destroy` with the stack config its default provider recorded at the last
 * `up`, and the resource's state holds that `up`'s base URL and workspace: a key or URL set since is
 * not the one used (seen: a wrong `wws:apiKey` failed `preview`, and `destroy` deleted every workload
 * with the recorded key, saying nothing). The config as the CLI gives it now is read once per
 * process (`pulumi config --json --show-secrets` in the project directory, the provider's); where
 * it differs, the row says which one is used and how to use the current one. Nothing is said when
 * the CLI cannot tell (not on PATH, no passphrase, an inline program with no project file).
 */

/** The text values of `pulumi config --json --show-secrets`'s output, by key (`wws:apiKey`). Throws on text that is not JSON. */
export function stackConfigValues(json: string): Record<string, string> {
  const parsed = JSON.parse(json) as Record<string, { value?: unknown }>;
  return Object.fromEntries(
    Object.entries(parsed).flatMap(([k, v]) => (typeof v?.value === "string" ? [[k, v.value]] : [])),
  );
}

let current: Promise<Record<string, string> | undefined> | undefined;

/** The stack config `pulumi config` gives now for `stack` (the selected one for ""), or undefined when it cannot. */
function currentConfig(stack: string): Promise<Record<string, string> | undefined> {
  current ??= new Promise((resolve) =>
    execFile(
      "pulumi",
      ["config", "--json", "--show-secrets", ...(stack === "" ? [] : ["--stack", stack]), "--non-interactive"],
      { timeout: 10_000, maxBuffer: 4 * 1024 * 1024 },
      (err, stdout) => {
        if (err) return resolve(undefined);
        try {
          resolve(stackConfigValues(stdout));
        } catch {
          resolve(undefined);
        }
      },
    ),
  );
  return current;
}

const WORDS = { baseUrl: "base URL", workspace: "workspace", apiKey: "API key" } as const;

/**
 * What the row of a delete or a refresh (`command`) says when a setting it uses differs from the
 * stack config's now, or undefined. `resolved`: the state's settings as the method resolved them;
 * `conn`: the connection they made; `stack`: the resource's (from its URN), else the running command's ("" for the selected
 * one); nothing is said outside the provider host, where neither is known.
 */
export async function recordedSettingsNote(
  command: "delete" | "refresh",
  urnOrStack: { urn?: string; stack?: string },
  resolved: Pick<ResolvedConnection, "from">,
  conn: Connection,
): Promise<string | undefined> {
  const stack = /^urn:pulumi:([^:]+)::/.exec(urnOrStack.urn ?? "")?.[1] ?? urnOrStack.stack;
  if (stack === undefined) return undefined;
  const now = await currentConfig(stack);
  if (now === undefined) return undefined;
  const { from } = resolved;
  const used = { baseUrl: conn.baseUrl, workspace: conn.workspace, apiKey: conn.connection.apiKey };
  const differing = (Object.keys(WORDS) as Array<keyof typeof WORDS>).filter((field) => {
    const given = now[CONNECTION_SETTINGS[field].config];
    // An argument of the program is the program's to change, not the config's; the key from the environment is current.
    if (given === undefined || from[field] === "env" || (field === "apiKey" && from[field] === "args")) return false;
    return field === "baseUrl" ? given.replace(/\/+$/, "") !== used.baseUrl.replace(/\/+$/, "") : given !== used[field];
  });
  if (differing.length === 0) return undefined;
  const what = differing.map((f) => `${WORDS[f]} (${CONNECTION_SETTINGS[f].config})`).join(", ");
  return (
    `this ${command} uses the ${what} recorded at the last \`pulumi up\`; the stack config now gives another. ` +
    `To act with the current one, run \`pulumi up\` first (its preview checks it; a change of connection settings alone sends nothing), then ${command === "delete" ? "destroy" : "refresh"}`
  );
}
