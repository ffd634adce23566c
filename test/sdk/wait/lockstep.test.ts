import { waitForWorkload, type WaitableClient, type WorkloadStatus } from "../../../sdk";
import { seededRandom as seeded } from "../../../bench/common";
import { FakeEvents } from "./fakes";

describe("waits of one process after a stream drop", () => {
  beforeEach(() => jest.useFakeTimers());
  afterEach(() => {
    expect(jest.getTimerCount()).toBe(0);
    jest.useRealTimers();
  });

  /** Starts waits for `web` and `db` together on one stream, drops it, and returns when each read. */
  async function pollTimesAfterDrop(random: () => number): Promise<Record<string, number[]>> {
    const events = new FakeEvents("open");
    const readsAt: Record<string, number[]> = { web: [], db: [] };
    const client: WaitableClient = {
      getStatus: (id) => {
        readsAt[id].push(Date.now());
        return Promise.resolve({ id, phase: "Provisioning" } as WorkloadStatus);
      },
      subscribe: events.subscribe,
    };
    const ac = new AbortController();
    const waits = ["web", "db"].map((id) =>
      waitForWorkload(client, id, { until: "ready", timeoutMs: 60_000, signal: ac.signal, random }).catch(() => {}),
    );
    await jest.advanceTimersByTimeAsync(0);
    events.set("down");
    const droppedAt = Date.now();
    await jest.advanceTimersByTimeAsync(20_000);
    ac.abort();
    await Promise.all(waits);
    expect(events.listeners.size).toBe(0);
    const since = (times: number[]) => times.filter((t) => t > droppedAt).map((t) => t - droppedAt);
    return { web: since(readsAt.web), db: since(readsAt.db) };
  }

  it("should not poll at the same instants after the stream they share drops", async () => {
    const { web, db } = await pollTimesAfterDrop(seeded(42));
    expect(web.length).toBeGreaterThanOrEqual(6);
    expect(db.length).toBeGreaterThanOrEqual(6);
    expect(web.filter((t) => db.includes(t))).toEqual([]);
  });

  it("should poll in lockstep when the jitter is constant: what the test above rules out", async () => {
    const { web, db } = await pollTimesAfterDrop(() => 0.5);
    expect(web).toEqual(db);
  });
});
