import { projectStacks, type WatchedStacks } from "../../watch/projects";
import { StackSource } from "../../watch/stack";
import type { WatchArgs } from "./args";
import { readWatchConfig } from "./config-file";

/**
 * The stacks `pulumi-wws watch` watches: those of the working directory's project (the selected
 * one by default), or, with `--project` or `--config`, those of every project named, the working
 * directory's `--stack`s among them.
 */
export async function stacksToWatch(
  args: Pick<WatchArgs, "stacks" | "projects" | "config">,
  env: NodeJS.ProcessEnv,
): Promise<Partial<WatchedStacks> & { stacks: string[] }> {
  const others = [...args.projects, ...(args.config ? readWatchConfig(args.config) : [])];
  if (others.length === 0)
    return { stacks: args.stacks.length > 0 ? args.stacks : [await new StackSource("", { env }).selected()] };
  const here = args.stacks.length > 0 ? [{ dir: ".", stacks: args.stacks }] : [];
  return projectStacks([...here, ...others], env);
}
