import { parseFlags, UsageError } from "../../command-line";

/** Flags of `pulumi-wws import`. The API key comes only from the environment: a flag would land in shell history and `ps`. */
export const IMPORT_USAGE = `Usage: pulumi-wws import --workspace NAME --out DIR [options]
Reads a live workspace (its workloads and templates) and writes a Pulumi TypeScript project that
takes them over on its first \`pulumi up\` without changing them.
  --workspace NAME   the workspace to read (or WWS_WORKSPACE)
  --base-url URL     the service (or WWS_BASE_URL)
  --out DIR          where to write the project; must not exist or be empty
  --project NAME     the Pulumi project name (default wws-<workspace>)
  --help             this text
The API key is read from WWS_API_KEY (never a flag); it is not written anywhere.`;

export interface ImportArgs {
  workspace: string;
  baseUrl: string;
  apiKey: string;
  out: string;
  project: string;
  help: boolean;
}

const FLAGS = {
  workspace: { type: "string" },
  "base-url": { type: "string" },
  out: { type: "string" },
  project: { type: "string" },
  help: { type: "boolean", short: "h" },
} as const;

/** Parses the flags, then fills the connection from `env`; names what is missing and how to set it. */
export function parseImportArgs(argv: readonly string[], env: NodeJS.ProcessEnv): ImportArgs {
  if (argv.some((arg) => arg === "--api-key" || arg.startsWith("--api-key=")))
    throw new UsageError("--api-key: not a flag, so that the key stays out of shell history; set WWS_API_KEY");
  const given = parseFlags(argv, FLAGS);
  if (given.help) return { workspace: "", baseUrl: "", apiKey: "", out: "", project: "", help: true };
  const workspace = given.workspace ?? env.WWS_WORKSPACE;
  const baseUrl = given["base-url"] ?? env.WWS_BASE_URL;
  const apiKey = env.WWS_API_KEY;
  if (!workspace) throw new UsageError("no workspace: pass --workspace NAME or set WWS_WORKSPACE");
  if (!baseUrl) throw new UsageError("no service URL: pass --base-url URL or set WWS_BASE_URL");
  if (!apiKey) throw new UsageError("no API key: set WWS_API_KEY to the workspace's key");
  if (!given.out) throw new UsageError("no output directory: pass --out DIR");
  return { workspace, baseUrl, apiKey, out: given.out, project: given.project ?? `wws-${workspace}`, help: false };
}
