import * as fs from "node:fs";
import * as path from "node:path";
import { LocalWorkspace, PulumiCommand } from "@pulumi/pulumi/automation";

/** Where a stack's project is and the environment its commands run with. @default this process's */
export interface StackPlace {
  cwd?: string;
  env?: NodeJS.ProcessEnv;
  /** The stack's name in its project, where the watch names it otherwise (`project/stack` across projects). @default the watch's name */
  stack?: string;
}

/** The name `pulumi` knows the stack `watched` of `place` by. */
export function stackNameAt(watched: string, place: StackPlace): string {
  return place.stack ?? watched;
}

/** The `pulumi` of `env`'s PATH (the one a user's commands run), else the Automation API's default. */
function pulumiRootOf(env: NodeJS.ProcessEnv): string | undefined {
  for (const dir of (env.PATH ?? "").split(path.delimiter).filter(Boolean))
    if (fs.existsSync(path.join(dir, "pulumi"))) return path.dirname(dir);
  return undefined;
}

/** The Automation API's workspace of the project at `place`, run with its environment and its `pulumi`. */
export async function workspaceAt(place: StackPlace): Promise<LocalWorkspace> {
  const env = place.env ?? process.env;
  const root = pulumiRootOf(env);
  const pulumiCommand = await PulumiCommand.get(root ? { root, skipVersionCheck: true } : { skipVersionCheck: true });
  const envVars = Object.fromEntries(Object.entries(env).filter((e): e is [string, string] => e[1] !== undefined));
  return LocalWorkspace.create({ workDir: place.cwd ?? process.cwd(), envVars, pulumiCommand });
}
