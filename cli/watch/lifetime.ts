/** The signals that end the watch with 0: Ctrl-C, `kill`/`systemctl stop`, a closed terminal. */
const STOP_SIGNALS = ["SIGINT", "SIGTERM", "SIGHUP"] as const;

/** How often the parent is looked for, when npm started the watch (a system call, no file read). */
const PARENT_POLL_MS = 1000;

export interface Lifetime {
  /** Resolves with why, at the first stop signal or when npm's process is gone. */
  readonly stopped: Promise<string>;
  readonly stopping: boolean;
  release(): void;
}

/**
 * When the watch stops. Started by `npx` (npm sets `npm_command`), the watch runs under npm's
 * shell; npm does not pass a SIGTERM of its own on, and dies, leaving the watch to init: so the
 * watch also ends once its parent is gone (its parent process id changes).
 */
export function watchLifetime(env: NodeJS.ProcessEnv): Lifetime {
  let stopping = false;
  let resolve: (why: string) => void = () => undefined;
  const stopped = new Promise<string>((r) => (resolve = r));
  const stop = (why: string): void => {
    stopping = true;
    resolve(why);
  };
  const handlers = STOP_SIGNALS.map((s) => [s, () => stop(s)] as const);
  // Kept until released, not `once`: execa's signal-exit, loaded by a `pulumi` run under way, kills
  // the process again with the signal when it finds itself the signal's only listener.
  for (const [s, h] of handlers) process.on(s, h);
  const parent = process.ppid;
  const poll =
    env.npm_command !== undefined
      ? setInterval(() => {
          if (process.ppid !== parent) stop(`its parent process (${parent}, npm) ended`);
        }, PARENT_POLL_MS)
      : undefined;
  poll?.unref();
  return {
    stopped,
    get stopping() {
      return stopping;
    },
    release() {
      clearInterval(poll);
      for (const [s, h] of handlers) process.off(s, h);
    },
  };
}
