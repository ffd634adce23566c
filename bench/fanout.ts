import { request as httpRequest, type ClientRequest } from "node:http";
import { connect, type Socket } from "node:net";
import { ControlClient } from "../server/control-client";
import {
  API_KEY,
  CONTROL_TOKEN,
  WORKSPACE,
  cpuShare,
  machineCpu,
  othersPct,
  preciseNow,
  processCpuMs,
  round,
  rssMb,
  sleep,
  spawnService,
  type SpawnedService,
} from "./common";

/** Options of `runFanout`; every one is optional. */
export interface FanoutOptions {
  /** Open event streams. @default 1000 */
  subscribers?: number;
  /** Events emitted. @default 10000 */
  events?: number;
  /** Emission rate (events/s); 0 emits all in one synchronous burst. @default 5000 */
  ratePerSec?: number;
  /** A running service (with the bench control token) instead of a child process started here. */
  url?: string;
  controlToken?: string;
  /** Give up waiting for deliveries after this long. @default 60000 (60 s) */
  timeoutMs?: number;
  /** Each event emitted by a job of its own (as from separate requests), else one burst per ms. @default true */
  separateJobs?: boolean;
  /** The service's `--coalesce-ms` (when started here). @default the service's default */
  coalesceMs?: number;
  /** Latency is recorded on every n-th subscriber (all of them count deliveries). @default 50 */
  sampleEvery?: number;
  /**
   * `raw`: a bare TCP socket per subscriber that sends the request and counts frames in the bytes
   * (no HTTP parser, no stream objects), so that the subscribers, which share this process and
   * the machine with the service, cost as little as possible; `http`: `http.request` with an
   * `IncomingMessage` per subscriber. @default "raw"
   */
  client?: "raw" | "http";
  /** Extra `node` flags of a service started here, e.g. `--cpu-prof`. */
  serviceExecArgv?: string[];
}

export interface FanoutResult {
  subscribers: number;
  events: number;
  ratePerSec: number;
  coalesceMs?: number;
  client: "raw" | "http";
  /** Emission wall time on the server. */
  emitMs: number;
  /** Events per second actually emitted. */
  emittedPerSec: number;
  /** Frames received by all subscribers together, and the expected number. */
  delivered: number;
  expected: number;
  /** Streams the service closed meanwhile (a subscriber too slow is disconnected). */
  dropped: number;
  /** From the first emission to the last delivery. */
  deliveryMs: number;
  /** Frames received per second, all subscribers together. */
  deliveriesPerSec: number;
  /**
   * Events per second each subscriber received. When every event reached every subscriber and no
   * stream was dropped: the sustained rate they were emitted at (see `sustainedRate`), since all
   * of them arrived within the latency below; else deliveries / subscribers / delivery time.
   */
  eventsPerSecPerSubscriber: number;
  /** Emission-to-receipt latency over the deliveries to sampled subscribers, in ms. */
  latencyMs: { p50: number; p90: number; p99: number; max: number };
  /** Service RSS with the streams open, and its growth per open stream (KiB), when started here. */
  serverRssMb?: number;
  rssPerStreamKb?: number;
  /** CPU time used while emitting and delivering: the service process and this (subscriber) process. */
  serverCpuMs?: number;
  clientCpuMs: number;
  /** Busy and softirq (kernel network) share of the whole machine meanwhile, in percent. */
  machine?: { busyPct: number; softirqPct: number; stealPct: number; othersPct?: number };
}

export const DEFAULT_FANOUT = Object.freeze({
  subscribers: 1000,
  events: 10_000,
  ratePerSec: 5000,
  timeoutMs: 60 * 1000, // 60 s
  sampleEvery: 50,
  separateJobs: true,
  client: "raw" as "raw" | "http",
});

/** Latency histogram: 0.05 ms buckets up to 30 s. */
const BUCKET_MS = 0.05;
const BUCKETS = 600_000;
const ID_LINE = Buffer.from("id: ");
/** Longest `id: <digits>\n` line kept from the end of one read for the next. */
const CARRY = 24;
const SENT_AT = '"sentAt":';
const STREAM_PATH = `/v1/tenants/${WORKSPACE}/events/stream`;
/** One read buffer for every raw socket: `onread` callbacks run one at a time and keep nothing. */
const READ_BUFFER = Buffer.allocUnsafe(256 * 1024);

