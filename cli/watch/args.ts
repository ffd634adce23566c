import { parseFlagsInOrder, UsageError, type FlagToken } from "../../command-line";
import { parseListenAddress } from "../../watch/deliver/listen-address";
import { webhookTarget } from "../../watch/deliver/webhook-target";

export const WATCH_USAGE = `Usage: pulumi-wws watch [--stack NAME]... [--json] [--exit-on-drift] [--revert]
Run in the stack's project directory. Learns from each stack's state which workloads it manages and
how to reach them (through the Automation API: any backend and secrets provider), holds one
event stream per workspace, and reports every change made outside Pulumi as it happens: a field
changed (recorded → live, secrets never shown, and who made it where the service says), a workload
deleted or restarted outside Pulumi, a workload turned Failed (health, not drift). A \`pulumi up\`
of a watched stack is not drift: the watch waits for it to end and learns the new record.
  --stack NAME       a stack to watch; repeatable (default: the selected one)
  --project DIR      watch the stacks of another project too: each --stack after it is one of its
                     stacks (none: its selected one); repeatable. Across projects a stack is named
                     project/stack, and one event stream serves each workspace
  --config FILE      the projects to watch, in JSON: {"projects": [{"dir": "../infra", "stacks":
                     ["prod"], "env": {"PULUMI_CONFIG_PASSPHRASE_FILE": "/etc/wws/infra.pass"}}]};
                     dir relative to the file, env set for that project's pulumi commands
  --json             one JSON object per finding on stdout
  --exit-on-drift    exit 3 at the first finding (for a CI job that waits on it)
  --revert           put back a drifted field that updates in place to the value the stack's state
                     records (never the program's), only when the program has no edit of it not yet
                     applied; "reverted" once read back. Never a replacement, a delete, a login or
                     a database; a resource changed again within 10 minutes of a revert is reported
                     as contested and left alone
  --status-every S   seconds between status lines (default 60); a workspace whose event stream is
                     refused or not open is said at once, and named in every status line
  --resync-every S   seconds between comparisons of everything, whatever the streams say (default 600)
  --webhook URL      POST each finding there as JSON (the --json object, its findingId for dedupe), signed
                     with WWS_WEBHOOK_SECRET when set (X-WWS-Signature-256: sha256=<HMAC of the body>);
                     repeatable; retried, never holding the watch back; a failing one is said on stderr
  --webhook-format F json (default) or slack: {"text": …} for Slack's and Teams' incoming webhooks
  --webhook-retry-for S  seconds a finding is retried before it is dropped (default 600)
  --listen HOST:PORT serve /metrics (Prometheus) and /healthz there, e.g. 127.0.0.1:9464
  --help             this text
SIGINT or SIGTERM ends it. The connection is the provider's (resource settings, stack config, environment).`;

export interface WatchArgs {
  /** Stacks of the project in the working directory. */
  stacks: string[];
  /** `--project DIR` and the `--stack`s after it. */
  projects: Array<{ dir: string; stacks: string[] }>;
  config?: string;
  json: boolean;
  exitOnDrift: boolean;
  revert: boolean;
  statusEverySeconds: number;
  resyncEverySeconds: number;
  webhooks: string[];
  webhookFormat: "json" | "slack";
  webhookRetryForSeconds: number;
  listen: string | undefined;
  help: boolean;
}

function seconds(flag: string, text: string): number {
  const n = Number(text);
  if (!Number.isInteger(n) || n < 1) throw new UsageError(`${flag}: expected a whole number of seconds, got ${text}`);
  return n;
}

/** `make()`'s value, its error a usage error. */
function checked<T>(make: () => T): T {
  try {
    return make();
  } catch (err) {
    if (err instanceof UsageError) throw err;
    throw new UsageError(err instanceof Error ? err.message : String(err));
  }
}

function format(text: string): "json" | "slack" {
  if (text !== "json" && text !== "slack")
    throw new UsageError(`--webhook-format: expected json or slack, got ${text}`);
  return text;
}

const FLAGS = {
  stack: { type: "string", short: "s", multiple: true },
  project: { type: "string", multiple: true },
  config: { type: "string" },
  json: { type: "boolean" },
  "exit-on-drift": { type: "boolean" },
  revert: { type: "boolean" },
  "status-every": { type: "string" },
  "resync-every": { type: "string" },
  webhook: { type: "string", multiple: true },
  "webhook-format": { type: "string" },
  "webhook-retry-for": { type: "string" },
  listen: { type: "string" },
  help: { type: "boolean", short: "h" },
} as const;

/** The `--stack`s before any `--project`, and each `--project` with the `--stack`s after it. */
function stacksByProject(tokens: FlagToken[]): Pick<WatchArgs, "stacks" | "projects"> {
  const stacks: string[] = [];
  const projects: WatchArgs["projects"] = [];
  for (const { name, value } of tokens) {
    if (name === "project") projects.push({ dir: value ?? "", stacks: [] });
    else if (name === "stack") (projects.at(-1)?.stacks ?? stacks).push(value ?? "");
  }
  return { stacks, projects };
}

/** Parses the flags of `pulumi-wws watch`. */
export function parseWatchArgs(argv: readonly string[]): WatchArgs {
  const { values: given, tokens } = parseFlagsInOrder(argv, FLAGS);
  const webhooks = (given.webhook ?? []).map((url, i) => checked(() => webhookTarget(url, i + 1).url));
  if (given.listen !== undefined) checked(() => parseListenAddress(given.listen ?? ""));
  const args: WatchArgs = {
    ...stacksByProject(tokens),
    config: given.config,
    json: given.json ?? false,
    exitOnDrift: given["exit-on-drift"] ?? false,
    revert: given.revert ?? false,
    statusEverySeconds: given["status-every"] === undefined ? 60 : seconds("--status-every", given["status-every"]),
    resyncEverySeconds: given["resync-every"] === undefined ? 600 : seconds("--resync-every", given["resync-every"]),
    webhooks,
    webhookFormat: given["webhook-format"] === undefined ? "json" : format(given["webhook-format"]),
    webhookRetryForSeconds:
      given["webhook-retry-for"] === undefined ? 600 : seconds("--webhook-retry-for", given["webhook-retry-for"]),
    listen: given.listen,
    help: given.help ?? false,
  };
  if (args.revert && args.exitOnDrift) throw new UsageError("--revert and --exit-on-drift: choose one");
  return args;
}
