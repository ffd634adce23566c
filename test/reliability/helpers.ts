import { request as httpRequest, type IncomingHttpHeaders } from "node:http";
import { connect } from "node:net";
import type { RunningService, ServiceOptions } from "../../server";
import { parseJson, sendRequest, type CallOptions, type HttpAnswer } from "../support/http";
import { pollUntil } from "../support/poll";
import { startTestService } from "../support/service";
import { parseFrames, type Frame } from "../server/sse";

/** Keys of the two workspaces every reliability test uses; distinctive, so a search for them finds only them. */
export const KEYS = Object.freeze({ alpha: "alpha-Key-3f9c1e7a5b", beta: "beta-Key-8d2e6b4f0c" });
export const CONTROL_TOKEN = "reliability-control-token";

/** A service on a free port of 127.0.0.1, shrunk for tests. */
export function start(options: ServiceOptions = {}): Promise<RunningService> {
  return startTestService({ keys: { ...KEYS }, reconcileMs: 5, controlToken: CONTROL_TOKEN, ...options });
}

/** An answer with its headers as a plain record (as `parseRaw` gives them), for `expectErrorAnswer`. */
export interface Answer extends Omit<HttpAnswer, "headers"> {
  headers: Record<string, string>;
}

export type { CallOptions };

/** One request through fetch (which normalises the URL: use `raw` for bytes exactly as given); `key` defaults to workspace alpha's. */
export async function call(base: string, method: string, path: string, o: CallOptions = {}): Promise<Answer> {
  const answer = await sendRequest(base + path, method, KEYS.alpha, o);
  return { ...answer, headers: Object.fromEntries(answer.headers) };
}

export interface RawAnswer {
  raw: string;
  status: number;
  headers: Record<string, string>;
  body: string;
  json: any; // eslint-disable-line @typescript-eslint/no-explicit-any
}

/** Splits the first HTTP/1.1 answer of a raw byte string (no chunked bodies expected). */
export function parseRaw(raw: string): RawAnswer {
  const end = raw.indexOf("\r\n\r\n");
  const head = end === -1 ? raw : raw.slice(0, end);
  const body = end === -1 ? "" : raw.slice(end + 4);
  const [statusLine, ...lines] = head.split("\r\n");
  const headers: Record<string, string> = {};
  for (const line of lines) {
    const i = line.indexOf(":");
    if (i > 0) headers[line.slice(0, i).trim().toLowerCase()] = line.slice(i + 1).trim();
  }
  return { raw, status: Number(statusLine.split(" ")[1] ?? 0), headers, body, json: parseJson(body) };
}

/**
 * Sends `bytes` exactly as given over a fresh socket and collects everything until the server
 * closes, or until `timeoutMs` (then the socket is destroyed and what came so far is returned).
 */
export function raw(port: number, bytes: string | Buffer, timeoutMs = 5000): Promise<RawAnswer> {
  return new Promise((resolve) => {
    const chunks: Buffer[] = [];
    const socket = connect(port, "127.0.0.1", () => socket.write(bytes));
    const done = (): void => {
      clearTimeout(timer);
      socket.destroy();
      resolve(parseRaw(Buffer.concat(chunks).toString("latin1")));
    };
    const timer = setTimeout(done, timeoutMs);
    socket.on("data", (d) => chunks.push(d));
    socket.on("end", done);
    socket.on("close", done);
    socket.on("error", done);
  });
}

/**
 * Sends `headText`, then up to `total` body bytes, `chunk` at a time (through `frame`) with
 * backpressure, and stops as soon as an answer arrives. Returns the complete answer (head and
 * `content-length` bytes of body) and how many body bytes had been written by then.
 */
export function pushBody(
  port: number,
  headText: string,
  total: number,
  chunk: Buffer,
  frame: (c: Buffer) => Buffer = (c) => c,
): Promise<{ answer: RawAnswer; sent: number }> {
  return new Promise((resolve) => {
    let sent = 0;
    let answered = false;
    const chunks: Buffer[] = [];
    const socket = connect(port, "127.0.0.1");
    const timer = setTimeout(finish, 10_000);
    function finish(): void {
      clearTimeout(timer);
      socket.destroy();
      resolve({ answer: parseRaw(Buffer.concat(chunks).toString("latin1")), sent });
    }
    function pump(): void {
      while (!answered && sent < total && !socket.destroyed) {
        sent += chunk.length;
        if (!socket.write(frame(chunk))) {
          socket.once("drain", pump);
          return;
        }
      }
    }
    socket.on("connect", () => {
      socket.write(headText);
      pump();
    });
    socket.on("data", (d) => {
      answered = true;
      chunks.push(d);
      const got = parseRaw(Buffer.concat(chunks).toString("latin1"));
      if (
        got.raw.includes("\r\n\r\n") &&
        Buffer.byteLength(got.body, "latin1") >= Number(got.headers["content-length"] ?? 0)
      )
        finish();
    });
    socket.on("error", () => undefined);
    socket.on("close", finish);
  });
}

