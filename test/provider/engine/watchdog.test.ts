import * as net from "node:net";
import {
  isDynamicProviderHost,
  parseEngineAddress,
  readProcStat,
  watchEngine,
} from "../../../provider/dynamic/engine/watchdog";

describe("engine watchdog", () => {
  it("should read the engine address the host is given, and nothing else", () => {
    expect(parseEngineAddress("127.0.0.1:41234")).toEqual({ host: "127.0.0.1", port: 41234 });
    expect(parseEngineAddress("[::1]:5000")).toEqual({ host: "::1", port: 5000 });
    for (const bad of [undefined, "", "127.0.0.1", "host:0", "host:70000", "--flag"])
      expect(parseEngineAddress(bad)).toBeUndefined();
  });

  it("should start only in the dynamic provider host", () => {
    expect(
      isDynamicProviderHost(["node", "/x/node_modules/@pulumi/pulumi/cmd/dynamic-provider/index.js", "127.0.0.1:1"]),
    ).toBe(true);
    expect(isDynamicProviderHost(["node", "/x/node_modules/.bin/jest"])).toBe(false);
    expect(isDynamicProviderHost(process.argv)).toBe(false);
  });

  it("should read its own process from /proc", () => {
    expect(readProcStat(process.pid)).toMatchObject({
      comm: expect.any(String),
      ppid: process.ppid,
      state: expect.stringMatching(/^[RSD]$/),
    });
    expect(readProcStat(2 ** 22 + 1)).toBeUndefined(); // above pid_max: never a process
  });

  it("should stay quiet while the engine's address accepts connections, and report once it refuses them", async () => {
    const engine = net.createServer((socket) => socket.destroy());
    await new Promise<void>((resolve) => engine.listen(0, "127.0.0.1", resolve));
    const { port } = engine.address() as net.AddressInfo;
    const reasons: string[] = [];
    let gone!: () => void;
    const reported = new Promise<void>((resolve) => (gone = resolve));
    const stop = watchEngine({
      engineAddress: `127.0.0.1:${port}`,
      intervalMs: 20,
      onGone: (why) => {
        reasons.push(why);
        gone();
      },
    });
    try {
      await new Promise((r) => setTimeout(r, 200)); // ten checks against a live engine
      expect(reasons).toEqual([]);
      await new Promise<void>((resolve) => engine.close(() => resolve()));
      await reported;
      await new Promise((r) => setTimeout(r, 100)); // it reports once
      expect(reasons).toEqual([`the engine's address 127.0.0.1:${port} refuses connections`]);
    } finally {
      stop();
    }
  });
});
