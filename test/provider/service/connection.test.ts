import { connectionOf, requireConnection, resolveConnection } from "../../../provider/dynamic/service/connection";
import { createContext } from "../../../provider/dynamic/context";
import { checkConnection } from "../../../provider/dynamic/service/check-connection";
import { Declarations } from "../../../provider/dynamic/ownership/declarations";
import { Preflight } from "../../../provider/dynamic/service/preflight";
import { UNKNOWN } from "../../../provider/dynamic/inputs/unknown";
import { workspaceConnection, type WorkspaceClient } from "../../../sdk";

const KEY = "conn-Key-Secret-7a11f4";
const ENV = { WWS_BASE_URL: "http://127.0.0.1:1/", WWS_WORKSPACE: "demo", WWS_API_KEY: KEY };
const ENV_SETTINGS = { baseUrl: ENV.WWS_BASE_URL, workspace: ENV.WWS_WORKSPACE, apiKey: ENV.WWS_API_KEY };

describe("the provider's connection", () => {
  it("should keep the settings as found for state and messages, beside the SDK's connection value", () => {
    const conn = requireConnection({}, { env: ENV });
    expect(conn.baseUrl).toBe("http://127.0.0.1:1/");
    expect(conn.workspace).toBe("demo");
    expect(conn.connection).toEqual(workspaceConnection(ENV_SETTINGS));
    expect(conn.connection.baseUrl).toBe("http://127.0.0.1:1");
    expect(JSON.stringify(conn)).not.toContain(KEY);
  });

  it("should make no connection while a setting is missing, not known or invalid", () => {
    expect(connectionOf(resolveConnection({}, { env: ENV }))).toBeDefined();
    expect(connectionOf(resolveConnection({ apiKey: UNKNOWN }, { env: ENV }))).toBeUndefined();
    expect(connectionOf(resolveConnection({}, { env: { ...ENV, WWS_API_KEY: undefined } }))).toBeUndefined();
    expect(connectionOf(resolveConnection({ baseUrl: "ftp://h" }, { env: ENV }))).toBeUndefined();
  });

  it("should refuse an empty argument by its name, never falling through to the stack config or environment", () => {
    for (const field of ["apiKey", "baseUrl", "workspace"]) {
      expect(connectionOf(resolveConnection({ [field]: "" }, { env: ENV }))).toBeUndefined();
      expect(() => requireConnection({ [field]: "" }, { env: ENV })).toThrow(
        `the \`${field}\` argument is empty: give it a value, or leave it out (undefined) to take the stack config`,
      );
      const failures = checkConnection(resolveConnection({ [field]: "" }, { env: ENV }), { env: ENV }, {});
      expect(failures.map((f) => `${f.property} ${f.reason}`).join("\n")).toContain(
        `the \`${field}\` argument is empty`,
      );
    }
  });

  it("should share one client per connection key, however the base URL is written; two API keys are two clients", async () => {
    const ctx = createContext({ env: {} });
    const a = ctx.client(requireConnection({}, { env: ENV }));
    const b = ctx.client(requireConnection({}, { env: { ...ENV, WWS_BASE_URL: "HTTP://127.0.0.1:1" } }));
    const c = ctx.client(requireConnection({}, { env: { ...ENV, WWS_API_KEY: `${KEY}-2` } }));
    expect(b).toBe(a);
    expect(c).not.toBe(a);
    await ctx.close();
  });

  it("should check a connection once per key", async () => {
    const preflight = new Preflight(() => Date.now());
    let reads = 0;
    const client = {
      getSpec: () => {
        reads++;
        return Promise.resolve({ name: "demo", workloads: [] });
      },
    } as unknown as WorkspaceClient;
    const r = resolveConnection({}, { env: ENV });
    const other = resolveConnection({}, { env: { ...ENV, WWS_BASE_URL: "http://127.0.0.1:1" } });
    await preflight.connection(client, connectionOf(r)!, r);
    await preflight.connection(client, connectionOf(other)!, other);
    expect(reads).toBe(1);
  });
});

describe("Declarations", () => {
  it("should find a workload's declarer by base URL however written, workspace and id", () => {
    const d = new Declarations();
    expect(d.claim("http://127.0.0.1:1/", "demo", "web", "urn:a")).toBeUndefined();
    expect(d.claim("HTTP://127.0.0.1:1", "demo", "web", "urn:b")).toBe("urn:a");
    expect(d.urnOf("http://127.0.0.1:1", "demo", "web")).toBe("urn:a");
    expect(d.urnOf("http://127.0.0.1:1", "other", "web")).toBeUndefined();
    expect(d.urnOf("http://127.0.0.1:2", "demo", "web")).toBeUndefined();
    // A base URL that check refuses is kept as written.
    expect(d.claim("not a url", "demo", "web", "urn:c")).toBeUndefined();
    expect(d.urnOf("not a url", "demo", "web")).toBe("urn:c");
  });
});
