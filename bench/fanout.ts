import { fork, type ChildProcess } from "node:child_process";
import { readFileSync } from "node:fs";
import { get, type IncomingMessage } from "node:http";
import { join } from "node:path";
import { performance } from "node:perf_hooks";
import { ControlClient } from "../server/control-client";

/** Options of `runFanout`; every one is optional. */
export interface FanoutOptions {
  /** Open event streams. @default 1000 */
  subscribers?: number;
  /** Events emitted. @default 10000 */
  events?: number;
  /** Emission rate (events/s); 0 emits all in one synchronous burst. @default 5000 */
  ratePerSec?: number;
  /** A running service (with its control token) instead of a child process started here. */
  url?: string;
  controlToken?: string;
  /** Give up waiting for deliveries after this long. @default 60000 (60 s) */
  timeoutMs?: number;
  /** Each event emitted by a job of its own (as from separate requests), else one burst per ms. @default true */
  separateJobs?: boolean;
  /** The service's `--coalesce-ms` (when started here). @default the service's default */
  coalesceMs?: number;
  /** Latency is recorded on every n-th subscriber (all of them count deliveries). @default 10 */
  sampleEvery?: number;
}

export interface FanoutResult {
  subscribers: number;
  events: number;
  ratePerSec: number;
  /** Emission wall time on the server. */
  emitMs: number;
  /** Events per second actually emitted. */
  emittedPerSec: number;
  /** Frames received by all subscribers together, and the expected number. */
  delivered: number;
  expected: number;
  /** From the first emission to the last delivery. */
  deliveryMs: number;
  deliveriesPerSec: number;
  /** Emission-to-receipt latency over the deliveries to sampled subscribers, in ms. */
  latencyMs: { p50: number; p90: number; p99: number; max: number };
  serverRssMb?: number;
  /** CPU time used while emitting and delivering: the service process and this (subscriber) process. */
  serverCpuMs?: number;
  clientCpuMs: number;
}

export const DEFAULT_FANOUT: Required<Omit<FanoutOptions, "url" | "controlToken" | "coalesceMs">> = Object.freeze({
  subscribers: 1000,
  events: 10_000,
  ratePerSec: 5000,
  timeoutMs: 60 * 1000, // 60 s
  sampleEvery: 10,
  separateJobs: true,
});

const WORKSPACE = "bench";
const KEY = "bench-key";
const TOKEN = "bench-control";
/** Latency histogram: 0.05 ms buckets up to 30 s. */
const BUCKET_MS = 0.05;
const BUCKETS = 600_000;

const now = (): number => performance.timeOrigin + performance.now();

/** Starts the service in a child process, so that server and subscribers do not share one event loop. */
async function spawnService(coalesceMs: number | undefined): Promise<{ url: string; child: ChildProcess }> {
  const ts = __filename.endsWith(".ts");
  const cli = join(__dirname, "..", "server", ts ? "cli.ts" : "cli.js");
  const args = ["--port", "0", "--quiet", "--control-token", TOKEN, "--key", `${WORKSPACE}=${KEY}`, "--ring-size", "10000"];
  if (coalesceMs !== undefined) args.push("--coalesce-ms", String(coalesceMs));
  const child = fork(cli, args, {
    execArgv: ts ? ["-r", "ts-node/register/transpile-only"] : [],
    silent: true,
  });
  const url = await new Promise<string>((resolve, reject) => {
    let out = "";
    child.stdout!.on("data", (d) => {
      out += d;
      const m = /listening on (http:\/\/\S+)/.exec(out);
      if (m) resolve(m[1]);
    });
    child.once("exit", (code) => reject(new Error(`service exited with ${code}: ${out}`)));
  });
  return { url, child };
}

const MARK = Buffer.from("event: task-update\n");

/** Matches of `MARK` in `buf` from `from`. */
function countMarks(buf: Buffer): number {
  let n = 0;
  for (let i = buf.indexOf(MARK); i !== -1; i = buf.indexOf(MARK, i + MARK.length)) n++;
  return n;
}

/**
 * One event stream. Every subscriber counts frames on raw bytes (native `indexOf`, a frame split
 * across chunks included); sampled ones also decode and record latency, so that the subscriber
 * side stays light enough not to be what is measured.
 */
class Subscriber {
  received = 0;
  lastAt = 0;
  res?: IncomingMessage;
  private carry = Buffer.alloc(0);
  private rest = "";

  constructor(
    private readonly histogram: Uint32Array,
    private readonly sampled: boolean,
  ) {}

  open(url: string): Promise<void> {
    return new Promise((resolve, reject) => {
      const req = get(`${url}/v1/tenants/${WORKSPACE}/events/stream`, { headers: { "x-api-key": KEY }, agent: false }, (res) => {
        this.res = res;
        res.once("data", () => resolve());
        res.on("data", (chunk: Buffer) => this.onData(chunk));
      });
      req.on("error", reject);
    });
  }

  private onData(chunk: Buffer): void {
    const t = now();
    this.lastAt = t;
    const head = Buffer.concat([this.carry, chunk.subarray(0, MARK.length - 1)]);
    this.received += countMarks(head) + countMarks(chunk);
    this.carry = Buffer.from(chunk.subarray(Math.max(0, chunk.length - (MARK.length - 1))));
    if (this.sampled) this.recordLatency(chunk.toString("utf8"), t);
  }

