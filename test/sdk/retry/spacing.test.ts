import { ConnectionError, RetriesExhaustedError, RetrySpacing, type Clock } from "../../../sdk";
import { errorFromResponse } from "../../../sdk/http/error-from-response";
import { resolveClientOptions } from "../../../sdk/options";
import { workspaceConnection } from "../../../sdk/connection";

const http500 = errorFromResponse(
  { status: 500, headers: {}, body: {} },
  { operation: "restart workload web", now: 0 },
);

/** A clock whose time moves only when a test says so. */
function manualClock(): Clock & { advance(ms: number): void } {
  let now = 1_000_000;
  return { now: () => now, setTimeout: () => undefined, clearTimeout: () => undefined, advance: (ms) => (now += ms) };
}

function spacing(clock: Clock, deadlineInMs: number, random = () => 0.5): RetrySpacing {
  const connection = workspaceConnection({ baseUrl: "http://127.0.0.1:1", workspace: "demo", apiKey: "k" });
  const options = resolveClientOptions({ clock, random, retry: { initialDelayMs: 200, maxDelayMs: 5000 } }, connection);
  return new RetrySpacing(options, clock.now() + deadlineInMs);
}

describe("RetrySpacing", () => {
  it("should space the repeats of a failing call with the client's backoff, doubling to its cap", () => {
    const clock = manualClock();
    const s = spacing(clock, 60_000);
    const delays: number[] = [];
    for (let i = 0; i < 8; i++) {
      const next = s.next(http500);
      if (!next.retry) throw next.error;
      expect(next.attempt).toBe(i + 1);
      delays.push(next.delayMs);
      clock.advance(next.delayMs);
    }
    // Full jitter at 0.5: half of 200, 400, 800, … up to the 5 s cap.
    expect(delays).toEqual([100, 200, 400, 800, 1600, 2500, 2500, 2500]);
  });

  it("should bound the attempts a deadline holds and stop with the last failure, naming its status", () => {
    const clock = manualClock();
    const s = spacing(clock, 20_000, () => 0.99);
    let attempts = 0;
    for (;;) {
      const next = s.next(http500);
      attempts++;
      if (!next.retry) {
        expect(next.error).toBeInstanceOf(RetriesExhaustedError);
        expect(next.error.message).toMatch(
          /^restart workload web failed: HTTP 500 .*gave up after \d+ attempts in \d+\.\d s\)$/,
        );
        break;
      }
      clock.advance(next.delayMs + 50); // the attempt itself and its read-back
    }
    expect(attempts).toBeGreaterThan(3);
    expect(attempts).toBeLessThanOrEqual(12);
  });

  it("should stop once the service has given no answer for the unreachable window", () => {
    const clock = manualClock();
    const connection = workspaceConnection({ baseUrl: "http://127.0.0.1:1", workspace: "demo", apiKey: "k" });
    const options = resolveClientOptions(
      { clock, random: () => 0.5, retry: { unreachableGiveUpMs: 3000 } },
      connection,
    );
    const s = new RetrySpacing(options, clock.now() + 600_000);
    const dropped = new ConnectionError("restart workload web", false, new Error("socket hang up"));
    let next = s.next(dropped);
    while (next.retry) {
      clock.advance(next.delayMs + 100);
      next = s.next(dropped);
    }
    expect(clock.now() - 1_000_000).toBeLessThan(10_000);
  });
});
