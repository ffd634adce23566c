import {
  AbortedError,
  ConnectionError,
  InvalidOptionError,
  RequestTimeoutError,
  ResponseValidationError,
  RetriesExhaustedError,
  errorFromResponse,
  isTransientFailure,
} from "../../sdk";

const ctx = { operation: "get status of workload web" };
const http = (status: number) => errorFromResponse({ status, headers: {}, body: undefined }, ctx);

describe("isTransientFailure", () => {
  it.each([
    ["408 Request Timeout", http(408), true],
    ["425 Too Early", http(425), true],
    ["429 Too Many Requests", http(429), true],
    ["500 Internal Server Error", http(500), true],
    ["501 Not Implemented", http(501), false],
    ["502 Bad Gateway", http(502), true],
    ["503 Service Unavailable", http(503), true],
    ["504 Gateway Timeout", http(504), true],
    ["505 HTTP Version Not Supported", http(505), false],
    ["400 Bad Request", http(400), false],
    ["401 Unauthorized", http(401), false],
    ["403 Forbidden", http(403), false],
    ["404 Not Found", http(404), false],
    ["409 Conflict", http(409), false],
    ["413 Payload Too Large", http(413), false],
    ["a refused connection", new ConnectionError("op", true, new Error("connect ECONNREFUSED")), true],
    ["a connection reset after sending", new ConnectionError("op", false, new Error("socket hang up")), true],
    ["an attempt timeout", new RequestTimeoutError("op", 100), true],
    ["the caller's abort", new AbortedError("op"), false],
    ["an invalid option", new InvalidOptionError("timeoutMs", "must be positive"), false],
    ["a body that fails its schema", new ResponseValidationError("op", 200, undefined, [{ path: "phase", message: "required" }]), false],
    ["retries run out on a 503", new RetriesExhaustedError(http(503), 4, 1_000), true],
    ["retries run out on a timeout", new RetriesExhaustedError(new RequestTimeoutError("op", 100), 2, 200), true],
    ["a plain Error", new Error("boom"), false],
  ])("should judge %s transient: %s", (_what, error, transient) => {
    expect(isTransientFailure(error)).toBe(transient);
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
