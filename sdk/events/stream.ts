import { createParser, type EventSourceMessage } from "eventsource-parser";
import { backoffDelay, type Random } from "../retry/backoff";
import { sleep, type Clock } from "../clock";
import {
  ConnectionError,
  HttpError,
  ResponseValidationError,
  StreamAuthError,
  WwsError,
  retryAfterOf,
} from "../errors";
import { errorFromResponse } from "../http/error-from-response";
import { certificateErrorOf } from "../http/certificate";
import { readBodyText } from "../http/response-size";
import { MAX_REFUSAL_BYTES, NO_OPEN_EVENT, openEventAfter, overLimitError } from "./line-limit";
import { StreamCutError } from "./stream-cut";
import { resolveNetwork, type ResolvedNetwork } from "../http/network";
import { acquirePool, type PoolLease } from "../http/pools";
import { checkInteger, definedOnly } from "../validate";
import { isBeforeSend, isTransientFailure } from "../retry/rules";
import { decodeEvent } from "./decode";
import type { StreamListener, StreamState } from "./types";
import { Watchdog } from "./watchdog";

/** Options of a workspace's event stream. Every field is optional; see `DEFAULT_STREAM_OPTIONS`. */
export interface StreamOptions {
  /** The service's heartbeat interval. No byte (event or comment) for 2.5× this: the connection is dropped and reopened. @default 20000 (20 s) */
  heartbeatMs?: number;
  /** Backoff before the first reconnect after a failure; doubles per failure, with full jitter. @default 250 (ms) */
  reconnectInitialDelayMs?: number;
  /** Cap of the reconnect backoff, the server's `retry:` included (a `Retry-After` may ask for more). @default 10000 (10 s) */
  reconnectMaxDelayMs?: number;
}

export const DEFAULT_STREAM_OPTIONS: Readonly<Required<StreamOptions>> = Object.freeze({
  heartbeatMs: 20 * 1000, // 20 s
  reconnectInitialDelayMs: 250, // 250 ms
  reconnectMaxDelayMs: 10 * 1000, // 10 s
});

/** The watchdog allows this many heartbeat intervals of silence: one late heartbeat is not a dead stream. */
const WATCHDOG_FACTOR = 2.5;

export function resolveStreamOptions(options: StreamOptions = {}): Readonly<Required<StreamOptions>> {
  const o = { ...DEFAULT_STREAM_OPTIONS, ...definedOnly(options) };
  checkInteger("stream.heartbeatMs", o.heartbeatMs, 1, 24 * 60 * 60 * 1000);
  checkInteger("stream.reconnectInitialDelayMs", o.reconnectInitialDelayMs, 0, 60 * 60 * 1000);
  checkInteger("stream.reconnectMaxDelayMs", o.reconnectMaxDelayMs, o.reconnectInitialDelayMs, 60 * 60 * 1000);
  return Object.freeze(o);
}

interface EventStreamInit {
  /** Origin plus path prefix, no trailing slash. */
  baseUrl: string;
  workspace: string;
  apiKey: string;
  userAgent: string;
  /** Proxy, CA certificates or dispatcher (`resolveNetwork`). @default the environment's proxy, Node's CAs */
  network?: ResolvedNetwork;
  options: Readonly<Required<StreamOptions>>;
  clock: Clock;
  random: Random;
  /** Receives every event, state change and error of this connection. */
  sink: StreamListener;
}

/**
 * A connection open at least this long before it ended proved the stream works: the reconnect
 * backoff starts over, and a clean end (the server's lifetime cap, hours) reconnects at once. One
 * that ended sooner counts as a failure, so that a stream answered and ended after a second or a
 * few, again and again, is reconnected with backoff rather than 50 times a minute.
 */
const HEALTHY_OPEN_MS = 60 * 1000; // 1 min

/** How one connection ended. */
type Outcome =
  | { kind: "ended"; wasOpen: boolean } // the server closed it (lifetime cap)
  | { kind: "retry"; wasOpen: boolean; error: WwsError } // dropped, refused with 429/5xx, silent too long
  | { kind: "fatal"; error: WwsError } // 401/403 or another final refusal
  | { kind: "closed" }; // we closed it

/**
 * The wait before reconnecting after the `failures`-th failure in a row: the `Retry-After` of a
 * refusal when there is one; otherwise the server's `retry:` (the least it asked clients to wait)
 * plus the full-jitter backoff, below `reconnectMaxDelayMs`. A `retry:` near or above that cap is
 * lowered so that the jitter (at least `reconnectInitialDelayMs` of it) still fits under it: clients
 * dropped together must not all come back at the cap.
 */
