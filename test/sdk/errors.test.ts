import { inspect } from "node:util";
import {
  AbortedError,
  ConflictError,
  ConnectionError,
  ERROR_CODES,
  ForbiddenError,
  HttpError,
  HTTP_ERROR_CODES,
  InvalidOptionError,
  NotFoundError,
  PayloadTooLargeError,
  RateLimitedError,
  ReadinessTimeoutError,
  RequestTimeoutError,
  ResponseValidationError,
  ServerError,
  RetriesExhaustedError,
  StreamAuthError,
  UnauthorizedError,
  UnavailableError,
  ValidationError,
  WorkloadFailedError,
  WwsError,
} from "../../sdk";
import { retryAfterOf } from "../../sdk/errors";
import { errorFromResponse } from "../../sdk/http/error-from-response";

const ctx = {
  operation: "get status of workload web in workspace demo",
  workspace: "demo",
  now: Date.parse("2030-01-01T00:00:00Z"),
};

function answer(status: number, code?: string, extra: Record<string, string> = {}) {
  return {
    status,
    headers: { "x-request-id": "req_0123", ...extra },
    body: code === undefined ? "<html>oops</html>" : { error: { code, message: `service says ${code}` } },
  };
}

describe("errorFromResponse", () => {
  it.each([
    [400, "validation_failed", "validation_failed", ValidationError, "Fix the fields"],
    [401, "unauthorized", "unauthorized", UnauthorizedError, "Check the API key of workspace demo"],
    [403, "forbidden", "forbidden", ForbiddenError, "use a key minted for workspace demo"],
    [404, "not_found", "not_found", NotFoundError, "Check the id"],
    [409, "conflict", "conflict", ConflictError, "Resolve the conflict"],
    [413, "payload_too_large", "payload_too_large", PayloadTooLargeError, "64 KB"],
    [429, "rate_limited", "rate_limited", RateLimitedError, "retry after 2 s"],
    [503, "unavailable", "unavailable", UnavailableError, "retry after 2 s"],
    [500, "internal", "server_error", ServerError, "report the request id"],
    [502, "internal", "server_error", ServerError, "report the request id"],
    [501, "not_implemented", "server_error", ServerError, "does not implement this operation: retrying will not help"],
    [
      505,
      "internal",
      "server_error",
      ServerError,
      "refuses the HTTP version of this operation: retrying will not help",
    ],
  ] as const)(
    "should map %i with the service's code %s to our code %s, its class, status and fix",
    (status, serviceCode, code, Class, hint) => {
      const err = errorFromResponse(answer(status, serviceCode, { "retry-after": "2" }), ctx);
      expect(err).toBeInstanceOf(Class);
      expect(err).toBeInstanceOf(HttpError);
      expect(err).toBeInstanceOf(WwsError);
      expect(err.name).toBe(Class.name);
      expect([err.code, err.serviceCode]).toEqual([code, serviceCode]);
      expect(err.status).toBe(status);
      expect(err.requestId).toBe("req_0123");
      expect(err.message).toContain(`HTTP ${status} ${serviceCode}`);
      expect(err.message).toContain("[request req_0123]");
      expect(err.message).toContain(ctx.operation);
      expect(err.message).toContain(hint);
    },
  );

  it("should tell a 501 apart from a failure of the moment: no invitation to retry, the request named", () => {
    const transient = errorFromResponse(answer(500, "internal"), {
      ...ctx,
      method: "GET",
      path: "/v1/tenants/demo/workloads/web/status",
    });
    const missing = errorFromResponse(answer(501, "not_implemented"), {
      ...ctx,
      method: "GET",
      path: "/v1/tenants/demo/workloads/web/status",
    });
    expect(transient.message).toContain("try again");
    expect(missing.message).not.toMatch(/try again/i);
    expect(missing.message).toContain("does not implement this operation (GET /v1/tenants/demo/workloads/web/status)");
  });

  it("should give every code of the contract's catalogue one of our stable codes, keeping the service's", () => {
    for (const [serviceCode, status] of Object.entries(ERROR_CODES)) {
      const err = errorFromResponse(answer(status, serviceCode), ctx);
      expect(HTTP_ERROR_CODES).toContain(err.code);
      expect([err.serviceCode, err.status]).toEqual([serviceCode, status]);
    }
  });

  it("should give our code per class, and no service code, when the body is not the contract's", () => {
    const cases: Array<[number, string, string]> = [
      [401, "unauthorized", "UnauthorizedError"],
      [404, "not_found", "NotFoundError"],
      [429, "rate_limited", "RateLimitedError"],
      [503, "unavailable", "UnavailableError"],
      [504, "server_error", "ServerError"],
      [418, "http_error", "HttpError"],
      [415, "http_error", "HttpError"],
    ];
    for (const [status, code, name] of cases) {
      const err = errorFromResponse(answer(status), ctx);
      expect([err.name, err.code, err.serviceCode, err.status]).toEqual([name, code, undefined, status]);
      expect(err.serviceMessage).toBe("no error body");
    }
  });

  it("should keep per-field details and show them in the message", () => {
    const err = errorFromResponse(
      {
        status: 400,
        headers: {},
        body: {
          error: { code: "validation_failed", message: "bad", details: [{ path: "cpus", message: "too many" }] },
        },
      },
      ctx,
    );
    expect(err.details).toEqual([{ path: "cpus", message: "too many" }]);
    expect(err.message).toContain("cpus: too many");
  });

  it("should read Retry-After in seconds and as an HTTP date", () => {
    expect(retryAfterOf(errorFromResponse(answer(429, "rate_limited", { "retry-after": "3" }), ctx))).toBe(3000);
    const date = new Date(ctx.now + 4000).toUTCString();
    expect(retryAfterOf(errorFromResponse(answer(503, "unavailable", { "retry-after": date }), ctx))).toBe(4000);
    expect(retryAfterOf(errorFromResponse(answer(503, "unavailable"), ctx))).toBeUndefined();
    expect(retryAfterOf(errorFromResponse(answer(500, "internal", { "retry-after": "3" }), ctx))).toBeUndefined();
  });

  it("should redact secrets the service echoes, and drop detail fields other than path and message", () => {
    const err = errorFromResponse(
      {
        status: 409,
        headers: {},
        body: {
          error: {
            code: "conflict",
            message: "password hunter22 differs",
            details: [{ path: "credentials.password", message: "not hunter22", value: "hunter22" }],
          },
        },
      },
      { ...ctx, secrets: ["hunter22"] },
    );
    expect(inspect(err, { depth: 10, showHidden: true })).not.toContain("hunter22");
    expect(JSON.stringify(err)).not.toContain("hunter22");
    expect(err.message).toContain("[redacted]");
  });
});

