import { performance } from "node:perf_hooks";
import { HEARTBEAT_FRAME, formatFrame, formatRetry } from "./frames";
import { planResume } from "./resume";
import { EventRing } from "./ring";

/** Where a subscriber's frames go; the HTTP layer adapts a `ServerResponse` to it. */
export interface SseSink {
  /** Live frames come as one Buffer shared by every subscriber: encoded once, never modified. */
  write(chunk: string | Buffer): void;
  /** Bytes written but not yet taken by the OS: how far the client lags. */
  readonly bufferedBytes: number;
  /** Close after what was written (lifetime cap). */
  end(): void;
  /** Close now (slow client, dropped by control). */
  destroy(): void;
}

export interface FanoutOptions {
  ringSize: number;
  heartbeatMs: number;
  streamMaxMs: number;
  retryMs: number;
  /** Id of the first event this fan-out emits. */
  firstId: number;
  /** A subscriber lagging by more than this is disconnected; it reconnects and replays or resyncs. @default 8 MiB */
  maxBufferedBytes?: number;
  /**
   * Least ms between two fan-out writes; 0 writes at the end of every emitting job (a microtask),
   * more writes at the end of the event-loop iteration at the earliest. @default 0
   */
  coalesceMs?: number;
}

interface Subscriber {
  sink: SseSink;
  lifetime: NodeJS.Timeout;
}

const DEFAULT_MAX_BUFFERED_BYTES = 8 * 1024 * 1024; // 8 MiB
const HEARTBEAT = Buffer.from(HEARTBEAT_FRAME, "utf8");

/**
 * The event stream of one workspace: consecutive ids, a replay ring, live fan-out, heartbeats and
 * the lifetime cap. Independent of HTTP.
 *
 * Fan-out serializes and UTF-8-encodes each frame once and hands the same Buffer to every
 * subscriber. Frames emitted during one synchronous job (an upsert emits several) are joined and
 * written with one `write` per subscriber at the end of that job (a microtask). With
 * `coalesceMs`, frames are written at the end of the event-loop iteration, and a frame emitted
 * less than `coalesceMs` after the last write waits for the rest of that window: a quiet stream
 * still gets every frame within the iteration, a busy one at most 1000/coalesceMs writes per
 * subscriber and second, because the cost of fan-out is per write (and its completion), not per
 * byte.
 */
export class EventFanout {
  private readonly ring: EventRing;
  private last: number;
  private readonly subscribers = new Set<Subscriber>();
  private pending = "";
  private flushScheduled = false;
  private lastFlush = -Infinity;
  private heartbeat: NodeJS.Timeout | undefined;
  private readonly maxBuffered: number;

  constructor(private readonly options: FanoutOptions) {
    this.ring = new EventRing(options.ringSize);
    this.last = options.firstId - 1;
    this.maxBuffered = options.maxBufferedBytes ?? DEFAULT_MAX_BUFFERED_BYTES;
  }

  /** Id of the newest event (one below the first id while none was emitted). */
  get lastId(): number {
    return this.last;
  }

  get subscriberCount(): number {
    return this.subscribers.size;
  }

  /** Appends an event to the ring and sends it to every subscriber; returns its id. */
  emit(event: string, data: unknown): number {
    const id = this.last + 1;
    const frame = formatFrame({ id: String(id), event, data: JSON.stringify(data) });
    this.last = id;
    this.ring.push(id, frame);
    if (this.subscribers.size > 0) {
      this.pending += frame;
      if (!this.flushScheduled) this.scheduleFlush();
    }
    return id;
  }

  private scheduleFlush(): void {
    this.flushScheduled = true;
    const coalesceMs = this.options.coalesceMs ?? 0;
    if (coalesceMs === 0) {
      queueMicrotask(() => this.flush());
      return;
    }
    // Not a microtask: the completions of the last fan-out's writes run after it, and every
    // event emitted until the check phase of this loop iteration rides along in one write.
    const wait = this.lastFlush + coalesceMs - performance.now();
    if (wait <= 0) setImmediate(() => this.flush());
    else setTimeout(() => this.flush(), wait);
  }

  /**
   * Starts a subscriber at `lastEventId` (see `planResume`). Returns the function the transport
   * calls when the connection closes. Replay and registration happen in one synchronous step, so
   * no event can fall between them.
   */
  subscribe(sink: SseSink, lastEventId?: string): () => void {
    this.flush();
    const plan = planResume(this.ring, this.last, lastEventId);
    let head = formatRetry(this.options.retryMs);
    if (plan.kind === "replay") head += plan.frames.join("");
    if (plan.kind === "resync") head += formatFrame({ id: String(this.last), event: "resync", data: "{}" });
    sink.write(head);
    const sub: Subscriber = { sink, lifetime: setTimeout(() => this.remove(sub, "end"), this.options.streamMaxMs) };
    this.subscribers.add(sub);
    this.heartbeat ??= setInterval(() => this.broadcast(HEARTBEAT), this.options.heartbeatMs);
    return () => this.remove(sub);
  }

  /** Destroys every open connection (clients reconnect with `Last-Event-ID`). */
  dropAll(): void {
    for (const sub of [...this.subscribers]) this.remove(sub, "destroy");
  }

  /** Ends every connection and stops the timers. */
  close(): void {
    this.flush();
    for (const sub of [...this.subscribers]) this.remove(sub, "end");
  }

  private flush(): void {
    this.flushScheduled = false;
    if (this.pending === "") return;
    const chunk = Buffer.from(this.pending, "utf8");
    this.pending = "";
    this.broadcast(chunk);
    // Measured from the end: between two fan-outs at least `coalesceMs` is left for other work.
    this.lastFlush = performance.now();
  }

  private broadcast(chunk: Buffer): void {
    for (const sub of this.subscribers) {
      if (sub.sink.bufferedBytes > this.maxBuffered) {
        this.remove(sub, "destroy");
        continue;
      }
      sub.sink.write(chunk);
    }
  }

  private remove(sub: Subscriber, how?: "end" | "destroy"): void {
    if (!this.subscribers.delete(sub)) return;
    clearTimeout(sub.lifetime);
    if (how === "end") sub.sink.end();
    if (how === "destroy") sub.sink.destroy();
    if (this.subscribers.size === 0 && this.heartbeat !== undefined) {
      clearInterval(this.heartbeat);
      this.heartbeat = undefined;
    }
  }
}
