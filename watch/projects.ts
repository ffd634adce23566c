/**
 * Many projects in one watch: each project directory's stacks, named `project/stack` (the project's
 * name in its Pulumi.yaml) when there is more than one project, run in that directory with the
 * project's environment. The watch holds one event stream per workspace across all of them.
 */
import * as path from "node:path";
import { projectNameAt, type StackPlace } from "../automation/place";
import { listStacksAt } from "./stack";

/** A project directory and the stacks of it to watch. */
export interface ProjectStacks {
  dir: string;
  /** @default the project's selected stack */
  stacks?: string[];
  /** Set for this project's `pulumi` commands, over the process's environment (`PULUMI_BACKEND_URL`, `PULUMI_CONFIG_PASSPHRASE_FILE`). */
  env?: Record<string, string>;
}

/** What a `Watch` takes: the names it knows the stacks by, and where each one is. */
export interface WatchedStacks {
  stacks: string[];
  placeOf(stack: string): StackPlace;
}

/** Reads each project's name (and its selected stack where none is named); fails naming the directory. */
export async function projectStacks(projects: ProjectStacks[], env: NodeJS.ProcessEnv): Promise<WatchedStacks> {
  const places = new Map<string, StackPlace>();
  const qualify = projects.length > 1;
  for (const p of projects) {
    const dir = path.resolve(p.dir);
    const place = { cwd: dir, env: { ...env, ...p.env } };
    let project: string;
    try {
      project = projectNameAt(place);
    } catch (err) {
      throw new Error(
        `${p.dir}: not a Pulumi project (no Pulumi.yaml there): ${err instanceof Error ? err.message : String(err)}`,
      );
    }
    let names = p.stacks ?? [];
    if (names.length === 0) {
      const selected = (await listStacksAt(place)).find((s) => s.current)?.name;
      if (!selected)
        throw new Error(
          `${p.dir}: no stack is selected there: name one with --stack after --project, or in the config file`,
        );
      names = [selected];
    }
    for (const stack of names) {
      const label = qualify ? `${project}/${stack}` : stack;
      const other = places.get(label);
      if (other)
        throw new Error(
          `stack ${label} is named twice (${other.cwd} and ${dir}): watch each stack once; two projects need two names`,
        );
      places.set(label, { ...place, stack });
    }
  }
  return {
    stacks: [...places.keys()],
    placeOf: (stack) => places.get(stack) ?? {},
  };
}