describe("error catalogue", () => {
  const status = { phase: "Failed", message: "image not found", type: "pod" };
  const http = errorFromResponse(answer(401, "unauthorized"), ctx);
  it.each([
    [new InvalidOptionError("timeoutMs", "must be positive"), "InvalidOptionError", "invalid_option"],
    [new ConnectionError("op", true, new Error("connect ECONNREFUSED")), "ConnectionError", "connection_failed"],
    [new RequestTimeoutError("op", 100), "RequestTimeoutError", "request_timeout"],
    [new AbortedError("op"), "AbortedError", "aborted"],
    [
      new ResponseValidationError("op", 200, "req_1", [{ path: "phase", message: "required" }]),
      "ResponseValidationError",
      "invalid_response",
    ],
    [new StreamAuthError(http), "StreamAuthError", "stream_unauthorized"],
    [new ReadinessTimeoutError("timed out", "web", 1000, undefined), "ReadinessTimeoutError", "readiness_timeout"],
    [new WorkloadFailedError("web", status), "WorkloadFailedError", "workload_failed"],
    [new RetriesExhaustedError(http, 2, 300), "RetriesExhaustedError", "retries_exhausted"],
  ])("should pin %s's name and code", (err, name, code) => {
    expect(err).toBeInstanceOf(WwsError);
    expect(err.name).toBe(name);
    expect(err.code).toBe(code);
  });

  it("should say which option is invalid", () => {
    expect(new InvalidOptionError("retry.maxAttempts", "must be an integer").message).toBe(
      "invalid option retry.maxAttempts: must be an integer",
    );
  });

  it("should carry the service's message and status in WorkloadFailedError", () => {
    const err = new WorkloadFailedError("web", status);
    expect(err.serviceMessage).toBe("image not found");
    expect(err.status).toBe(status);
    expect(err.message).toContain("pod web failed: image not found");
  });

  it("should carry status and request id in StreamAuthError", () => {
    const err = new StreamAuthError(http);
    expect([err.status, err.requestId, err.cause]).toEqual([401, "req_0123", http]);
  });

  it("should tell a connection failure before sending from one after", () => {
    expect(new ConnectionError("op", true, new Error("x")).beforeSend).toBe(true);
    expect(new ConnectionError("op", false, new Error("x")).beforeSend).toBe(false);
  });
});