  /** Finds `"sentAt":<ms>` in every complete frame; nothing else is parsed. */
  private recordLatency(chunk: string, t: number): void {
    const text = this.rest + chunk;
    const end = text.lastIndexOf("\n\n");
    if (end === -1) {
      this.rest = text;
      return;
    }
    this.rest = text.slice(end + 2);
    for (let i = text.indexOf('"sentAt":'); i !== -1 && i < end; ) {
      const stop = text.indexOf("}", i);
      const bucket = Math.min(BUCKETS - 1, Math.max(0, Math.floor((t - Number(text.slice(i + 9, stop))) / BUCKET_MS)));
      this.histogram[bucket]++;
      i = text.indexOf('"sentAt":', stop);
    }
  }
}

function percentile(histogram: Uint32Array, total: number, p: number): number {
  const target = Math.ceil(total * p);
  let seen = 0;
  for (let b = 0; b < histogram.length; b++) {
    seen += histogram[b];
    if (seen >= target) return (b + 1) * BUCKET_MS;
  }
  return Number.NaN;
}

/**
 * Opens `subscribers` event streams on one service process, has it emit `events` synthetic
 * events at `ratePerSec`, and measures fan-out throughput and emission-to-receipt latency.
 */
export async function runFanout(options: FanoutOptions = {}): Promise<FanoutResult> {
  const o = { ...DEFAULT_FANOUT, ...options };
  const spawned = o.url === undefined ? await spawnService(o.coalesceMs) : undefined;
  const url = o.url ?? spawned!.url;
  const control = new ControlClient(url, o.controlToken ?? TOKEN);
  const histogram = new Uint32Array(BUCKETS);
  const subs = Array.from({ length: o.subscribers }, (_, i) => new Subscriber(histogram, i % o.sampleEvery === 0));
  try {
    // Opened in groups, so that the listen backlog never overflows.
    for (let i = 0; i < subs.length; i += 100) await Promise.all(subs.slice(i, i + 100).map((s) => s.open(url)));
    const started = now();
    const serverCpu0 = spawned ? serverCpuMs(spawned.child) : undefined;
    const clientCpu0 = process.cpuUsage();
    const emitted = await control.emitEvents(WORKSPACE, o.events, o.ratePerSec > 0 ? o.ratePerSec : undefined, o.separateJobs);
    const expected = o.events * o.subscribers;
    const deadline = Date.now() + o.timeoutMs;
    const total = (): number => subs.reduce((n, s) => n + s.received, 0);
    while (total() < expected && Date.now() < deadline) await new Promise((r) => setTimeout(r, 20));
    const delivered = total();
    const sampled = histogram.reduce((n, c) => n + c, 0);
    const last = Math.max(...subs.map((s) => s.lastAt));
    const deliveryMs = last - started;
    const rss = spawned ? serverRss(spawned.child) : undefined;
    const serverCpu1 = spawned ? serverCpuMs(spawned.child) : undefined;
    const clientCpu = process.cpuUsage(clientCpu0);
    return {
      subscribers: o.subscribers,
      events: o.events,
      ratePerSec: o.ratePerSec,
      emitMs: round(emitted.elapsedMs),
      emittedPerSec: Math.round(o.events / (emitted.elapsedMs / 1000)),
      delivered,
      expected,
      deliveryMs: round(deliveryMs),
      deliveriesPerSec: Math.round(delivered / (deliveryMs / 1000)),
      latencyMs: {
        p50: round(percentile(histogram, sampled, 0.5)),
        p90: round(percentile(histogram, sampled, 0.9)),
        p99: round(percentile(histogram, sampled, 0.99)),
        max: round(percentile(histogram, sampled, 1)),
      },
      ...(rss !== undefined ? { serverRssMb: rss } : {}),
      ...(serverCpu0 !== undefined && serverCpu1 !== undefined ? { serverCpuMs: serverCpu1 - serverCpu0 } : {}),
      clientCpuMs: Math.round((clientCpu.user + clientCpu.system) / 1000),
    };
  } finally {
    for (const s of subs) s.res?.destroy();
    spawned?.child.kill("SIGTERM");
  }
}

function round(n: number): number {
  return Math.round(n * 100) / 100;
}

/** The child's resident set size, from /proc where there is one. */
function serverRss(child: ChildProcess): number | undefined {
  const m = /VmRSS:\s+(\d+) kB/.exec(procFile(`/proc/${child.pid}/status`));
  return m ? Math.round(Number(m[1]) / 1024) : undefined;
}

/** The child's user + system CPU time in ms, from /proc/<pid>/stat (clock ticks of 10 ms). */
function serverCpuMs(child: ChildProcess): number | undefined {
  const fields = procFile(`/proc/${child.pid}/stat`).split(") ")[1]?.split(" ");
  return fields && fields.length > 13 ? (Number(fields[11]) + Number(fields[12])) * 10 : undefined;
}

function procFile(path: string): string {
  try {
    return readFileSync(path, "utf8");
  } catch {
    return "";
  }
}

// Usage: node dist/bench/fanout.js [subscribers] [events] [ratePerSec] [coalesceMs] [burst]
if (require.main === module) {
  const [subscribers, events, ratePerSec, coalesceMs] = process.argv.slice(2, 6).map(Number);
  const given = (n: number): number | undefined => (Number.isNaN(n) || n === undefined ? undefined : n);
  runFanout({
    subscribers: subscribers || undefined,
    events: events || undefined,
    ratePerSec: given(ratePerSec),
    coalesceMs: given(coalesceMs),
    separateJobs: process.argv[6] !== "burst",
  })
    .then((r) => console.log(JSON.stringify(r, null, 2)))
    .catch((err: unknown) => {
      console.error(err);
      process.exit(1);
    });
}