/** `GET path` over a raw socket with `connection: close` and the given extra header lines. */
export function rawGet(
  port: number,
  path: string,
  headerLines: string[] = [`x-api-key: ${KEYS.alpha}`],
): Promise<RawAnswer> {
  return raw(
    port,
    [`GET ${path} HTTP/1.1`, "host: 127.0.0.1", ...headerLines, "connection: close", "", ""].join("\r\n"),
  );
}

/** Polls `check` (every 10 ms) until it returns something other than undefined/false. */
export function waitFor<T>(
  check: () => T | undefined | false | Promise<T | undefined | false>,
  timeoutMs = 10_000,
  what = "condition",
): Promise<T> {
  return pollUntil(check, { timeoutMs, intervalMs: 10, what });
}

export interface StreamOptions {
  /** `x-api-key`; defaults to workspace alpha's key. */
  key?: string;
  /** Sent as `Authorization: Bearer …` instead of `x-api-key`. */
  bearer?: string;
  lastEventId?: string;
  /** Appended to the path: `?lastEventId=…`. */
  query?: string;
}

/** An open event stream over `node:http`, keeping the raw text, the response headers and every frame. */
export class Stream {
  raw = "";
  frames: Frame[] = [];
  status = 0;
  headers: IncomingHttpHeaders = {};
  ended = false;
  private rest = "";
  private readonly listeners = new Set<() => void>();
  private readonly req;

  constructor(base: string, workspace: string, o: StreamOptions = {}) {
    const headers: Record<string, string> =
      o.bearer !== undefined ? { authorization: `Bearer ${o.bearer}` } : { "x-api-key": o.key ?? KEYS.alpha };
    if (o.lastEventId !== undefined) headers["last-event-id"] = o.lastEventId;
    this.req = httpRequest(`${base}/v1/tenants/${workspace}/events/stream${o.query ?? ""}`, { headers, agent: false });
    this.req.on("response", (res) => {
      this.status = res.statusCode ?? 0;
      this.headers = res.headers;
      res.setEncoding("utf8");
      res.on("data", (text: string) => {
        this.raw += text;
        const parsed = parseFrames(this.rest + text);
        this.rest = parsed.rest;
        this.frames.push(...parsed.frames);
        this.notify();
      });
      res.on("close", () => this.finish());
      this.notify();
    });
    this.req.on("error", () => this.finish());
    this.req.end();
  }

  /** Frames that carry an event (not comments, not `retry:`). */
  get events(): Frame[] {
    return this.frames.filter((f) => f.event !== undefined);
  }

  /** Resolves once `check()` holds; rejects when the stream ends first or `timeoutMs` passes. */
  until(check: () => boolean, timeoutMs = 10_000): Promise<void> {
    return new Promise((resolve, reject) => {
      const test = (): void => {
        if (check()) {
          cleanup();
          resolve();
        } else if (this.ended) {
          cleanup();
          reject(
            new Error(`stream ended before the condition held; last frames: ${JSON.stringify(this.frames.slice(-5))}`),
          );
        }
      };
      const timer = setTimeout(() => {
        cleanup();
        reject(
          new Error(`condition not met within ${timeoutMs} ms; last frames: ${JSON.stringify(this.frames.slice(-5))}`),
        );
      }, timeoutMs);
      const cleanup = (): void => {
        clearTimeout(timer);
        this.listeners.delete(test);
      };
      this.listeners.add(test);
      test();
    });
  }

  close(): void {
    this.req.destroy();
  }

  private finish(): void {
    this.ended = true;
    this.notify();
  }

  private notify(): void {
    for (const l of [...this.listeners]) l();
  }
}

/** Opens a stream and waits for its answer head (status and headers). */
export async function openStream(base: string, workspace: string, o: StreamOptions = {}): Promise<Stream> {
  const s = new Stream(base, workspace, o);
  await s.until(() => s.status !== 0 || s.ended, 5000);
  return s;
}

/** Asserts the contract's error body and a request id on a failed answer. */
export function expectErrorAnswer(
  a: { status: number; headers: Record<string, string>; json: unknown },
  status?: number | number[],
): void {
  if (status !== undefined) expect(Array.isArray(status) ? status : [status]).toContain(a.status);
  expect(a.status).toBeGreaterThanOrEqual(400);
  expect(a.headers["x-request-id"]).toMatch(/^req_[0-9a-f]+$/);
  const body = a.json as { error?: { code?: unknown; message?: unknown; details?: unknown } } | undefined;
  expect(typeof body?.error?.code).toBe("string");
  expect(typeof body?.error?.message).toBe("string");
  if (body?.error?.details !== undefined) {
    expect(Array.isArray(body.error.details)).toBe(true);
    for (const d of body.error.details as unknown[])
      expect(d).toEqual(expect.objectContaining({ path: expect.any(String), message: expect.any(String) }));
  }
}
