import type { WorkloadStatus } from "../../../sdk";
import { WorkloadCondition, type ConditionOptions, type Observation, type Verdict } from "../../../sdk/wait/condition";

const T0 = Date.parse("2030-01-01T00:00:00Z");
const at = (ms: number): string => new Date(T0 + ms).toISOString();

/** Feeds a recorded sequence; returns the verdict kind after each record. */
function run(options: ConditionOptions, sequence: Observation[]): Array<Verdict["kind"]> {
  const c = new WorkloadCondition(options);
  return sequence.map((s) => c.observe(s).kind);
}

describe("WorkloadCondition", () => {
  describe("until ready", () => {
    it("should be satisfied by Running for the latest generation only", () => {
      expect(
        run({ until: "ready" }, [
          { phase: "Pending", generation: 1, observedGeneration: 0 },
          { phase: "Provisioning", generation: 1, observedGeneration: 0 },
          { phase: "Running", generation: 2, observedGeneration: 1 },
          { phase: "Running", generation: 2, observedGeneration: 2 },
        ]),
      ).toEqual(["pending", "pending", "pending", "satisfied"]);
    });

    it("should accept Running without generation fields when nothing else is asked", () => {
      expect(run({ until: "ready" }, [{ phase: "Running" }])).toEqual(["satisfied"]);
    });

    it("should wait for the admin console when asked", () => {
      const seq: WorkloadStatus[] = [
        { phase: "Running", generation: 1, observedGeneration: 1, adminReady: false },
        { phase: "Running", generation: 1, observedGeneration: 1, adminReady: true },
      ];
      expect(run({ until: "ready", adminReady: true }, seq)).toEqual(["pending", "satisfied"]);
      expect(run({ until: "ready" }, seq.slice(0, 1))).toEqual(["satisfied"]);
    });

    it("should fail on Failed and stay pending on 404 and unknown phases", () => {
      expect(
        run({ until: "ready" }, [undefined, { phase: "Hibernating" }, { phase: "Failed", message: "no image" }]),
      ).toEqual(["pending", "pending", "failed"]);
    });

    it("should explain why it is pending", () => {
      const c = new WorkloadCondition({ until: "ready" });
      expect(c.observe({ phase: "Running", generation: 3, observedGeneration: 2 })).toEqual({
        kind: "pending",
        reason: "generation 3 not yet observed (observed 2)",
      });
      expect(c.observe(undefined)).toEqual({ kind: "pending", reason: "not found (404)" });
    });
  });

  describe("since (updates and restarts) with generations", () => {
    const previous = { phase: "Running", generation: 4, observedGeneration: 4, restartCount: 0, updatedAt: at(-5000) };

    it("should never accept the previous generation's Running", () => {
      expect(
        run({ until: "ready", since: { previous, requestedAt: T0 } }, [
          { ...previous },
          { phase: "Restarting", generation: 5, observedGeneration: 4 },
          { phase: "Running", generation: 5, observedGeneration: 5 },
        ]),
      ).toEqual(["pending", "pending", "satisfied"]);
    });

    it("should accept a newer generation's Running even if no other phase was seen", () => {
      expect(
        run({ until: "ready", since: { previous, requestedAt: T0 } }, [
          { phase: "Running", generation: 6, observedGeneration: 6 },
        ]),
      ).toEqual(["satisfied"]);
    });

    it("should ignore a stale Failed and fail on a fresh one", () => {
      const failed = { ...previous, phase: "Failed", message: "old" };
      expect(
        run({ until: "ready", since: { previous: failed, requestedAt: T0 } }, [
          { ...failed },
          { phase: "Failed", message: "new", generation: 5, observedGeneration: 4 },
        ]),
      ).toEqual(["pending", "failed"]);
    });
  });

  describe("since (updates and restarts) without generations", () => {
    const previous: WorkloadStatus = { phase: "Running", updatedAt: at(-5000), restartCount: 1 };
    const since = { previous, requestedAt: T0 };

    it("should not accept a Running that shows no evidence of change", () => {
      expect(run({ until: "ready", since }, [{ ...previous }, { ...previous }])).toEqual(["pending", "pending"]);
      expect(run({ until: "ready", since: { requestedAt: T0 } }, [{ phase: "Running" }])).toEqual(["pending"]);
    });

    it("should accept Running once a non-Running phase was seen after the request", () => {
      expect(
        run({ until: "ready", since: { requestedAt: T0 } }, [
          { phase: "Running" },
          { phase: "Restarting" },
          { phase: "Running" },
        ]),
      ).toEqual(["pending", "pending", "satisfied"]);
    });

    it("should accept Running updated after the request and after the previous record", () => {
      expect(run({ until: "ready", since }, [{ phase: "Running", updatedAt: at(100), restartCount: 1 }])).toEqual([
        "satisfied",
      ]);
    });

    it("should not trust updatedAt newer than the request but equal to the previous record (server clock ahead)", () => {
      const ahead = { phase: "Running", updatedAt: at(60_000) };
      expect(run({ until: "ready", since: { previous: ahead, requestedAt: T0 } }, [{ ...ahead }])).toEqual(["pending"]);
    });

    it("should accept Running with a higher restartCount", () => {
      expect(run({ until: "ready", since }, [{ phase: "Running", updatedAt: at(-5000), restartCount: 2 }])).toEqual([
        "satisfied",
      ]);
    });

    it("should treat Running after a previous Failed as fresh", () => {
      const failed = { phase: "Failed", message: "crashed" };
      expect(
        run({ until: "ready", since: { previous: failed, requestedAt: T0 } }, [{ ...failed }, { phase: "Running" }]),
      ).toEqual(["pending", "satisfied"]);
    });
  });

  describe("until gone", () => {
    it("should be satisfied by 404 only, whatever the phase", () => {
      expect(run({ until: "gone" }, [{ phase: "Deleting" }, { phase: "Failed" }, undefined])).toEqual([
        "pending",
        "pending",
        "satisfied",
      ]);
    });
  });

  describe("settle rule, when the records carry no evidence", () => {
    const rule = { minMs: 2000, quietMs: 500, maxMs: 10_000 };
    const since = { previous: { phase: "Running" }, requestedAt: T0 };
    const verdict = (status: WorkloadStatus, now: number, lastActivityAt: number | undefined): Verdict =>
      new WorkloadCondition({ until: "ready", since, settle: rule }).observe(status, {
        now: T0 + now,
        lastActivityAt: lastActivityAt === undefined ? undefined : T0 + lastActivityAt,
      });

    it("should take Running at minMs after the request when the stream was quiet", () => {
      expect(verdict({ phase: "Running" }, 1999, 0)).toMatchObject({
        kind: "pending",
        settleAt: T0 + 2000,
        reason: expect.stringMatching(/^settling: /),
      });
      expect(verdict({ phase: "Running" }, 2000, 0).kind).toBe("satisfied");
    });

    it("should wait for quietMs after the last activity, but never past maxMs", () => {
      expect(verdict({ phase: "Running" }, 2000, 1800)).toMatchObject({ kind: "pending", settleAt: T0 + 2300 });
      expect(verdict({ phase: "Running" }, 2300, 1800).kind).toBe("satisfied");
      expect(verdict({ phase: "Running" }, 10_000, 9_900).kind).toBe("satisfied");
    });

    it("should take the full maxMs when no stream is open to show quiet", () => {
      expect(verdict({ phase: "Running" }, 9_999, undefined)).toMatchObject({ kind: "pending", settleAt: T0 + 10_000 });
      expect(verdict({ phase: "Running" }, 10_000, undefined).kind).toBe("satisfied");
    });

    it("should fail on a Failed record only once it has settled, and never settle where generations say stale", () => {
      const failedBefore = (now: number): Verdict["kind"] =>
        new WorkloadCondition({
          until: "ready",
          since: { previous: { phase: "Failed" }, requestedAt: T0 },
          settle: rule,
        }).observe({ phase: "Failed" }, { now: T0 + now, lastActivityAt: T0 }).kind;
      expect(failedBefore(100)).toBe("pending");
      expect(failedBefore(2000)).toBe("failed");
      const c = new WorkloadCondition({
        until: "ready",
        since: { previous: { phase: "Running", generation: 3, observedGeneration: 3 }, requestedAt: T0 },
        settle: rule,
      });
      expect(
        c.observe({ phase: "Running", generation: 4, observedGeneration: 3 }, { now: T0 + 60_000, lastActivityAt: T0 }),
      ).toMatchObject({ kind: "pending", reason: "generation 4 not yet observed (observed 3)" });
    });
  });
});
