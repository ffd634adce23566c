import { createHash } from "node:crypto";
import { inspect } from "node:util";
import {
  InvalidOptionError,
  WorkspaceClient,
  connectionSettingProblem,
  normalizedBaseUrl,
  workspaceConnection,
} from "../../sdk";
import { fakeServer, json, type FakeServer } from "./fake-server";

const KEY = "conn-Key-Secret-51c2e0";
const VALID = { baseUrl: "http://127.0.0.1:8787/api/", workspace: "demo", apiKey: KEY };

describe("workspaceConnection", () => {
  it("should make one frozen value: the normalised base URL, the workspace, the key and a key-free `key`", () => {
    const c = workspaceConnection(VALID);
    const digest = createHash("sha256").update(KEY).digest("hex");
    expect({ ...c }).toEqual({
      baseUrl: "http://127.0.0.1:8787/api",
      workspace: "demo",
      key: `http://127.0.0.1:8787/api\ndemo\n${digest}`,
    });
    expect(c.apiKey).toBe(KEY);
    expect(Object.isFrozen(c)).toBe(true);
    expect(() => Object.assign(c, { baseUrl: "http://other" })).toThrow(TypeError);
  });

  it("should keep the API key out of its key, JSON, inspection and spread", () => {
    const c = workspaceConnection(VALID);
    for (const text of [c.key, JSON.stringify(c), inspect(c), JSON.stringify({ ...c })])
      expect(text).not.toContain(KEY);
  });

  it("should give the same key for the same URL however written, and another for another key or workspace", () => {
    const key = (over: object) => workspaceConnection({ ...VALID, ...over }).key;
    expect(key({ baseUrl: "HTTP://127.0.0.1:8787/api" })).toBe(key({}));
    expect(key({ baseUrl: "http://127.0.0.1:8787/api//" })).toBe(key({}));
    expect(key({ baseUrl: "http://127.0.0.1:8787" })).not.toBe(key({}));
    expect(key({ workspace: "other" })).not.toBe(key({}));
    expect(key({ apiKey: `${KEY}-2` })).not.toBe(key({}));
  });

  it("should give back a connection it made as it is", () => {
    const c = workspaceConnection(VALID);
    expect(workspaceConnection(c)).toBe(c);
    // A look-alike is checked and made again.
    const copy = { ...c, apiKey: KEY };
    expect(workspaceConnection(copy)).not.toBe(copy);
  });

  it("should throw the first invalid setting with the connection check's words, never the key", () => {
    const cases: Array<[object, "baseUrl" | "workspace" | "apiKey", unknown]> = [
      [{ baseUrl: "ftp://h" }, "baseUrl", "ftp://h"],
      [{ baseUrl: `http://u:${KEY}@h` }, "baseUrl", `http://u:${KEY}@h`],
      [{ workspace: "Demo_1" }, "workspace", "Demo_1"],
      [{ apiKey: `${KEY} x` }, "apiKey", `${KEY} x`],
    ];
    for (const [over, setting, value] of cases) {
      let caught: unknown;
      try {
        workspaceConnection({ ...VALID, ...over });
      } catch (e) {
        caught = e;
      }
      expect(caught).toBeInstanceOf(InvalidOptionError);
      expect((caught as Error).message).toBe(`invalid option ${setting}: ${connectionSettingProblem(setting, value)}`);
      expect((caught as Error).message).not.toContain(KEY);
    }
    expect(() => workspaceConnection(null as never)).toThrow("invalid option options: must be an object");
  });

  it("should normalise a base URL as a connection holds it, and refuse one that is not valid", () => {
    expect(normalizedBaseUrl("http://H:80/x/")).toBe("http://h/x");
    expect(normalizedBaseUrl("https://h")).toBe("https://h");
    expect(normalizedBaseUrl("not a url")).toBeUndefined();
    expect(normalizedBaseUrl("http://h/?q=1")).toBeUndefined();
  });
});

describe("WorkspaceClient from a connection", () => {
  let server: FakeServer;
  beforeEach(async () => {
    server = await fakeServer((_req, res) => json(res, 200, { name: "demo", workloads: [] }));
  });
  afterEach(() => server.close());

  it("should use the connection as it is, with the other options beside it", async () => {
    const connection = workspaceConnection({ baseUrl: `${server.url}/`, workspace: "demo", apiKey: KEY });
    const client = new WorkspaceClient(connection, { timeoutMs: 1234 });
    expect(client.baseUrl).toBe(server.url);
    expect(client.workspace).toBe("demo");
    expect(client.options.timeoutMs).toBe(1234);
    expect(JSON.stringify(client.options)).not.toContain(KEY);
    await client.getSpec();
    expect(server.requests[0].url).toBe("/v1/tenants/demo/spec");
    expect(server.requests[0].headers["x-api-key"]).toBe(KEY);
    await client.close();
  });

  it("should still check the other options", () => {
    const connection = workspaceConnection({ ...VALID, baseUrl: "http://127.0.0.1:1" });
    expect(() => new WorkspaceClient(connection, { timeoutMs: 0 })).toThrow("invalid option timeoutMs");
  });
});
