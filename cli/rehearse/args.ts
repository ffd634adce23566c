import { parseFlags } from "../../command-line";

export const REHEARSE_USAGE = `Usage: pulumi-wws rehearse [--stack NAME] [--json] [--markdown FILE] [--destroy]
Run in the stack's project directory. Runs the stack's change for real against a copy, and says
what \`pulumi up\` would do before \`up\` touches anything:
  1. copies the workspace the stack's config points at (wws:baseUrl, wws:workspace, wws:apiKey) into a
     local service started for the rehearsal, with read-only calls: workloads, templates, the fleet
     and what is free on each host now (passwords cannot be read: the report lists what was not copied);
  2. copies the stack (state and config, secrets re-encrypted under a throwaway passphrase) into a
     throwaway backend pointed at the copy;
  3. runs \`pulumi up\` of the program as it is now on the copy, then a second preview that must be
     clean, and with --destroy a \`pulumi destroy\`.
The real service, the stack, its state and its project dir receive no write; the copies are removed.
  --stack NAME       the stack (default: the selected one)
  --json             the report as one JSON object on stdout
  --markdown FILE    also write the report as Markdown to FILE (for a pull-request comment)
  --destroy          also rehearse \`pulumi destroy\` after the up
  --help             this text
Exit status: 0 the change would work, 1 a step would fail (the first failure is named), 2 could not
rehearse (and why).`;

export interface RehearseArgs {
  stack?: string;
  json: boolean;
  markdown?: string;
  destroy: boolean;
  help: boolean;
}

const FLAGS = {
  stack: { type: "string", short: "s" },
  json: { type: "boolean" },
  markdown: { type: "string" },
  destroy: { type: "boolean" },
  help: { type: "boolean", short: "h" },
} as const;

/** Parses the flags of `pulumi-wws rehearse`. */
export function parseRehearseArgs(argv: readonly string[]): RehearseArgs {
  const given = parseFlags(argv, FLAGS);
  return {
    stack: given.stack,
    json: given.json ?? false,
    markdown: given.markdown,
    destroy: given.destroy ?? false,
    help: given.help ?? false,
  };
}
