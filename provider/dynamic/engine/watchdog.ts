import * as fs from "node:fs";
import * as net from "node:net";

/**
 * Notices that the engine which started this dynamic provider process is gone, so that the process
 * does not outlive it: a CLI killed mid-`up` (a CI runner's SIGKILL) leaves the provider's waits,
 * timers and event streams open, and the gRPC server alone keeps the process alive for ever.
 *
 * The engine starts `pulumi-resource-pulumi-nodejs`, a shell script that runs node without `exec`,
 * so the parent of this process is usually the shell, which outlives a killed engine. Two signals,
 * either one enough:
 * - the nearest ancestor named `pulumi` (the engine) has exited or is a zombie; its start time is
 *   compared too, so a reused pid is not taken for it;
 * - the engine's gRPC address, the first argument the engine passes, refuses connections twice in
 *   a row (one refusal may be a backlog overflow).
 * Where neither is available (no /proc, no address), a change of parent pid is the signal.
 * Checks run on an unref'd timer: the watchdog never keeps the process alive.
 */
interface WatchdogOptions {
  /** `host:port` of the engine, the host's first argument. */
  engineAddress?: string;
  /** Time between checks. @default 1000 (1 s) */
  intervalMs?: number;
  /** Called once, with what was seen. */
  onGone(why: string): void;
}

const DEFAULT_WATCHDOG_INTERVAL_MS = 1000; // 1 s
/** How far up the process tree the engine is looked for (node ← sh ← pulumi is 2). */
const MAX_ANCESTOR_DEPTH = 4;

interface ProcStat {
  comm: string;
  state: string;
  ppid: number;
  startTime: string;
}

/** `/proc/<pid>/stat`, or undefined when the process is gone or there is no /proc. */
export function readProcStat(pid: number): ProcStat | undefined {
  let text: string;
  try {
    text = fs.readFileSync(`/proc/${pid}/stat`, "utf8");
  } catch {
    return undefined;
  }
  // The command name may hold spaces and parentheses: it ends at the last ")".
  const close = text.lastIndexOf(")");
  const rest = text.slice(close + 2).split(" ");
  return { comm: text.slice(text.indexOf("(") + 1, close), state: rest[0], ppid: Number(rest[1]), startTime: rest[19] };
}

/** The nearest ancestor named `pulumi`, with its start time. */
export function findEngineProcess(startPid = process.ppid): { pid: number; startTime: string } | undefined {
  let pid = startPid;
  for (let depth = 0; depth < MAX_ANCESTOR_DEPTH && pid > 1; depth++) {
    const stat = readProcStat(pid);
    if (stat === undefined) return undefined;
    if (stat.comm === "pulumi") return { pid, startTime: stat.startTime };
    pid = stat.ppid;
  }
  return undefined;
}

/** `127.0.0.1:4567` → host and port; undefined for anything else. */
export function parseEngineAddress(address: string | undefined): { host: string; port: number } | undefined {
  const m = /^(.+):([0-9]{1,5})$/.exec(address ?? "");
  if (!m) return undefined;
  const port = Number(m[2]);
  return port > 0 && port < 65536 ? { host: m[1].replace(/^\[|\]$/g, ""), port } : undefined;
}

/** Resolves true when something accepts a connection at `host:port`, false when it is refused. */
function accepts(target: { host: string; port: number }, timeoutMs: number): Promise<boolean> {
  return new Promise((resolve) => {
    const socket = net.connect(target);
    const done = (ok: boolean): void => {
      socket.destroy();
      resolve(ok);
    };
    socket.setTimeout(timeoutMs, () => done(true)); // slow is not gone
    socket.once("connect", () => done(true));
    socket.once("error", (err: NodeJS.ErrnoException) => done(err.code !== "ECONNREFUSED"));
  });
}

/** Starts watching; returns the function that stops it. */
export function watchEngine(options: WatchdogOptions): () => void {
  const intervalMs = options.intervalMs ?? DEFAULT_WATCHDOG_INTERVAL_MS;
  const engine = findEngineProcess();
  const address = parseEngineAddress(options.engineAddress);
  const firstParent = process.ppid;
  let refusals = 0;
  let stopped = false;
  let checking = false;

  const gone = (why: string): void => {
    if (stopped) return;
    stop();
    options.onGone(why);
  };

  const check = async (): Promise<void> => {
    if (checking || stopped) return;
    checking = true;
    try {
      if (engine !== undefined) {
        const stat = readProcStat(engine.pid);
        if (stat === undefined || stat.startTime !== engine.startTime || stat.state === "Z")
          return gone(`the pulumi engine (pid ${engine.pid}) has exited`);
      } else if (address === undefined && process.ppid !== firstParent) {
        return gone(`the parent process (pid ${firstParent}) has exited`);
      }
      if (address !== undefined) {
        refusals = (await accepts(address, intervalMs)) ? 0 : refusals + 1;
        if (refusals >= 2) return gone(`the engine's address ${address.host}:${address.port} refuses connections`);
      }
    } finally {
      checking = false;
    }
  };

  const timer = setInterval(() => void check(), intervalMs);
  timer.unref();
  function stop(): void {
    stopped = true;
    clearInterval(timer);
  }
  return stop;
}

/** Whether this process is the dynamic provider host of `@pulumi/pulumi` (not a program, not a test). */
export function isDynamicProviderHost(argv: readonly string[] = process.argv): boolean {
  return /[\\/]cmd[\\/]dynamic-provider(?:[\\/]index\.js)?$/.test(argv[1] ?? "");
}