export function reconnectDelay(
  failures: number,
  error: WwsError,
  serverRetryMs: number | undefined,
  options: Readonly<Required<StreamOptions>>,
  random: Random,
): number {
  const retryAfterMs = retryAfterOf(error);
  if (retryAfterMs !== undefined) return retryAfterMs;
  const { reconnectInitialDelayMs: initial, reconnectMaxDelayMs: max } = options;
  const floor = Math.min(serverRetryMs ?? 0, max - initial);
  return floor + backoffDelay(failures, initial, max - floor, random);
}

function isEventStream(contentType: string | string[] | undefined): boolean {
  const v = Array.isArray(contentType) ? contentType[0] : contentType;
  return typeof v === "string" && v.toLowerCase().startsWith("text/event-stream");
}

/**
 * One workspace's event stream over undici, reconnecting until closed.
 *
 * States: down → open → down → … → closed. Inputs: connect result, bytes, end of body, errors,
 * watchdog expiry, `close()`. `Last-Event-ID` is the id of the last event seen and is sent on
 * every reconnect, so the service replays what was missed (or answers `resync`).
 * Reconnect: at once after a clean end (the server's lifetime cap); after a failure with
 * full-jitter backoff on top of the server's `retry:`, or the `Retry-After` asked for; never after
 * 401/403 or another final 4xx.
 *
 * Not the `EventSource` class: it hides comments (the heartbeat watchdog needs them) and treats
 * 502/503 as fatal.
 */
export class EventStream {
  readonly #apiKey: string;
  private state: StreamState = "down";
  private lastId: string | undefined;
  /** The server's last `retry:` (ms); it holds for the later connections too, as in `EventSource`. */
  private serverRetryMs: number | undefined;
  private readonly stopper = new AbortController();
  private readonly lease: PoolLease;
  private readonly operation: string;
  private readonly path: string;
  private readonly origin: string;
  /** How long the latest connection was open (0 when it never opened). */
  private openMs = 0;

  constructor(private readonly init: EventStreamInit) {
    this.#apiKey = init.apiKey;
    const url = new URL(init.baseUrl);
    this.origin = url.origin;
    this.lease = acquirePool(url.origin, "streams", init.network ?? resolveNetwork(init.baseUrl));
    this.path = `${url.pathname.replace(/\/+$/, "")}/v1/tenants/${encodeURIComponent(init.workspace)}/events/stream`;
    this.operation = `event stream of workspace ${init.workspace}`;
  }

  get currentState(): StreamState {
    return this.state;
  }

  get lastEventId(): string | undefined {
    return this.lastId;
  }

  start(): void {
    void this.run();
  }

  close(): void {
    if (this.stopper.signal.aborted) return;
    this.stopper.abort();
    this.setState("closed");
    this.lease.release();
  }

  private setState(state: StreamState): void {
    if (this.state === state || this.state === "closed") return;
    this.state = state;
    this.init.sink.onState?.(state);
  }

  private async run(): Promise<void> {
    let failures = 0;
    while (!this.stopper.signal.aborted) {
      const outcome = await this.connectOnce();
      if (outcome.kind === "closed" || this.stopper.signal.aborted) return;
      if (outcome.kind === "fatal") {
        this.init.sink.onError?.(outcome.error);
        this.close();
        return;
      }
      this.setState("down");
      if (outcome.wasOpen && this.openMs >= HEALTHY_OPEN_MS) failures = 0;
      let delayMs = 0;
      if (outcome.kind === "retry") {
        this.init.sink.onError?.(outcome.error);
        failures++;
        delayMs = reconnectDelay(failures, outcome.error, this.serverRetryMs, this.init.options, this.init.random);
      } else if (this.openMs < HEALTHY_OPEN_MS) {
        failures++;
        const ended = new ConnectionError(this.operation, false, new Error("the service ended the stream at once"));
        delayMs = reconnectDelay(failures, ended, this.serverRetryMs, this.init.options, this.init.random);
      }
      await sleep(delayMs, this.init.clock, this.stopper.signal).catch(() => undefined);
    }
  }

  private headers(): Record<string, string> {
    const h: Record<string, string> = {
      accept: "text/event-stream",
      "cache-control": "no-cache",
      "user-agent": this.init.userAgent,
      "x-api-key": this.#apiKey,
    };
    if (this.lastId !== undefined) h["last-event-id"] = this.lastId;
    return h;
  }

