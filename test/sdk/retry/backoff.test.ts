import { backoffDelay } from "../../../sdk/retry/backoff";

describe("backoffDelay", () => {
  it("should stay within [0, min(initial * 2^(n-1), max)] with full jitter", () => {
    for (let n = 1; n <= 8; n++) {
      const ceiling = Math.min(100 * 2 ** (n - 1), 1000);
      expect(backoffDelay(n, 100, 1000, () => 0)).toBe(0);
      expect(backoffDelay(n, 100, 1000, () => 0.999999)).toBe(ceiling - 1);
      for (let i = 0; i < 50; i++) {
        const d = backoffDelay(n, 100, 1000);
        expect(d).toBeGreaterThanOrEqual(0);
        expect(d).toBeLessThan(ceiling);
      }
    }
  });

  it("should stay within [d, min(1.5 d, max)] with late jitter: never sooner than the schedule", () => {
    for (let n = 1; n <= 8; n++) {
      const d = Math.min(250 * 2 ** (n - 1), 5000);
      const latest = Math.min(d * 1.5, 5000);
      expect(backoffDelay(n, 250, 5000, () => 0, "late")).toBe(d);
      expect(backoffDelay(n, 250, 5000, () => 0.999999, "late")).toBe(Math.min(latest, d + d / 2 - 1));
      for (let i = 0; i < 50; i++) {
        const delay = backoffDelay(n, 250, 5000, Math.random, "late");
        expect(delay).toBeGreaterThanOrEqual(d);
        expect(delay).toBeLessThanOrEqual(latest);
      }
    }
  });

  it("should never exceed the cap, however many steps", () => {
    expect(backoffDelay(60, 100, 1000, () => 0.999999)).toBe(999);
    expect(backoffDelay(5000, 100, 1000, () => 0.999999, "late")).toBe(1000);
  });
});
