import { Watch } from "../../watch/watcher";
import { lineOf, type Finding } from "../../watch/finding";
import { startDelivery, type Delivery } from "../../watch/deliver";
import { stacksToWatch } from "./targets";
import { watchLifetime, type Lifetime } from "./lifetime";
import type { Io } from "../../command-line";
import type { WatchArgs } from "./args";

/** Exit status of `--exit-on-drift` at a finding. */
const DRIFT_EXIT = 3;

/** Past this after SIGINT/SIGTERM or the first finding, the process exits whatever is still running. */
const EXIT_GRACE_MS = 3000;

const now = (): string => new Date().toISOString().slice(11, 19);

/**
 * `pulumi-wws watch`: runs until SIGINT, SIGTERM or SIGHUP (0; a signal while it reads the stacks
 * ends it as quietly), or the first finding with `--exit-on-drift` (3).
 */
export async function runWatch(args: WatchArgs, env: NodeJS.ProcessEnv, io: Io): Promise<number> {
  const lifetime = watchLifetime(env);
  let watch: Watch | undefined;
  let delivery: Delivery | undefined;
  try {
    // Webhooks and --listen first: a taken port fails before the stacks are read.
    delivery = await startDelivery({
      webhooks: args.webhooks.map((url) => ({ url, format: args.webhookFormat })),
      retry: { retryForMs: args.webhookRetryForSeconds * 1000 },
      listen: args.listen,
      env,
      say: (line) => io.err(`${now()} ${line}`),
    });
    const deliver = delivery;
    const { stacks, placeOf } = await stopsFirst(lifetime, stacksToWatch(args, env));
    let finish: (code: number) => void = () => undefined;
    const ended = new Promise<number>((resolve) => (finish = resolve));
    void lifetime.stopped.then(() => finish(0));
    const onFinding = (f: Finding): void => {
      io.out(args.json ? JSON.stringify(f) : `${now()} ${lineOf(f)}`);
      deliver.onFinding(f);
      if (args.exitOnDrift) finish(DRIFT_EXIT);
    };
    // What a `pulumi` command killed by the same Ctrl-C says is no news once stopping.
    const say = (line: string): void =>
      lifetime.stopping ? undefined : args.json ? io.err(`${now()} ${line}`) : io.out(`${now()} ${line}`);
    watch = new Watch({
      stacks,
      placeOf,
      env,
      revert: args.revert,
      statusEveryMs: args.statusEverySeconds * 1000,
      resyncEveryMs: args.resyncEverySeconds * 1000,
      onFinding,
      onCompared: deliver.onCompared,
      onStatus: say,
    });
    await stopsFirst(lifetime, watch.start());
    deliver.watching(watch);
    if (deliver.url) io.err(`${now()} serving /metrics and /healthz at ${deliver.url}`);
    say(`watching ${watch.watched} of stack ${stacks.join(", ")}${args.revert ? " (reverting in-place drift)" : ""}`);
    return await ended;
  } catch (err) {
    if (lifetime.stopping) return 0;
    throw err;
  } finally {
    lifetime.release();
    // A call or a `pulumi` run still under way must not keep a stopped watch alive.
    setTimeout(() => process.exit(), EXIT_GRACE_MS).unref();
    // What the webhooks still hold gets most of the grace.
    await Promise.all([watch?.stop(), delivery?.close(EXIT_GRACE_MS - 1000)]);
  }
}

class Stopped extends Error {}

/** `task`, unless the watch is stopped first (then it rejects with `Stopped`, and `task`'s own end is ignored). */
function stopsFirst<T>(lifetime: Lifetime, task: Promise<T>): Promise<T> {
  task.catch(() => undefined);
  return Promise.race([task, lifetime.stopped.then(() => Promise.reject(new Stopped()))]);
}
