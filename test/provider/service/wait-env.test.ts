import { waitTimingFromEnv } from "../../../provider/dynamic/service/wait-env";

describe("waitTimingFromEnv", () => {
  it("should leave the defaults alone when nothing is set", () => {
    expect(waitTimingFromEnv({})).toEqual({});
  });

  it("should select poll-only waiting at the given interval", () => {
    expect(waitTimingFromEnv({ WWS_WAIT_MODE: "poll", WWS_POLL_INTERVAL_MS: "2000" })).toEqual({
      mode: "poll",
      pollIntervalMs: 2000,
    });
  });

  it("should take the unreachable window in seconds", () => {
    expect(waitTimingFromEnv({ WWS_UNREACHABLE_TIMEOUT_SECONDS: "300" })).toEqual({ unreachableMs: 300_000 });
    expect(() => waitTimingFromEnv({ WWS_UNREACHABLE_TIMEOUT_SECONDS: "5m" })).toThrow(
      'WWS_UNREACHABLE_TIMEOUT_SECONDS must be a whole number of seconds from 1 to 86400, not "5m"',
    );
  });

  it("should name the variable and the allowed values when a value is wrong", () => {
    expect(() => waitTimingFromEnv({ WWS_WAIT_MODE: "fast" })).toThrow(
      'WWS_WAIT_MODE must be "stream" or "poll", not "fast"',
    );
    expect(() => waitTimingFromEnv({ WWS_POLL_INTERVAL_MS: "2s" })).toThrow(
      "WWS_POLL_INTERVAL_MS must be a whole number of milliseconds",
    );
  });
});
