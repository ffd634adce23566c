import { backoffDelay } from "../../sdk/backoff";

describe("backoffDelay", () => {
  it("should stay within [0, min(initial * 2^(n-1), max)]", () => {
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

  it("should never exceed the cap, however many steps", () => {
    expect(backoffDelay(60, 100, 1000, () => 0.999999)).toBe(999);
  });
});
