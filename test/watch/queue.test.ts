import { retryDelay, WorkQueue } from "../../watch/queue";

const tick = (ms: number) => new Promise((r) => setTimeout(r, ms));

describe("WorkQueue", () => {
  it("should process a key once per batch, never two batches at once, and a key added while in flight once more", async () => {
    const batches: string[][] = [];
    let running = 0;
    let maxRunning = 0;
    let release: () => void = () => undefined;
    const q = new WorkQueue<string>({
      debounceMs: 5,
      process: async (keys) => {
        running++;
        maxRunning = Math.max(maxRunning, running);
        batches.push(keys);
        if (batches.length === 1) await new Promise<void>((r) => (release = r));
        running--;
        return new Map();
      },
      onFailure: () => undefined,
    });
    q.add("a");
    q.add("a");
    q.add("b");
    await tick(30);
    q.add("a"); // in flight: dirty
    q.add("a");
    await tick(30);
    expect(batches).toEqual([["a", "b"]]);
    release();
    await q.idle();
    expect(batches).toEqual([["a", "b"], ["a"]]);
    expect(maxRunning).toBe(1);
    q.stop();
  });

  it("should requeue a failed key with backoff, say it once per streak, and say when it works again", async () => {
    const said: string[] = [];
    let calls = 0;
    const q = new WorkQueue<string>({
      debounceMs: 1,
      retryInitialMs: 5,
      retryMaxMs: 20,
      process: async (keys) => new Map(++calls <= 3 ? keys.map((k) => [k, "read failed"]) : []),
      onFailure: (key, why, first) => first && said.push(`${key}: ${why}`),
      onRecovered: (key) => said.push(`${key} back`),
    });
    q.add("web");
    for (let i = 0; i < 100 && calls < 4; i++) await tick(10);
    await q.idle();
    expect(calls).toBe(4);
    expect(said).toEqual(["web: read failed", "web back"]);
    q.stop();
  });

  it("should treat a rejected batch as every key failed, and start nothing after stop", async () => {
    const failures: string[] = [];
    let calls = 0;
    const q = new WorkQueue<string>({
      debounceMs: 1,
      retryInitialMs: 1,
      process: async () => {
        calls++;
        throw new Error("boom");
      },
      onFailure: (key, why) => failures.push(`${key}: ${why}`),
    });
    q.add("x");
    await tick(20);
    q.stop();
    const at = calls;
    await tick(30);
    expect(failures[0]).toBe("x: boom");
    expect(calls).toBe(at);
  });

  it.each([
    [1, 1000],
    [2, 2000],
    [6, 32_000],
    [7, 60_000],
    [100, 60_000],
  ])("should wait before retry %i: %i ms", (n, ms) => {
    expect(retryDelay(n, 1000, 60_000)).toBe(ms);
  });
});
