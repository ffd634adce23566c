import * as fs from "node:fs";
import { rehearse, reportMarkdown, reportText } from "../../rehearse";
import type { Io } from "../../command-line";
import type { RehearseArgs } from "./args";

/** Exit status when the rehearsal itself could not run. */
const COULD_NOT_REHEARSE = 2;

/** `pulumi-wws rehearse`: the library's rehearsal, printed; resolves to its exit status (0, 1 or 2). */
export async function runRehearse(args: RehearseArgs, env: NodeJS.ProcessEnv, io: Io): Promise<number> {
  let report;
  try {
    report = await rehearse({
      stack: args.stack,
      destroy: args.destroy,
      env,
      onProgress: (line) => io.err(`pulumi-wws rehearse: ${line}`),
    });
  } catch (err) {
    io.err(`pulumi-wws rehearse: could not rehearse: ${err instanceof Error ? err.message : String(err)}`);
    return COULD_NOT_REHEARSE;
  }
  if (args.markdown !== undefined) fs.writeFileSync(args.markdown, `${reportMarkdown(report)}\n`);
  io.out(args.json ? JSON.stringify(report, null, 2) : reportText(report));
  return report.exitCode;
}