  private async connectOnce(): Promise<Outcome> {
    const { clock, options } = this.init;
    const controller = new AbortController();
    const stop = (): void => controller.abort();
    this.stopper.signal.addEventListener("abort", stop, { once: true });
    // Armed before the request: it also bounds a connect or a response head that never comes.
    const watchdog = new Watchdog(clock, Math.round(options.heartbeatMs * WATCHDOG_FACTOR), stop);
    let wasOpen = false;
    let openedAt = 0;
    this.openMs = 0;
    try {
      const res = await this.lease.dispatcher.request({
        origin: this.origin,
        method: "GET",
        path: this.path,
        headers: this.headers(),
        signal: controller.signal,
        // The watchdog is the only timeout: a quiet stream is normal between heartbeats.
        headersTimeout: 0,
        bodyTimeout: 0,
      });
      watchdog.touch();
      if (res.statusCode !== 200 || !isEventStream(res.headers["content-type"])) {
        const text = await readBodyText(res.body, undefined, MAX_REFUSAL_BYTES, this.operation, res.statusCode).catch(
          () => "",
        );
        return this.refused(res.statusCode, res.headers, text);
      }
      const parser = createParser({
        onEvent: (msg) => this.dispatch(msg),
        onRetry: (ms) => (this.serverRetryMs = ms),
      });
      const decoder = new TextDecoder();
      wasOpen = true;
      openedAt = clock.now();
      this.setState("open");
      let open = NO_OPEN_EVENT;
      for await (const chunk of res.body as AsyncIterable<Buffer>) {
        watchdog.touch();
        open = openEventAfter(open, chunk);
        // The parser keeps a line until its end, and an event's data until its blank line: a line
        // or an event that never ends would take all the memory.
        const over = overLimitError(open, this.operation);
        if (over) return { kind: "retry", wasOpen, error: over };
        parser.feed(decoder.decode(chunk, { stream: true }));
      }
      this.openMs = clock.now() - openedAt;
      return { kind: "ended", wasOpen };
    } catch (err) {
      if (this.stopper.signal.aborted) return { kind: "closed" };
      if (wasOpen) this.openMs = clock.now() - openedAt;
      if (watchdog.fired) {
        const silent = new Error(`no event or heartbeat for ${Math.round(options.heartbeatMs * WATCHDOG_FACTOR)} ms`);
        return { kind: "retry", wasOpen, error: new ConnectionError(this.operation, false, silent) };
      }
      // The same certificate would be met again: the stream stops (waiters fall back to polling, which says why).
      const refused = certificateErrorOf(this.operation, err);
      if (refused) return { kind: "fatal", error: refused };
      // Open, then cut (a proxy's read timeout, a reset): not a failure to reach the service.
      if (wasOpen)
        return {
          kind: "retry",
          wasOpen,
          error: new StreamCutError(this.operation, this.openMs, options.heartbeatMs, err),
        };
      return { kind: "retry", wasOpen, error: new ConnectionError(this.operation, isBeforeSend(err), err) };
    } finally {
      watchdog.stop();
      this.stopper.signal.removeEventListener("abort", stop);
    }
  }

  /** A non-stream answer: 401/403 and other final statuses (retry/rules.ts) stop the stream; transient ones are retried. */
  private refused(status: number, headers: Record<string, string | string[] | undefined>, text: string): Outcome {
    let body: unknown = text;
    try {
      body = JSON.parse(text);
    } catch {
      // not JSON: errorFromResponse reports "no error body"
    }
    if (status === 200) {
      const error = new ResponseValidationError(this.operation, status, undefined, [
        { path: "content-type", message: "expected text/event-stream" },
      ]);
      return { kind: "retry", wasOpen: false, error };
    }
    const error: HttpError = errorFromResponse(
      { status, headers, body },
      {
        operation: this.operation,
        workspace: this.init.workspace,
        method: "GET",
        path: this.path,
        secrets: [this.#apiKey],
        now: this.init.clock.now(),
      },
    );
    if (status === 401 || status === 403) return { kind: "fatal", error: new StreamAuthError(error) };
    if (!isTransientFailure(error)) return { kind: "fatal", error };
    return { kind: "retry", wasOpen: false, error };
  }

  private dispatch(msg: EventSourceMessage): void {
    if (msg.id !== undefined) this.lastId = msg.id;
    const decoded = decodeEvent(msg);
    if (decoded.kind === "event") this.init.sink.onEvent?.(decoded.event);
    else if (decoded.kind === "invalid")
      this.init.sink.onError?.(new ResponseValidationError(this.operation, 200, undefined, decoded.issues));
  }
}
