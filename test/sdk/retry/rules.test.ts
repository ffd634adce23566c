import {
  AbortedError,
  ConnectionError,
  InvalidOptionError,
  RequestTimeoutError,
  ResponseValidationError,
  RetriesExhaustedError,
} from "../../../sdk";
import { errorFromResponse } from "../../../sdk/http/error-from-response";
import { isNoAnswer, isTransientFailure, outcomeUnknown } from "../../../sdk/retry/rules";

const ctx = { operation: "get status of workload web" };
const http = (status: number) => errorFromResponse({ status, headers: {}, body: undefined }, ctx);

describe("isTransientFailure", () => {
  it.each([
    ["408 Request Timeout", true, http(408)],
    ["425 Too Early", true, http(425)],
    ["429 Too Many Requests", true, http(429)],
    ["500 Internal Server Error", true, http(500)],
    ["501 Not Implemented", false, http(501)],
    ["502 Bad Gateway", true, http(502)],
    ["503 Service Unavailable", true, http(503)],
    ["504 Gateway Timeout", true, http(504)],
    ["505 HTTP Version Not Supported", false, http(505)],
    ["400 Bad Request", false, http(400)],
    ["401 Unauthorized", false, http(401)],
    ["403 Forbidden", false, http(403)],
    ["404 Not Found", false, http(404)],
    ["409 Conflict", false, http(409)],
    ["413 Payload Too Large", false, http(413)],
    ["a refused connection", true, new ConnectionError("op", true, new Error("connect ECONNREFUSED"))],
    ["a connection reset after sending", true, new ConnectionError("op", false, new Error("socket hang up"))],
    ["an attempt timeout", true, new RequestTimeoutError("op", 100)],
    ["the caller's abort", false, new AbortedError("op")],
    ["an invalid option", false, new InvalidOptionError("timeoutMs", "must be positive")],
    [
      "a body that fails its schema",
      false,
      new ResponseValidationError("op", 200, undefined, [{ path: "phase", message: "required" }]),
    ],
    ["retries run out on a 503", true, new RetriesExhaustedError(http(503), 4, 1_000)],
    ["retries run out on a timeout", true, new RetriesExhaustedError(new RequestTimeoutError("op", 100), 2, 200)],
    ["a plain Error", false, new Error("boom")],
  ])("should judge %s transient: %s", (_what, transient, error) => {
    expect(isTransientFailure(error)).toBe(transient);
  });
});

describe("outcomeUnknown", () => {
  it.each([
    ["an attempt timeout", true, new RequestTimeoutError("op", 100)],
    ["a connection reset after sending", true, new ConnectionError("op", false, new Error("socket hang up"))],
    ["a refused connection", false, new ConnectionError("op", true, new Error("connect ECONNREFUSED"))],
    ["408 Request Timeout", true, http(408)],
    ["429 Too Many Requests (refused)", false, http(429)],
    ["503 Service Unavailable (refused)", false, http(503)],
    ["500 Internal Server Error", true, http(500)],
    ["502 Bad Gateway", true, http(502)],
    ["504 Gateway Timeout", true, http(504)],
    ["507 Insufficient Storage", true, http(507)],
    ["501 Not Implemented (never done)", false, http(501)],
    ["404 Not Found", false, http(404)],
    ["retries run out on a 503", false, new RetriesExhaustedError(http(503), 4, 1_000)],
    ["retries run out on a 502", true, new RetriesExhaustedError(http(502), 4, 1_000)],
  ])("should judge whether the service may have acted after %s: %s", (_what, unknown, error) => {
    expect(outcomeUnknown(error)).toBe(unknown);
  });
});

describe("isNoAnswer", () => {
  it.each([
    ["a refused connection", true, new ConnectionError("op", true, new Error("connect ECONNREFUSED"))],
    ["a connection reset", true, new ConnectionError("op", false, new Error("socket hang up"))],
    ["an attempt timeout", true, new RequestTimeoutError("op", 100)],
    ["502 from a gateway", true, http(502)],
    ["504 from a gateway", true, http(504)],
    [
      "retries run out on a refused connection",
      true,
      new RetriesExhaustedError(new ConnectionError("op", true, 0), 4, 1),
    ],
    ["503: the service answered, come back later", false, http(503)],
    ["429", false, http(429)],
    ["500", false, http(500)],
    ["retries run out on a 503", false, new RetriesExhaustedError(http(503), 4, 1_000)],
  ])("should judge %s an absence of answer: %s", (_what, silent, error) => {
    expect(isNoAnswer(error)).toBe(silent);
  });
});

describe("RetriesExhaustedError", () => {
  it("should keep the last error untouched and say how long the retries ran", () => {
    const last = http(503);
    const before = last.message;
    const err = new RetriesExhaustedError(last, 3, 1_250);
    expect(last.message).toBe(before);
    expect(err.cause).toBe(last);
    expect(err.lastError).toBe(last);
    expect(err.message).toBe(`${before} (gave up after 3 attempts in 1.3 s)`);
  });
});
