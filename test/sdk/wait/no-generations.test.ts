import { WorkspaceClient, waitForWorkload, type WorkloadStatus } from "../../../sdk";
import { fakeServer, json, type FakeServer } from "../fake-server";

/**
 * A status source the way the spec guarantees it: no generation, observedGeneration or
 * restartCount (the local service always has them, so this is the one place for a stand-in).
 * A restart moves the workload through `steps` ([delay ms, record]) after the request.
 */
async function hostedLike(
  initial: WorkloadStatus,
  steps: Array<[number, WorkloadStatus]>,
): Promise<{ server: FakeServer; served: WorkloadStatus[]; lastChangeAt: () => number }> {
  let current = initial;
  let lastChange = 0;
  const served: WorkloadStatus[] = [];
  const server = await fakeServer((_req, res, rec) => {
    if (rec.url.endsWith("/events/stream"))
      return json(res, 404, { error: { code: "not_found", message: "no stream here" } });
    if (rec.method === "POST" && rec.url.endsWith("/restart")) {
      for (const [delay, record] of steps) {
        setTimeout(() => {
          current = record;
          lastChange = Date.now();
        }, delay);
      }
      return json(res, 200, {});
    }
    served.push(current);
    json(res, 200, current);
  });
  return { server, served, lastChangeAt: () => lastChange };
}

describe("waitForWorkload against a status without generations", () => {
  let server: FakeServer | undefined;
  let client: WorkspaceClient | undefined;
  const timing = { pollMinMs: 10, pollMaxMs: 20 };

  afterEach(async () => {
    await client?.close();
    await server?.close();
  });

  async function restartAndWait(initial: WorkloadStatus, steps: Array<[number, WorkloadStatus]>, timeoutMs = 3000) {
    const h = await hostedLike(initial, steps);
    server = h.server;
    client = new WorkspaceClient({ baseUrl: h.server.url, workspace: "demo", apiKey: "k-0000" });
    const previous = await client.getStatus("web");
    const requestedAt = Date.now();
    await client.restartWorkload("web");
    const result = await waitForWorkload(client, "web", {
      until: "ready",
      timeoutMs,
      since: { previous, requestedAt },
      ...timing,
    }).then(
      (status) => ({ status, at: Date.now() }),
      (error: unknown) => ({ error: error as Error, at: Date.now() }),
    );
    return { ...h, result };
  }

  it("should not resolve on the stale Running, only after the restart was seen (phase only)", async () => {
    const { served, result, lastChangeAt } = await restartAndWait({ id: "web", phase: "Running" }, [
      // Far enough apart that the first read after the request sees the stale record even on a busy machine.
      [400, { id: "web", phase: "Restarting" }],
      [700, { id: "web", phase: "Running", message: "restarted" }],
    ]);
    expect(served[1]).toEqual({ id: "web", phase: "Running" }); // the first read after the request was stale
    expect("status" in result && result.status).toEqual({ id: "web", phase: "Running", message: "restarted" });
    expect(result.at).toBeGreaterThanOrEqual(lastChangeAt());
  });

  it("should accept a Running whose updatedAt is newer, even if no other phase was ever seen", async () => {
    const old = new Date(Date.now() - 60_000).toISOString();
    const { served, result } = await restartAndWait({ id: "web", phase: "Running", updatedAt: old }, [
      [400, { id: "web", phase: "Running", updatedAt: new Date(Date.now() + 400).toISOString() }],
    ]);
    expect(served.slice(1).some((s) => s.updatedAt === old)).toBe(true); // stale reads after the request were refused
    expect("status" in result && result.status?.updatedAt).not.toBe(old);
  });

  it("should settle rather than time out when nothing shows the change, and say so", async () => {
    const h = await hostedLike({ id: "web", type: "pod", phase: "Running" }, []);
    server = h.server;
    client = new WorkspaceClient({ baseUrl: h.server.url, workspace: "demo", apiKey: "k-0000" });
    const previous = await client.getStatus("web");
    const requestedAt = Date.now();
    await client.restartWorkload("web");
    const settling: unknown[] = [];
    // No stream here, so quiet cannot be seen: the rule takes the record at maxMs.
    const settle = { minMs: 100, quietMs: 50, maxMs: 400 };
    const status = await waitForWorkload(client, "web", {
      until: "ready",
      timeoutMs: 5000,
      since: { previous, requestedAt },
      settle,
      onProgress: (p) => settling.push(p.settling),
      ...timing,
    });
    expect(status).toEqual({ id: "web", type: "pod", phase: "Running" });
    expect(Date.now() - requestedAt).toBeGreaterThanOrEqual(400);
    expect(settling).toEqual([{ settleAt: requestedAt + 400, rule: settle }]);
  });

  it("should fall back to polling when the service has no stream", async () => {
    const h = await hostedLike({ id: "web", phase: "Running" }, []);
    server = h.server;
    client = new WorkspaceClient({ baseUrl: h.server.url, workspace: "demo", apiKey: "k-0000" });
    await expect(waitForWorkload(client, "web", { until: "ready", timeoutMs: 1000, ...timing })).resolves.toEqual({
      id: "web",
      phase: "Running",
    });
  });
});
