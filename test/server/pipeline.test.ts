import { createServer, type Server } from "node:http";
import type { AddressInfo } from "node:net";
import { KeyRing } from "../../server/auth";
import type { ServiceContext } from "../../server/context";
import { Counters } from "../../server/http/counters";
import { Faults } from "../../server/http/faults";
import { createRequestHandler } from "../../server/http/pipeline";
import { Router } from "../../server/http/router";
import { resolveOptions } from "../../server/options";

describe("createRequestHandler", () => {
  const lines: string[] = [];
  let server: Server;
  let url: string;
  beforeAll(async () => {
    const options = resolveOptions({ log: (l) => lines.push(l) });
    const ctx = {
      options,
      keys: new KeyRing(options.keys),
      counters: new Counters(),
      faults: new Faults(),
    } as ServiceContext;
    const router = new Router()
      .add("GET", "/boom", "public", () => {
        throw new Error("details that must not leak: hunter2");
      })
      .add("GET", "/reject", "public", async () => Promise.reject(new TypeError("async hunter2")));
    server = createServer(createRequestHandler(ctx, router));
    await new Promise<void>((r) => server.listen(0, "127.0.0.1", r));
    url = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
  });
  afterAll(() => new Promise((r) => server.close(r)));

  it("should turn an unexpected error into a 500 internal error body that says nothing about it", async () => {
    for (const path of ["/boom", "/reject"]) {
      const res = await fetch(url + path);
      expect(res.status).toBe(500);
      expect(await res.json()).toEqual({ error: { code: "internal", message: "internal error" } });
      expect(res.headers.get("x-request-id")).toMatch(/^req_/);
    }
    expect(lines.join("\n")).not.toContain("hunter2");
    expect(lines.filter((l) => l.startsWith("internal error req_"))).toHaveLength(2);
  });
});
