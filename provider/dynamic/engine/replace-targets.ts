import * as fs from "node:fs";
import { findEngineProcess } from "./watchdog";

/**
 * The resources `pulumi up --replace <urn>` (or `--target-replace`, or `pulumi preview` with
 * either) asks to replace. For those the engine calls `check` without the resource's state and
 * never calls `diff` (pkg/resource/deploy/step_generator.go, `isTargetedReplace`), so `check`
 * alone would take the resource for a new one whose id is somebody else's. The engine tells a
 * provider nothing of it: the flags are read from the command line of the `pulumi` process that
 * started this one (`/proc/<pid>/cmdline`, Linux only; elsewhere nothing is found).
 * `pulumi state taint` marks a resource for the same replacement inside the state, out of sight.
 */
export interface ReplaceTargets {
  /** Whether the running command names `urn` (a URN, or a glob of `*` and `**`) for replacement. */
  has(urn: string): boolean;
}

const REPLACE_FLAGS = ["--replace", "--target-replace"];

/** The values of `--replace` and `--target-replace` in `argv`, as `--flag value` or `--flag=value`. */
export function replaceTargetsOf(argv: readonly string[]): string[] {
  const targets: string[] = [];
  for (let i = 0; i < argv.length; i++) {
    const arg = argv[i];
    if (arg === "--") break;
    if (REPLACE_FLAGS.includes(arg) && i + 1 < argv.length) targets.push(argv[++i]);
    else {
      const flag = REPLACE_FLAGS.find((f) => arg.startsWith(`${f}=`));
      if (flag) targets.push(arg.slice(flag.length + 1));
    }
  }
  return targets;
}

/** The engine's rule (`UrnTargets.getMatcher`): `**` matches anything, `*` anything but `:`. */
function globMatcher(glob: string): RegExp {
  const quote = (s: string): string => s.replace(/[.*+?^${}()|[\]\\]/g, "\\$&");
  const segments = glob.split("**").map((part) => part.split("*").map(quote).join("[^:]*"));
  return new RegExp(`^${segments.join(".*")}$`);
}

export function replaceTargets(targets: readonly string[]): ReplaceTargets {
  const literals = new Set(targets.filter((t) => !t.includes("*")));
  const globs = targets.filter((t) => t.includes("*")).map(globMatcher);
  return { has: (urn) => literals.has(urn) || globs.some((g) => g.test(urn)) };
}

/** The command line of the nearest `pulumi` ancestor of this process; empty when none is found. */
export function engineArgv(): string[] {
  const engine = findEngineProcess();
  if (engine === undefined) return [];
  try {
    return fs.readFileSync(`/proc/${engine.pid}/cmdline`, "utf8").split("\0").filter(Boolean);
  } catch {
    return [];
  }
}
