import { DEFAULT_SERVICE_OPTIONS, OptionError, startService } from "../../server";
import { Fleet } from "../../server/fleet";
import { formatMemoryMi, parseMemoryMi } from "../../sdk/schemas";
import { resolveOptions } from "../../server/options";

describe("resolveOptions", () => {
  it("should merge over frozen defaults", () => {
    expect(Object.isFrozen(DEFAULT_SERVICE_OPTIONS)).toBe(true);
    const o = resolveOptions({ ringSize: 7, dataDir: undefined });
    expect(o).toMatchObject({
      host: "127.0.0.1",
      port: 8787,
      ringSize: 7,
      heartbeatMs: 20_000,
      keys: { demo: "demo-key" },
    });
  });

  it.each([
    ["port", { port: 70000 }],
    ["ringSize", { ringSize: 0 }],
    ["heartbeatMs", { heartbeatMs: 1.5 }],
    ["streamMaxMs", { streamMaxMs: -1 }],
    ["streamMaxMs", { streamMaxMs: 2 ** 31 }],
    ["reconcileMs", { reconcileMs: Number.NaN }],
    ["workloadDomain", { workloadDomain: "Not A Domain" }],
    ["keys", { keys: {} }],
    ["keys", { keys: { UPPER: "k" } }],
    ["keys", { keys: { a: "same", b: "same" } }],
    ["keys", { keys: { a: "has space" } }],
    ["fleet", { fleet: { regions: [] } }],
    ["fleet", { fleet: { regions: [{ name: "r", hosts: [{ name: "r", capacity: { cpus: 1, memory: "1Gi" } }] }] } }],
    ["log", { log: "yes" as never }],
  ])("should reject an invalid %s, naming it", (option, options) => {
    try {
      resolveOptions(options);
      throw new Error("accepted");
    } catch (err) {
      expect(err).toBeInstanceOf(OptionError);
      expect((err as OptionError).option).toBe(option);
    }
  });

  it("should never put a key into an error message", () => {
    let message = "";
    try {
      resolveOptions({ keys: { a: "secret key" } });
    } catch (err) {
      message = (err as Error).message;
    }
    expect(message).toMatch(/workspace "a"/);
    expect(message).not.toContain("secret key");
  });

  it("should reject startService on a port in use", async () => {
    const svc = await startService({ port: 0 });
    try {
      await expect(startService({ port: svc.port })).rejects.toThrow(/EADDRINUSE/);
    } finally {
      await svc.close();
    }
  });
});

describe("Fleet", () => {
  const fleet = new Fleet({
    regions: [
      {
        name: "r1",
        hosts: [
          { name: "a", capacity: { cpus: 4, memory: "8Gi" } },
          { name: "b", capacity: { cpus: 4, memory: "16Gi" } },
        ],
      },
      { name: "r2", hosts: [{ name: "c", capacity: { cpus: 4, memory: "4Gi" } }] },
    ],
  });

  it("should convert memory quantities", () => {
    expect(parseMemoryMi("2Gi")).toBe(2048);
    expect(parseMemoryMi("1Ti")).toBe(1024 * 1024);
    expect(parseMemoryMi("2GB")).toBeUndefined();
    expect(formatMemoryMi(1536)).toBe("1536Mi");
    expect(formatMemoryMi(4096)).toBe("4Gi");
  });

  it("should place on the pinned host, else on the host of its scope with room that it fills best", () => {
    expect(fleet.place({ host: "a" }, {}, [])).toBe("a");
    // Each host keeps 2 CPUs: c keeps the least memory.
    expect(fleet.place(undefined, { cpus: 2, memory: "4Gi" }, [])).toBe("c");
    expect(fleet.place({ region: "r2" }, {}, [])).toBe("c");
    expect(fleet.place({ region: "r1" }, { cpus: 1, memory: "1Gi" }, [{ host: "a", cpus: 3 }])).toBe("a");
    // A resized VM stays on its host while that host has room.
    expect(fleet.place({ region: "r1" }, { cpus: 2, memory: "2Gi" }, [], "b")).toBe("b");
    expect(fleet.place({ region: "r1" }, { cpus: 2, memory: "2Gi" }, [{ host: "b", cpus: 3 }], "b")).toBe("a");
  });

  it("should name placement.region and placement.host when unknown", () => {
    expect(fleet.checkPlacement({ region: "x" })[0].path).toBe("placement.region");
    expect(fleet.checkPlacement({ host: "x" })[0].path).toBe("placement.host");
    expect(fleet.checkPlacement({ host: "c" })).toEqual([]);
  });
});
