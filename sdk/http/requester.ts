import type { Dispatcher } from "undici";
import type { z } from "zod";
import { sleep } from "../clock";
import { AbortedError, ResponseValidationError, RetriesExhaustedError, WwsError } from "../errors";
import { errorFromResponse } from "./error-from-response";
import type { ResolvedClientOptions } from "../options";
import { collectSecrets } from "../redact";
import { shouldRetry, type RetryNotice, type RetryPolicy } from "../retry/decide";
import { FailureStreak } from "../retry/failure-streak";
import { isNoAnswer, isTransientFailure } from "../retry/rules";
import { issuesToDetails } from "../schemas";
import { sendOnce, type RawResponse } from "./attempt";
import { proxyFor } from "./proxy";
import type { ProxyInUse } from "./proxy-error";

export interface CallSpec<T> {
  method: "GET" | "POST" | "DELETE";
  /** Path under the base URL, path parameters already encoded. */
  path: string;
  query?: Record<string, string | number | undefined>;
  body?: unknown;
  /** Schema of a 2xx body; without one the body is ignored. */
  schema?: z.ZodType<T>;
  policy: RetryPolicy;
  operation: string;
}

interface CallContext {
  signal?: AbortSignal;
  timeoutMs: number;
  /** No retry starts past this (client clock, ms); see `CallOptions.deadline`. */
  deadline?: number;
  onRetry?: (retry: RetryNotice) => void;
}

function parseJson(text: string): { ok: true; value: unknown } | { ok: false } {
  try {
    return { ok: true, value: JSON.parse(text) as unknown };
  } catch {
    return { ok: false };
  }
}

function headerOf(res: RawResponse, name: string): string | undefined {
  const v = res.headers[name];
  return Array.isArray(v) ? v[0] : v;
}

/**
 * Sends calls with retries. The API key lives in a private field: it is put into the request
 * headers and nowhere else.
 */
export class Requester {
  readonly #apiKey: string;
  /** Whether any call of this client ever got an HTTP answer (see `RetryOptions.neverAnsweredGiveUpMs`). */
  #answered = false;
  readonly #proxy: ProxyInUse | undefined;

  constructor(
    private readonly options: ResolvedClientOptions,
    apiKey: string,
    private readonly dispatcher: Dispatcher,
  ) {
    this.#apiKey = apiKey;
    this.#proxy = proxyFor(options.origin, options.network);
  }

  async call<T>(spec: CallSpec<T>, ctx: CallContext): Promise<T> {
    const { clock, retry, random } = this.options;
    const started = clock.now();
    const body = spec.body === undefined ? undefined : JSON.stringify(spec.body);
    const secrets = [this.#apiKey, ...collectSecrets(spec.body)];
    const headers: Record<string, string> = {
      accept: "application/json",
      "user-agent": this.options.userAgent,
      "x-api-key": this.#apiKey,
    };
    if (body !== undefined) headers["content-type"] = "application/json";
    const path = this.options.basePath + spec.path + queryString(spec.query);
    /** This call's failed attempts: the latest ones without an answer make the unreachable window. */
    const failures = new FailureStreak();
    for (let attempt = 1; ; attempt++) {
      let error: WwsError;
      const attemptStarted = clock.now();
      try {
        const res = await sendOnce({
          dispatcher: this.dispatcher,
          origin: this.options.origin,
          method: spec.method,
          path,
          headers,
          body,
          // No attempt outlives the call's deadline.
          timeoutMs:
            ctx.deadline === undefined
              ? ctx.timeoutMs
              : Math.max(1, Math.min(ctx.timeoutMs, ctx.deadline - attemptStarted)),
          signal: ctx.signal,
          operation: spec.operation,
          clock,
          maxResponseBytes: this.options.maxResponseBytes,
          proxy: this.#proxy,
        });
        this.#answered = true;
        if (res.status >= 200 && res.status < 300) return this.parse(spec, res);
        const parsed = parseJson(res.text);
        error = errorFromResponse(
          { status: res.status, headers: res.headers, body: parsed.ok ? parsed.value : res.text },
          {
            operation: spec.operation,
            workspace: this.options.workspace,
            method: spec.method,
            path: this.options.basePath + spec.path,
            secrets,
            now: clock.now(),
          },
        );
      } catch (err) {
        if (!(err instanceof WwsError)) throw err;
        error = err;
      }
      const now = clock.now();
      failures.fail(now, isNoAnswer(error), attemptStarted);
      const remainingMs = ctx.deadline === undefined ? undefined : ctx.deadline - now;
      const decision = shouldRetry({
        error,
        policy: spec.policy,
        attempt,
        elapsedMs: now - started,
        options: retry,
        remainingMs,
        neverAnswered: !this.#answered,
        unansweredMs: failures.unansweredMs(now),
        random,
      });
      if (!decision.retry) {
        // Only a transient failure ran out of retries; a final answer (a 404 after a 503, say) is
        // thrown as it is, so that callers can still tell it by its class.
        throw attempt > 1 && isTransientFailure(error)
          ? new RetriesExhaustedError(error, attempt, clock.now() - started)
          : error;
      }
      try {
        ctx.onRetry?.({ error, attempt, elapsedMs: now - started, delayMs: decision.delayMs });
      } catch {
        // An observer's failure is not the call's.
      }
      try {
        await sleep(decision.delayMs, clock, ctx.signal);
      } catch (reason) {
        throw new AbortedError(spec.operation, reason);
      }
    }
  }

  private parse<T>(spec: CallSpec<T>, res: RawResponse): T {
    if (spec.schema === undefined) return undefined as T;
    const requestId = headerOf(res, "x-request-id");
    const json = parseJson(res.text);
    if (!json.ok)
      throw new ResponseValidationError(spec.operation, res.status, requestId, [
        { path: "", message: "the body is not JSON" },
      ]);
    const parsed = spec.schema.safeParse(json.value);
    if (!parsed.success)
      throw new ResponseValidationError(spec.operation, res.status, requestId, issuesToDetails(parsed.error));
    return parsed.data;
  }
}

function queryString(query: CallSpec<unknown>["query"]): string {
  if (query === undefined) return "";
  const params = new URLSearchParams();
  for (const [k, v] of Object.entries(query)) if (v !== undefined) params.set(k, String(v));
  const s = params.toString();
  return s === "" ? "" : `?${s}`;
}