/** The id of the last complete `id: <digits>\n` line in `buf` (at a line start), or -1. */
function lastCompleteId(buf: Buffer): number {
  for (let from = buf.length - 1; from >= 0;) {
    const i = buf.lastIndexOf(ID_LINE, from);
    if (i === -1) return -1;
    if (i === 0 || buf[i - 1] === 10) {
      let n = 0;
      for (let j = i + ID_LINE.length; j < buf.length; j++) {
        const c = buf[j];
        if (c === 10) return n;
        if (c < 48 || c > 57) break;
        n = n * 10 + (c - 48);
      }
    }
    from = i - 1;
  }
  return -1;
}

/**
 * One event stream, cheap enough not to be what is measured (the subscribers share the machine
 * with the service): ids are consecutive, so a subscriber counts deliveries by the last complete
 * `id:` line of each read (one backward search per read, an id split across reads included)
 * instead of scanning every frame; sampled subscribers also find every `"sentAt":<ms>` and record
 * latency. Chunked transfer encoding needs no decoding: the service writes whole frames, so chunk
 * headers fall between frames. A stream the service closes (e.g. a subscriber too slow) is
 * counted in `dropped`.
 */
class Subscriber {
  /** The `sentAt` of every event, in order, as the first subscriber saw them (the emission timeline). */
  static sentAt: number[] = [];
  /** Id of the last event received, -1 before the first. */
  lastId = -1;
  lastAt = 0;
  /** The service closed the stream. */
  dropped = false;
  private closing = false;
  private socket?: Socket;
  private req?: ClientRequest;
  private readonly carry = Buffer.alloc(CARRY);
  private carryLength = 0;
  private rest = "";

  constructor(
    private readonly histogram: Uint32Array,
    private readonly sampled: boolean,
    /** Records `Subscriber.sentAt` (implies sampled). */
    private readonly timeline = false,
  ) {}

  open(url: string, client: "raw" | "http", timeoutMs: number): Promise<void> {
    const { hostname, port } = new URL(url);
    return new Promise((resolve, reject) => {
      const timer = setTimeout(() => reject(new Error(`stream not open after ${timeoutMs} ms`)), timeoutMs);
      const opened = (): void => {
        clearTimeout(timer);
        resolve();
      };
      const failed = (err: Error): void => {
        clearTimeout(timer);
        reject(err);
      };
      if (client === "http") {
        this.req = httpRequest(
          { host: hostname, port, path: STREAM_PATH, headers: { "x-api-key": API_KEY }, agent: false },
          (res) => {
            if (res.statusCode !== 200) return failed(new Error(`stream answered ${res.statusCode}`));
            res.once("data", opened);
            res.on("data", (chunk: Buffer) => this.onData(chunk));
            res.on("close", () => (this.dropped ||= !this.closing));
          },
        );
        this.req.on("error", failed);
        this.req.end();
        return;
      }
      let head: string | undefined = "";
      const socket = connect({
        host: hostname,
        port: Number(port),
        noDelay: true,
        onread: {
          buffer: READ_BUFFER,
          callback: (n, buf) => {
            let chunk = Buffer.from(buf.buffer, buf.byteOffset, n);
            if (head !== undefined) {
              head += chunk.toString("latin1");
              const end = head.indexOf("\r\n\r\n");
              if (end === -1) return true;
              if (!/^HTTP\/1\.1 200 /.test(head)) {
                failed(new Error(`stream answered ${head.split("\r\n")[0]}`));
                socket.destroy();
                return false;
              }
              chunk = Buffer.from(head.slice(end + 4), "latin1");
              head = undefined;
              opened();
            }
            this.onData(chunk);
            return true;
          },
        },
      });
      this.socket = socket;
      socket.on("error", failed);
      socket.on("close", () => (this.dropped ||= !this.closing));
      socket.write(
        `GET ${STREAM_PATH} HTTP/1.1\r\nhost: ${hostname}:${port}\r\naccept: text/event-stream\r\nx-api-key: ${API_KEY}\r\n\r\n`,
      );
    });
  }

  received(baseId: number): number {
    return Math.max(0, this.lastId - baseId);
  }

  close(): void {
    this.closing = true;
    this.socket?.destroy();
    this.req?.destroy();
  }

