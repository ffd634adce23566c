import { Watch } from "../../watch/watcher";
import { lineOf, type Finding } from "../../watch/finding";
import { stacksToWatch } from "./targets";
import type { WatchArgs } from "./args";

interface Io {
  out: (line: string) => void;
  err: (line: string) => void;
}

/** Exit status of `--exit-on-drift` at a finding. */
const DRIFT_EXIT = 3;

/** Past this after SIGINT/SIGTERM or the first finding, the process exits whatever is still running. */
const EXIT_GRACE_MS = 3000;

const now = (): string => new Date().toISOString().slice(11, 19);

/** `pulumi-wws watch`: runs until SIGINT/SIGTERM (0), or the first finding with `--exit-on-drift` (3). */
export async function runWatch(args: WatchArgs, env: NodeJS.ProcessEnv, io: Io): Promise<number> {
  const { stacks, placeOf } = await stacksToWatch(args, env);
  let finish: (code: number) => void = () => undefined;
  const ended = new Promise<number>((resolve) => (finish = resolve));
  const onFinding = (f: Finding): void => {
    io.out(args.json ? JSON.stringify(f) : `${now()} ${lineOf(f)}`);
    if (args.exitOnDrift && f.kind !== "reverted") finish(DRIFT_EXIT);
  };
  const watch = new Watch({
    stacks,
    placeOf,
    env,
    revert: args.revert,
    statusEveryMs: args.statusEverySeconds * 1000,
    resyncEveryMs: args.resyncEverySeconds * 1000,
    onFinding,
    onStatus: (line) => (args.json ? io.err(`${now()} ${line}`) : io.out(`${now()} ${line}`)),
  });
  const stop = (): void => finish(0);
  process.once("SIGINT", stop);
  process.once("SIGTERM", stop);
  try {
    await watch.start();
    const line = `watching ${watch.watched} of stack ${stacks.join(", ")}${args.revert ? " (reverting in-place drift)" : ""}`;
    if (args.json) io.err(`${now()} ${line}`);
    else io.out(`${now()} ${line}`);
    return await ended;
  } finally {
    process.off("SIGINT", stop);
    process.off("SIGTERM", stop);
    // A call or a `pulumi` run still under way must not keep a stopped watch alive.
    setTimeout(() => process.exit(), EXIT_GRACE_MS).unref();
    await watch.stop();
  }
}
