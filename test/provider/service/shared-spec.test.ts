import type { TenantSpec, WorkspaceClient } from "../../../sdk";
import { forgetSpecs, keepSpec, sharedSpec } from "../../../provider/dynamic/service/shared-spec";

describe("sharedSpec", () => {
  function client(): { client: WorkspaceClient; calls: number; answer(spec: TenantSpec): void; fail(): void } {
    const pending: Array<{ resolve(spec: TenantSpec): void; reject(err: Error): void }> = [];
    const c = {
      calls: 0,
      client: {
        getSpec: () => {
          c.calls++;
          return new Promise<TenantSpec>((resolve, reject) => pending.push({ resolve, reject }));
        },
      } as unknown as WorkspaceClient,
      answer: (spec: TenantSpec) => pending.shift()!.resolve(spec),
      fail: () => pending.shift()!.reject(new Error("503")),
    };
    return c;
  }
  const spec = (n: number) => ({ workloads: [{ id: `w${n}` }] }) as unknown as TenantSpec;

  it("should give reads that start while one is in flight its answer, and fetch again after it", async () => {
    const c = client();
    const reads = Array.from({ length: 10 }, () => sharedSpec(c.client, {}));
    expect(c.calls).toBe(1);
    c.answer(spec(1));
    expect(await Promise.all(reads)).toEqual(Array(10).fill(spec(1)));
    const later = sharedSpec(c.client, {});
    expect(c.calls).toBe(2);
    c.answer(spec(2));
    expect(await later).toEqual(spec(2));
  });

  it("should share a failure with the reads that waited for it, and not keep it", async () => {
    const c = client();
    const reads = [sharedSpec(c.client, {}), sharedSpec(c.client, {})];
    c.fail();
    await expect(Promise.all(reads)).rejects.toThrow("503");
    const again = sharedSpec(c.client, {});
    c.answer(spec(3));
    expect(await again).toEqual(spec(3));
    expect(c.calls).toBe(2);
  });

  it("should serve an answer begun at most maxAgeMs ago, the connection check's too, until forgotten", async () => {
    let now = 1_000;
    const clock = { now: () => now };
    const c = client();
    keepSpec(c.client, spec(4), 1_000);
    now = 5_000;
    expect(await sharedSpec(c.client, {}, { maxAgeMs: 5_000, ...clock })).toEqual(spec(4));
    expect(c.calls).toBe(0);
    now = 6_001;
    const stale = sharedSpec(c.client, {}, { maxAgeMs: 5_000, ...clock });
    expect(c.calls).toBe(1);
    c.answer(spec(5));
    expect(await stale).toEqual(spec(5));
    expect(await sharedSpec(c.client, {}, { maxAgeMs: 5_000, ...clock })).toEqual(spec(5));
    expect(c.calls).toBe(1);
    forgetSpecs(() => now);
    now += 1;
    const again = sharedSpec(c.client, {}, { maxAgeMs: 5_000, ...clock });
    expect(c.calls).toBe(2);
    c.answer(spec(6));
    expect(await again).toEqual(spec(6));
  });
});
