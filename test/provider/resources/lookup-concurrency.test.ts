/**
 * `listWorkloads` over a large workspace reads its statuses a bounded number at once: the service
 * offers no read of many statuses, and a workspace of 3,000 workloads sent 3,001 requests at once.
 */
import { listWorkloadsOutput } from "../../../provider";
import { STATUS_READS_AT_ONCE, mapBounded } from "../../../provider/functions/workloads";
import { fakeServer, type FakeServer } from "../../sdk/fake-server";
import { recordResources, valueOf } from "../mocks";

const KEY = "lookup-concurrency-Key-77e0c1";
const WORKLOADS = 300;

describe("mapBounded", () => {
  it.each([
    [0, 4],
    [3, 4],
    [10, 4],
    [10, 1],
  ])("should map %i items at most %i at once, in order", async (n, limit) => {
    let inFlight = 0;
    let most = 0;
    const out = await mapBounded(
      Array.from({ length: n }, (_, i) => i),
      limit,
      async (i) => {
        most = Math.max(most, ++inFlight);
        await new Promise((r) => setTimeout(r, 5 * ((i * 7) % 3)));
        inFlight--;
        return i * 2;
      },
    );
    expect(out).toEqual(Array.from({ length: n }, (_, i) => i * 2));
    expect(most).toBe(Math.min(n, limit));
  });

  it("should reject with the first failure", async () => {
    await expect(
      mapBounded([1, 2, 3], 2, async (i) => (i === 2 ? Promise.reject(new Error("two")) : i)),
    ).rejects.toThrow("two");
  });
});

describe("listWorkloads over a large workspace", () => {
  let server: FakeServer;
  let inFlight = 0;
  let most = 0;
  beforeAll(async () => {
    await recordResources();
    server = await fakeServer((_req, res, recorded) => {
      const json = (body: unknown): void => {
        res.writeHead(200, { "content-type": "application/json" });
        res.end(JSON.stringify(body));
      };
      if (recorded.url.endsWith("/spec"))
        return json({
          name: "demo",
          workloads: Array.from({ length: WORKLOADS }, (_, i) => ({
            id: `w${i}`,
            type: "pod",
            spec: { image: "nginx" },
          })),
        });
      const id = /\/workloads\/([^/]+)\/status$/.exec(recorded.url)?.[1];
      most = Math.max(most, ++inFlight);
      setTimeout(() => {
        inFlight--;
        json({ id, type: "pod", phase: "Running" });
      }, 5);
    });
  });
  afterAll(() => server.close());

  it(`should read ${WORKLOADS} statuses at most ${STATUS_READS_AT_ONCE} at once, each once, in the spec's order`, async () => {
    const all = await valueOf(listWorkloadsOutput({ baseUrl: server.url, workspace: "demo", apiKey: KEY }));
    expect(all.map((w) => w.workloadId)).toEqual(Array.from({ length: WORKLOADS }, (_, i) => `w${i}`));
    expect(all.every((w) => w.status.phase === "Running")).toBe(true);
    expect(server.requests.filter((r) => r.url.endsWith("/status"))).toHaveLength(WORKLOADS);
    expect(most).toBeLessThanOrEqual(STATUS_READS_AT_ONCE);
    expect(most).toBeGreaterThan(1); // side by side, not one at a time
  });
});