  private onData(chunk: Buffer): void {
    const t = preciseNow();
    this.lastAt = t;
    let id = lastCompleteId(chunk);
    // An id line split across reads: its frame is the only one whose id this read does not hold.
    if (id === -1 && this.carryLength > 0)
      id = lastCompleteId(Buffer.concat([this.carry.subarray(0, this.carryLength), chunk.subarray(0, CARRY)]));
    if (id > this.lastId) this.lastId = id;
    // A copy: the chunk may be the shared read buffer.
    if (chunk.length >= CARRY) {
      chunk.copy(this.carry, 0, chunk.length - CARRY);
      this.carryLength = CARRY;
    } else {
      const keep = Math.min(this.carryLength, CARRY - chunk.length);
      this.carry.copy(this.carry, 0, this.carryLength - keep, this.carryLength);
      chunk.copy(this.carry, keep);
      this.carryLength = keep + chunk.length;
    }
    if (this.sampled || this.timeline) this.recordLatency(chunk.toString("utf8"), t);
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
    for (let i = text.indexOf(SENT_AT); i !== -1 && i < end;) {
      const stop = text.indexOf("}", i);
      const sentAt = Number(text.slice(i + SENT_AT.length, stop));
      const bucket = Math.min(BUCKETS - 1, Math.max(0, Math.floor((t - sentAt) / BUCKET_MS)));
      this.histogram[bucket]++;
      if (this.timeline) Subscriber.sentAt.push(sentAt);
      i = text.indexOf(SENT_AT, stop);
    }
  }
}

/**
 * The sustained emission rate, events per second: the least-squares slope of the `sentAt`
 * timeline (event index against time) over its middle 90%, so that neither a late first or last
 * tick of the pacer nor its catch-up bursts sway it. A service that cannot keep up emits late
 * (its event loop runs behind), so this falls below the rate asked for.
 */
export function sustainedRate(sentAt: readonly number[]): number | undefined {
  const from = Math.floor(sentAt.length * 0.05);
  const to = Math.ceil(sentAt.length * 0.95);
  const n = to - from;
  if (n < 10) return undefined;
  let meanT = 0;
  let meanK = 0;
  for (let k = from; k < to; k++) {
    meanT += sentAt[k] / n;
    meanK += k / n;
  }
  let cov = 0;
  let varT = 0;
  for (let k = from; k < to; k++) {
    cov += (sentAt[k] - meanT) * (k - meanK);
    varT += (sentAt[k] - meanT) ** 2;
  }
  return varT > 0 ? (cov / varT) * 1000 : undefined;
}

function histogramPercentile(histogram: Uint32Array, total: number, p: number): number {
  if (total === 0) return Number.NaN;
  const target = Math.ceil(total * p);
  let seen = 0;
  for (let b = 0; b < histogram.length; b++) {
    seen += histogram[b];
    if (seen >= target) return (b + 1) * BUCKET_MS;
  }
  return Number.NaN;
}

/**
 * Scenario 4: opens `subscribers` event streams on one workspace of one service process, has it
 * emit `events` synthetic events at `ratePerSec`, and measures fan-out throughput,
 * emission-to-receipt latency, and the service's memory per open stream.
 */
