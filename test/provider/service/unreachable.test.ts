/**
 * A service that does not answer is said, not waited out in silence: a wait whose status reads
 * fail says so within seconds and again every 15 s with the last error, and gives up once the
 * service has given no answer for the unreachable window; a create against a base
 * URL where nothing ever answered gives up (after `retry.neverAnsweredGiveUpMs`) with a line of
 * progress on the way, instead of retrying until the ready timeout.
 */
import { createContext } from "../../../provider/dynamic/context";
import { createWorkloadProvider } from "../../../provider/dynamic/workloads/provider";
import { closedPort } from "../../support/ports";
import { KEY, STUB, startHarness, uid, up, type Harness } from "../harness";

jest.setTimeout(60_000);

/** The error `p` rejects with; a resolution fails the test. */
function failureOf(p: Promise<unknown>): Promise<Error & { id?: string }> {
  return p.then(
    () => {
      throw new Error("expected a failure");
    },
    (e: unknown) => e as Error & { id?: string },
  );
}

async function until(what: string, check: () => boolean, timeoutMs = 10_000): Promise<void> {
  const end = Date.now() + timeoutMs;
  while (!check()) {
    if (Date.now() > end) throw new Error(`timed out waiting for ${what}`);
    await new Promise((r) => setTimeout(r, 50));
  }
}

describe("a service that stops answering", () => {
  let h: Harness;
  afterEach(async () => h?.close().catch(() => undefined));

  it("should say, in seconds and then every 15 s, that the status cannot be read, and keep the workload in the stack", async () => {
    h = await startHarness();
    await h.ctl.pauseReconciler(); // the pod stays Pending
    const id = uid("gone");
    const created = failureOf(up(h.workload, { workloadId: id, type: "pod", image: "nginx", readyTimeoutSeconds: 22 }));
    await until("the wait to begin", () => h.lines.some((l) => l.includes(`waiting up to 22 s for pod ${id}`)));
    // Its first record read (on a loaded machine it can come after the line): the summary names its phase.
    await until("the first record", () =>
      h.lines.some((l) => l.includes(`pod ${id} in workspace demo: Pending after`)),
    );
    await h.svc.close();
    const err = await created;
    const unreadable = h.lines.filter((l) =>
      l.startsWith(`wws: pod ${id} in workspace demo: cannot read its status for`),
    );
    expect(unreadable.length).toBeGreaterThanOrEqual(2);
    expect(unreadable[0]).toMatch(/the service does not answer as it should: .*could not reach the service/);
    expect(
      h.lines.some((l) => /still waiting for 1 workload \(1 Pending, status unreadable\).*last error/.test(l)),
    ).toBe(true);
    // Accepted before the service went away: kept in the stack, with the last error.
    expect(err.message).toMatch(/was created but did not become ready: timed out after 22 s.*last error/);
    expect(err.id).toBe(`demo/${id}`);
  });

  it("should fail the wait once the service has given no answer for the unreachable window, keeping the workload", async () => {
    h = await startHarness();
    const lines: string[] = [];
    const ctx = createContext({
      env: h.env,
      progress: { write: (l) => lines.push(l) },
      waitTiming: { pollMinMs: 20, pollMaxMs: 200, unreachableMs: 4_000 },
      // One attempt a read: reads fail at the poll's pace, so some fall between the 3 s grace and the 4 s window.
      client: { retry: { maxAttempts: 1 } },
    });
    await h.ctl.pauseReconciler(); // the pod stays Pending
    const id = uid("dead");
    const created = failureOf(up(createWorkloadProvider(ctx), { workloadId: id, type: "pod", image: "nginx" }));
    await until("the wait to begin", () => lines.some((l) => l.includes(`waiting up to 600 s for pod ${id}`)));
    await h.svc.close();
    const closed = Date.now();
    const err = await created;
    const tookMs = Date.now() - closed;
    await ctx.close();
    // The window and one more read at most, far from the 600 s ready timeout.
    expect(tookMs).toBeGreaterThanOrEqual(3_900);
    expect(tookMs).toBeLessThan(6_000);
    expect(
      lines.some((l) => /cannot read its status .*still waiting, gives up after 4 s without an answer/.test(l)),
    ).toBe(true);
    expect(err.message).toMatch(
      /was created but did not become ready: the service has not answered for 4 s \(last error: .*could not reach the service.*; gave up waiting for pod .* after [\d.]+ s, last phase Pending\. It stays in the stack; the next `pulumi up` waits for it again\.$/,
    );
    expect(err.id).toBe(`demo/${id}`);
  });

  it("should give up a create where nothing ever answered, saying so while it retries", async () => {
    const lines: string[] = [];
    const ctx = createContext({
      env: { WWS_BASE_URL: `http://127.0.0.1:${await closedPort()}`, WWS_WORKSPACE: "demo", WWS_API_KEY: KEY },
      progress: { write: (l) => lines.push(l) },
      // Attempts at least every second, so that the note after 3 s cannot fall between two.
      client: { retry: { neverAnsweredGiveUpMs: 6_000, maxDelayMs: 1_000 } },
    });
    const provider = createWorkloadProvider(ctx);
    const started = Date.now();
    const err = await failureOf(
      provider.create!({ workloadId: "solo", type: "pod", image: "nginx", workspace: "demo", __provider: STUB }),
    );
    // Far below the 600 s ready timeout the create's calls could retry for.
    expect(Date.now() - started).toBeLessThan(15_000);
    expect(err.message).toMatch(/could not reach the service.*gave up after \d+ attempts/);
    expect(lines.some((l) => /create of pod solo: the service has not answered as it should for/.test(l))).toBe(true);
    await ctx.close();
  });
  it("should name a refresh's retries after a read, not an update", async () => {
    h = await startHarness();
    const id = uid("read");
    const { id: resourceId, outs } = await up(h.workload, { workloadId: id, type: "pod", image: "nginx" });
    // Its status answers 503 four times (each asking for a second's pause): past the 3 s grace.
    await h.ctl.setFaults({
      errorRate: 1,
      errorStatuses: [503],
      retryAfterSeconds: 1,
      maxFaults: 4,
      pathPrefix: `/v1/tenants/demo/workloads/${id}/status`,
    });
    const read = await h.workload.read!(resourceId, outs);
    expect(read.id).toBe(resourceId);
    const notes = h.lines.filter((l) => l.includes("has not answered as it should"));
    expect(notes).toEqual([expect.stringMatching(new RegExp(`^wws: read of pod ${id}: `))]);
  });
});
