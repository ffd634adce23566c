import {
  AbortedError,
  ConnectionError,
  DEFAULT_RETRY,
  RequestTimeoutError,
  ResponseValidationError,
} from "../../../sdk";
import { MAX_RETRY_AFTER_MS, parseRetryAfter } from "../../../sdk/retry/retry-after";
import { shouldRetry, type RetryInput } from "../../../sdk/retry/decide";
import { errorFromResponse } from "../../../sdk/http/error-from-response";

const options = {
  maxAttempts: 5,
  initialDelayMs: 100,
  maxDelayMs: 1000,
  maxElapsedMs: 10_000,
  neverAnsweredGiveUpMs: 60_000,
  unreachableGiveUpMs: 90_000,
};
const http = (status: number, retryAfter?: string) =>
  errorFromResponse(
    { status, headers: retryAfter ? { "retry-after": retryAfter } : {}, body: {} },
    { operation: "op", now: 0 },
  );
const input = (over: Partial<RetryInput>): RetryInput => ({
  error: http(503),
  policy: "idempotent",
  attempt: 1,
  elapsedMs: 0,
  options,
  random: () => 0.5,
  ...over,
});

describe("shouldRetry", () => {
  it("should retry transient statuses of idempotent calls with jittered backoff", () => {
    for (const status of [408, 429, 500, 502, 503, 504]) {
      expect(shouldRetry(input({ error: http(status), attempt: 2 }))).toEqual({ retry: true, delayMs: 100 });
    }
  });

  it("should not retry final statuses", () => {
    for (const status of [400, 401, 403, 404, 409, 413, 415, 501]) {
      expect(shouldRetry(input({ error: http(status) }))).toMatchObject({ retry: false });
    }
  });

  it("should give up when the wait would overrun maxElapsedMs", () => {
    expect(shouldRetry(input({ error: http(429, "20") }))).toEqual({ retry: false, reason: "retry budget spent" });
    expect(shouldRetry(input({ elapsedMs: 9_990, random: () => 0.9 }))).toEqual({
      retry: false,
      reason: "retry budget spent",
    });
  });

  it("should stop after maxAttempts", () => {
    expect(shouldRetry(input({ attempt: 5 }))).toEqual({ retry: false, reason: "attempts exhausted" });
    expect(shouldRetry(input({ attempt: 4 }))).toMatchObject({ retry: true });
  });

  it("should keep retrying past maxAttempts and maxElapsedMs while a deadline leaves time", () => {
    const far = input({ attempt: 40, elapsedMs: 60_000, remainingMs: 5_000 });
    expect(shouldRetry(far)).toEqual({ retry: true, delayMs: expect.any(Number) });
  });

  it("should stop retrying a refused connection after a minute when the service never answered, deadline or not", () => {
    const refused = new ConnectionError("op", true, new Error("ECONNREFUSED"));
    const at = (elapsedMs: number, neverAnswered: boolean) =>
      shouldRetry(input({ error: refused, elapsedMs, remainingMs: 600_000, neverAnswered }));
    expect(at(59_000, true)).toMatchObject({ retry: true });
    expect(at(60_000, true)).toEqual({ retry: false, reason: "the service never answered" });
    // A service that answered before and went away is retried until the deadline.
    expect(at(300_000, false)).toMatchObject({ retry: true });
  });

  it("should stop retrying a call with a deadline once the service has given no answer for the window", () => {
    const refused = new ConnectionError("op", true, new Error("ECONNREFUSED"));
    const at = (unansweredMs: number | undefined, error = refused as Parameters<typeof input>[0]["error"]) =>
      shouldRetry(input({ error, elapsedMs: 200_000, remainingMs: 400_000, unansweredMs }));
    expect(at(89_000)).toMatchObject({ retry: true });
    expect(at(90_000)).toEqual({ retry: false, reason: "the service stopped answering" });
    // An answer (a 503 the service sent) is no silence: the deadline rules.
    expect(at(undefined, http(503))).toMatchObject({ retry: true });
    // Without a deadline, maxAttempts and maxElapsedMs bound the call as before.
    expect(shouldRetry(input({ error: refused, attempt: 2, elapsedMs: 1_000, unansweredMs: 95_000 }))).toMatchObject({
      retry: true,
    });
  });

  it("should stop at the deadline rather than start a wait that ends past it", () => {
    expect(shouldRetry(input({ error: http(429, "2"), remainingMs: 1_500 }))).toEqual({
      retry: false,
      reason: "deadline reached",
    });
    expect(shouldRetry(input({ error: http(429, "1"), remainingMs: 1_500 }))).toEqual({ retry: true, delayMs: 1_050 });
  });

  it("should never retry an abort", () => {
    expect(shouldRetry(input({ error: new AbortedError("op") }))).toEqual({ retry: false, reason: "aborted" });
  });

  it("should retry timeouts and dropped connections of idempotent calls", () => {
    expect(shouldRetry(input({ error: new RequestTimeoutError("op", 10) }))).toMatchObject({ retry: true });
    expect(shouldRetry(input({ error: new ConnectionError("op", false, new Error("reset")) }))).toMatchObject({
      retry: true,
    });
  });

  it("should retry a call that must not run twice only when the service did not act on it", () => {
    const unsent = input({ policy: "unprocessed-only" });
    expect(shouldRetry({ ...unsent, error: new ConnectionError("op", true, new Error("ECONNREFUSED")) })).toMatchObject(
      { retry: true },
    );
    expect(shouldRetry({ ...unsent, error: new ConnectionError("op", false, new Error("ECONNRESET")) })).toMatchObject({
      retry: false,
    });
    expect(shouldRetry({ ...unsent, error: new RequestTimeoutError("op", 10) })).toMatchObject({ retry: false });
    expect(shouldRetry({ ...unsent, error: http(502) })).toMatchObject({ retry: false });
    // Refused, not processed: safe to send again.
    expect(shouldRetry({ ...unsent, error: http(503, "1") })).toMatchObject({ retry: true });
    expect(shouldRetry({ ...unsent, error: http(429, "1") })).toMatchObject({ retry: true });
  });

  it("should not retry a body it cannot read", () => {
    expect(shouldRetry(input({ error: new ResponseValidationError("op", 200, undefined, []) }))).toMatchObject({
      retry: false,
    });
  });

  it("should have sane defaults", () => {
    expect(DEFAULT_RETRY).toEqual({
      maxAttempts: 4,
      initialDelayMs: 200,
      maxDelayMs: 5000,
      maxElapsedMs: 30000,
      neverAnsweredGiveUpMs: 60000,
      unreachableGiveUpMs: 60000,
    });
    expect(Object.isFrozen(DEFAULT_RETRY)).toBe(true);
  });
});

describe("parseRetryAfter", () => {
  const now = Date.parse("2030-01-01T00:00:00Z");
  it("should read delay-seconds", () => {
    expect(parseRetryAfter("0", now)).toBe(0);
    expect(parseRetryAfter(" 120 ", now)).toBe(120_000);
    expect(parseRetryAfter("1.5", now)).toBe(1500);
  });
  it("should read an HTTP date, a past one as 0", () => {
    expect(parseRetryAfter("Tue, 01 Jan 2030 00:00:10 GMT", now)).toBe(10_000);
    expect(parseRetryAfter("Mon, 31 Dec 2029 23:00:00 GMT", now)).toBe(0);
  });
  it("should reject anything else", () => {
    expect(parseRetryAfter("soon", now)).toBeUndefined();
    expect(parseRetryAfter("-5", now)).toBeUndefined();
    expect(parseRetryAfter("5 apples", now)).toBeUndefined();
  });
  it("should cap absurd values", () => {
    expect(parseRetryAfter("999999999", now)).toBe(MAX_RETRY_AFTER_MS);
  });
});