export async function runFanout(options: FanoutOptions = {}): Promise<FanoutResult> {
  const o = { ...DEFAULT_FANOUT, ...options };
  const spawned: SpawnedService | undefined =
    o.url === undefined
      ? await spawnService({ coalesceMs: o.coalesceMs, ringSize: 10_000, execArgv: o.serviceExecArgv })
      : undefined;
  const url = o.url ?? spawned!.url;
  const pid = spawned?.child.pid;
  const control = new ControlClient(url, o.controlToken ?? CONTROL_TOKEN);
  const histogram = new Uint32Array(BUCKETS);
  const subs = Array.from(
    { length: o.subscribers },
    (_, i) => new Subscriber(histogram, i % o.sampleEvery === 0, i === 0),
  );
  try {
    // Warm the service's stream and emit paths, so that the first real events do not pay for JIT.
    await warmUp(url, control, o.client);
    const rssBefore = rssMb(pid);
    // Opened in groups, so that the listen backlog never overflows.
    for (let i = 0; i < subs.length; i += 100)
      await Promise.all(subs.slice(i, i + 100).map((s) => s.open(url, o.client, 30_000)));
    await sleep(200);
    const rssOpen = rssMb(pid);
    Subscriber.sentAt = [];
    const started = preciseNow();
    const serverCpu0 = processCpuMs(pid);
    const clientCpu0 = process.cpuUsage();
    const machine0 = machineCpu();
    const emitted = await control.emitEvents(
      WORKSPACE,
      o.events,
      o.ratePerSec > 0 ? o.ratePerSec : undefined,
      o.separateJobs,
    );
    const expected = o.events * o.subscribers;
    const baseId = Number(emitted.firstId) - 1;
    const deadline = Date.now() + o.timeoutMs;
    const total = (): number => subs.reduce((n, s) => n + s.received(baseId), 0);
    while (
      total() < expected &&
      !subs.every((s) => s.dropped || s.received(baseId) >= o.events) &&
      Date.now() < deadline
    )
      await sleep(10);
    const machine1 = machineCpu();
    const windowMs = preciseNow() - started;
    const serverCpu1 = processCpuMs(pid);
    const clientCpu = process.cpuUsage(clientCpu0);
    const delivered = total();
    const dropped = subs.filter((s) => s.dropped).length;
    const sampled = histogram.reduce((n, c) => n + c, 0);
    const deliveryMs = Math.max(...subs.map((s) => s.lastAt)) - started;
    const machine = cpuShare(machine0, machine1);
    const complete = delivered === expected && dropped === 0;
    const perSubscriber =
      (complete ? sustainedRate(Subscriber.sentAt) : undefined) ?? delivered / o.subscribers / (deliveryMs / 1000);
    return {
      subscribers: o.subscribers,
      events: o.events,
      ratePerSec: o.ratePerSec,
      ...(o.coalesceMs !== undefined ? { coalesceMs: o.coalesceMs } : {}),
      client: o.client,
      emitMs: round(emitted.elapsedMs),
      emittedPerSec: Math.round(o.events / (emitted.elapsedMs / 1000)),
      delivered,
      expected,
      dropped,
      deliveryMs: round(deliveryMs),
      deliveriesPerSec: Math.round(delivered / (deliveryMs / 1000)),
      eventsPerSecPerSubscriber: Math.round(perSubscriber),
      latencyMs: {
        p50: round(histogramPercentile(histogram, sampled, 0.5)),
        p90: round(histogramPercentile(histogram, sampled, 0.9)),
        p99: round(histogramPercentile(histogram, sampled, 0.99)),
        max: round(histogramPercentile(histogram, sampled, 1)),
      },
      ...(rssOpen !== undefined ? { serverRssMb: round(rssOpen, 1) } : {}),
      ...(rssBefore !== undefined && rssOpen !== undefined
        ? { rssPerStreamKb: round(((rssOpen - rssBefore) * 1024) / o.subscribers, 1) }
        : {}),
      ...(serverCpu0 !== undefined && serverCpu1 !== undefined ? { serverCpuMs: serverCpu1 - serverCpu0 } : {}),
      clientCpuMs: Math.round((clientCpu.user + clientCpu.system) / 1000),
      ...(machine
        ? {
            machine: {
              ...machine,
              othersPct: othersPct(
                machine,
                (serverCpu1 ?? 0) - (serverCpu0 ?? 0) + (clientCpu.user + clientCpu.system) / 1000,
                windowMs,
              ),
            },
          }
        : {}),
    };
  } finally {
    for (const s of subs) s.close();
    await spawned?.stop();
  }
}

/** A few streams and a few hundred events, not measured. */
async function warmUp(url: string, control: ControlClient, client: "raw" | "http"): Promise<void> {
  const subs = Array.from({ length: 20 }, () => new Subscriber(new Uint32Array(BUCKETS), true));
  try {
    await Promise.all(subs.map((s) => s.open(url, client, 30_000)));
    const { lastId } = await control.emitEvents(WORKSPACE, 500, 5000, true);
    const deadline = Date.now() + 5000;
    while (subs.some((s) => s.lastId < Number(lastId)) && Date.now() < deadline) await sleep(10);
  } finally {
    for (const s of subs) s.close();
  }
  await sleep(100);
}

// Usage: node dist/bench/fanout.js [subscribers] [events] [ratePerSec] [coalesceMs] [burst] [http]
if (require.main === module) {
  const args = process.argv.slice(2, 6);
  const given = (i: number): number | undefined =>
    args[i] === undefined || args[i] === "" || Number.isNaN(Number(args[i])) ? undefined : Number(args[i]);
  runFanout({
    subscribers: given(0),
    events: given(1),
    ratePerSec: given(2),
    coalesceMs: given(3),
    separateJobs: process.argv[6] !== "burst",
    client: process.argv[7] === "http" ? "http" : "raw",
  })
    .then((r) => console.log(JSON.stringify(r, null, 2)))
    .catch((err: unknown) => {
      console.error(err);
      process.exit(1);
    });
}
