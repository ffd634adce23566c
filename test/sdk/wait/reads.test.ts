import { AbortedError, NotFoundError, type CallOptions, type WorkloadStatus } from "../../../sdk";
import { SharedStatusReads, type StatusSource } from "../../../sdk/wait/reads";

interface Call {
  signal: AbortSignal;
  resolve(s: WorkloadStatus): void;
  reject(e: unknown): void;
}

/** A status source answered by hand, tracking how many reads are in flight at once. */
function source() {
  const calls: Call[] = [];
  let inFlight = 0;
  let maxInFlight = 0;
  const src: StatusSource = {
    getStatus: (_id: string, options?: CallOptions) =>
      new Promise<WorkloadStatus>((resolve, reject) => {
        inFlight++;
        maxInFlight = Math.max(maxInFlight, inFlight);
        const done = () => inFlight--;
        const signal = options?.signal ?? new AbortController().signal;
        signal.addEventListener("abort", () => reject(new AbortedError("get status")));
        calls.push({ signal, resolve: (s) => (done(), resolve(s)), reject: (e) => (done(), reject(e)) });
      }),
  };
  return { src, calls, maxInFlight: () => maxInFlight };
}

const tick = () => new Promise((r) => setImmediate(r));
const signal = () => new AbortController().signal;

describe("SharedStatusReads", () => {
  it("should never answer a caller with a read sent before it called", async () => {
    const { src, calls } = source();
    const a = SharedStatusReads.of(src, "web").read(signal());
    const b = SharedStatusReads.of(src, "web").read(signal());
    calls[0].resolve({ phase: "Provisioning" });
    await expect(a).resolves.toEqual({ phase: "Provisioning" });
    await tick();
    calls[1].resolve({ phase: "Running" });
    await expect(b).resolves.toEqual({ phase: "Running" });
  });

  it("should give callers arriving during a read one more read after it, never two at once", async () => {
    const { src, calls, maxInFlight } = source();
    const first = SharedStatusReads.of(src, "web").read(signal());
    const later = [1, 2, 3].map(() => SharedStatusReads.of(src, "web").read(signal()));
    calls[0].resolve({ phase: "Provisioning" });
    await expect(first).resolves.toEqual({ phase: "Provisioning" });
    await tick();
    expect(calls).toHaveLength(2);
    calls[1].resolve({ phase: "Running" });
    await expect(Promise.all(later)).resolves.toEqual([1, 2, 3].map(() => ({ phase: "Running" })));
    expect(maxInFlight()).toBe(1);
  });

  it("should read 404 as undefined", async () => {
    const { src, calls } = source();
    const r = SharedStatusReads.of(src, "gone").read(signal());
    calls[0].reject(new NotFoundError({ operation: "x", status: 404, code: "not_found", serviceMessage: "x" }));
    await expect(r).resolves.toBeUndefined();
  });

  it("should abort the request only when every caller has left", async () => {
    const { src, calls } = source();
    const first = SharedStatusReads.of(src, "web").read(signal());
    const a = new AbortController();
    const b = new AbortController();
    const ra = SharedStatusReads.of(src, "web").read(a.signal);
    const rb = SharedStatusReads.of(src, "web").read(b.signal);
    calls[0].resolve({ phase: "Pending" });
    await first;
    await tick();
    expect(calls).toHaveLength(2); // the one read a and b share
    a.abort();
    await expect(ra).rejects.toThrow(AbortedError);
    expect(calls[1].signal.aborted).toBe(false);
    b.abort();
    await expect(rb).rejects.toThrow(AbortedError);
    expect(calls[1].signal.aborted).toBe(true);
    // A newcomer gets a fresh read, not the abandoned one's abort.
    const rc = SharedStatusReads.of(src, "web").read(signal());
    expect(calls).toHaveLength(3);
    calls[2].resolve({ phase: "Running" });
    await expect(rc).resolves.toEqual({ phase: "Running" });
  });

  it("should keep workloads and clients apart, and forget idle workloads", async () => {
    const one = source();
    const two = source();
    const x = SharedStatusReads.of(one.src, "web");
    expect(SharedStatusReads.of(one.src, "db")).not.toBe(x);
    expect(SharedStatusReads.of(two.src, "web")).not.toBe(x);
    const r = x.read(signal());
    expect(SharedStatusReads.of(one.src, "web")).toBe(x);
    one.calls[0].resolve({ phase: "Running" });
    await r;
    await tick();
    expect(SharedStatusReads.of(one.src, "web")).not.toBe(x);
  });
});
