import { execFileSync } from "node:child_process";
import { createServer, type Server } from "node:http";
import type { AddressInfo } from "node:net";
import { join } from "node:path";
import * as undici from "undici";
import { Pool, envHttpProxyAgent } from "../../../sdk/http/undici";

const root = join(__dirname, "..", "..", "..");

describe("sdk/http/undici", () => {
  let server: Server;
  let origin: string;
  beforeAll(async () => {
    server = createServer((_req, res) => res.end("pong"));
    await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
    origin = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
  });
  afterAll(() => new Promise<void>((resolve) => server.close(() => resolve())));

  it("should be undici's own Pool and proxy agent", () => {
    expect(Pool).toBe(undici.Pool);
    expect(envHttpProxyAgent()).toBe(undici.EnvHttpProxyAgent);
  });

  it("should give the Pool its request API, as undici's index does", async () => {
    const pool = new Pool(origin);
    try {
      const res = await pool.request({ method: "GET", path: "/" });
      expect(res.statusCode).toBe(200);
      expect(await res.body.text()).toBe("pong");
    } finally {
      await pool.close();
    }
  });

  it("should load the whole package when a later undici moved what it takes", () => {
    const wholePool = class {};
    jest.isolateModules(() => {
      // The request API no longer where it was: the Pool alone would have no `request`.
      jest.doMock("undici/lib/api", () => ({}));
      jest.doMock("undici", () => ({ Pool: wholePool }));
      // eslint-disable-next-line @typescript-eslint/no-require-imports
      const moved = require("../../../sdk/http/undici") as typeof import("../../../sdk/http/undici");
      expect(moved.Pool).toBe(wholePool);
    });
    jest.dontMock("undici/lib/api");
    jest.dontMock("undici");
  });

  it("should not load the whole of undici", () => {
    // A fresh process: what requiring the module loads, without jest's registry in between.
    const script =
      'require("./sdk/http/undici"); const files = Object.keys(require.cache);' +
      "console.log(JSON.stringify({ index: files.some((f) => /node_modules[\\\\/]undici[\\\\/]index\\.js$/.test(f))," +
      " undici: files.filter((f) => /node_modules[\\\\/]undici[\\\\/]/.test(f)).length }));";
    const out = execFileSync(process.execPath, ["-r", "ts-node/register/transpile-only", "-e", script], {
      cwd: root,
      encoding: "utf8",
    });
    const loaded = JSON.parse(out) as { index: boolean; undici: number };
    expect(loaded.index).toBe(false);
    // The whole package is about 110 modules; Pool and its request API, about 30.
    expect(loaded.undici).toBeLessThan(60);
  });
});
