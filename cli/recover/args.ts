import { parseFlags } from "../../command-line";

export const RECOVER_USAGE = `Usage: pulumi-wws recover [--yes] [--stack NAME] [--clear-unproven]
Run in the stack's project directory after a killed \`pulumi up\` (and \`pulumi cancel --yes\`).
Reads the stack's pending creates of pulumi-wws resources (pulumi stack export), checks each with
the service (reads only) and prints a plan: a workload that exists and runs exactly the pending
create's type and spec is proven this stack's, and is written into the stack's state
(pulumi stack import, then pulumi refresh of those resources). A pending create whose workload does
not exist is dropped (the next \`pulumi up\` creates it). Nothing is sent to the service.
  --yes              apply the plan (without it, nothing is changed)
  --stack NAME       the stack (default: the selected one)
  --clear-unproven   also drop the pending creates that prove nothing (listed as unproven)
  --help             this text
The connection is the provider's: each resource's own settings, then the stack config
(wws:baseUrl, wws:workspace, wws:apiKey), then WWS_BASE_URL, WWS_WORKSPACE, WWS_API_KEY.`;

export interface RecoverArgs {
  yes: boolean;
  stack?: string;
  clearUnproven: boolean;
  help: boolean;
}

const FLAGS = {
  yes: { type: "boolean", short: "y" },
  stack: { type: "string", short: "s" },
  "clear-unproven": { type: "boolean" },
  help: { type: "boolean", short: "h" },
} as const;

/** Parses the flags of `pulumi-wws recover`. */
export function parseRecoverArgs(argv: readonly string[]): RecoverArgs {
  const given = parseFlags(argv, FLAGS);
  return {
    yes: given.yes ?? false,
    stack: given.stack,
    clearUnproven: given["clear-unproven"] ?? false,
    help: given.help ?? false,
  };
}
