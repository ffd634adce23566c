/**
 * How the SDK's client reaches the real local service from a company network: the environment's
 * proxy variables (either case) and NO_PROXY, the `proxy` option over both, a caller's
 * `dispatcher`, a private CA (`caCerts`) and a refused certificate (final at once), and an
 * `http://` base URL beyond loopback refused unless `allowInsecureHttp`. No request ever leaves
 * 127.0.0.1: a "proxy" is a closed port there, and non-loopback URLs are only constructed.
 */
import * as fs from "node:fs";
import * as net from "node:net";
import * as os from "node:os";
import * as path from "node:path";
import { Agent, type Dispatcher } from "undici";
import {
  CertificateError,
  InvalidOptionError,
  RetriesExhaustedError,
  WorkspaceClient,
  type ClientOptions,
} from "../../sdk";
import type { RunningService } from "../../server";
import { startTestService } from "../support/service";
import { privateCa, startTlsFront, type TlsFront } from "../support/private-ca";
import { startForwardProxy } from "../support/forward-proxy";

const KEY = "net-key-0123456789";
const PROXY_VARS = ["HTTPS_PROXY", "https_proxy", "HTTP_PROXY", "http_proxy", "NO_PROXY", "no_proxy"];

/** A port of 127.0.0.1 where nothing listens: a proxy that is down. */
async function closedPort(): Promise<number> {
  const server = net.createServer();
  await new Promise<void>((r) => server.listen(0, "127.0.0.1", r));
  const { port } = server.address() as net.AddressInfo;
  await new Promise((r) => server.close(r));
  return port;
}

describe("the client from a company network", () => {
  let svc: RunningService;
  let dir: string;
  let ca: ReturnType<typeof privateCa>;
  let front: TlsFront;
  let deadProxy: string;
  const saved: Record<string, string | undefined> = {};
  const clients: WorkspaceClient[] = [];
  const make = (over: Partial<ClientOptions> = {}): WorkspaceClient => {
    const c = new WorkspaceClient({
      baseUrl: svc.url,
      workspace: "net",
      apiKey: KEY,
      retry: { maxAttempts: 2, initialDelayMs: 10, maxDelayMs: 20 },
      ...over,
    });
    clients.push(c);
    return c;
  };

  beforeAll(async () => {
    svc = await startTestService({ keys: { net: KEY }, controlToken: "net-control" });
    dir = fs.mkdtempSync(path.join(os.tmpdir(), "wws-net-sdk-"));
    ca = privateCa(dir, "localhost");
    front = await startTlsFront(ca.key, ca.cert, new URL(svc.url));
    deadProxy = `http://127.0.0.1:${await closedPort()}`;
    for (const v of PROXY_VARS) saved[v] = process.env[v];
  });
  afterEach(async () => {
    for (const v of PROXY_VARS)
      if (saved[v] === undefined) delete process.env[v];
      else process.env[v] = saved[v];
    await Promise.all(clients.splice(0).map((c) => c.close()));
  });
  afterAll(async () => {
    front.close();
    await svc.close();
    fs.rmSync(dir, { recursive: true, force: true });
  });

  it("should go through the environment's proxy, in either case, unless NO_PROXY lists the host", async () => {
    for (const v of PROXY_VARS) delete process.env[v];
    process.env.http_proxy = deadProxy;
    // Through the (dead) proxy: the service is not reached, and the proxy is named with its setting.
    await expect(make().getSpec()).rejects.toThrow(`the proxy ${deadProxy} (from http_proxy) could not be reached`);
    process.env.NO_PROXY = "localhost,127.0.0.1";
    await expect(make().getSpec()).resolves.toMatchObject({ name: "net" });
    delete process.env.NO_PROXY;
    delete process.env.http_proxy;
    process.env.HTTP_PROXY = deadProxy;
    await expect(make().getSpec()).rejects.toThrow(`the proxy ${deadProxy} (from HTTP_PROXY) could not be reached`);
  });

  it("should open the event stream through the proxy too, as requests go", async () => {
    const proxy = await startForwardProxy("wws.internal.test");
    try {
      for (const v of PROXY_VARS) delete process.env[v];
      process.env.HTTP_PROXY = proxy.url;
      const baseUrl = `http://wws.internal.test:${new URL(svc.url).port}`;
      const client = make({ baseUrl, allowInsecureHttp: true });
      const opened = new Promise<void>((resolve) => {
        const off = client.subscribe({ onState: (state) => state === "open" && (off(), resolve()) });
      });
      await expect(client.getSpec()).resolves.toMatchObject({ name: "net" });
      await opened;
      // One tunnel for the request pool and one for the stream pool, both to the name only the proxy knows.
      expect(proxy.seen).toEqual(Array(2).fill(`CONNECT wws.internal.test:${new URL(svc.url).port}`));
    } finally {
      proxy.stop();
    }
  });

  it("should use a named proxy whatever NO_PROXY says, and a caller's dispatcher as it is", async () => {
    process.env.NO_PROXY = "127.0.0.1";
    await expect(make({ proxy: deadProxy }).getSpec()).rejects.toThrow(
      `the proxy ${deadProxy} (from the proxy option) could not be reached`,
    );
    let dispatched = 0;
    class CountingAgent extends Agent {
      dispatch(opts: Dispatcher.DispatchOptions, handler: Dispatcher.DispatchHandler): boolean {
        dispatched++;
        return super.dispatch(opts, handler);
      }
    }
    const agent = new CountingAgent();
    const client = make({ dispatcher: agent, proxy: deadProxy });
    await expect(client.getSpec()).resolves.toMatchObject({ name: "net" });
    expect(dispatched).toBe(1);
    await client.close();
    expect(agent.closed).toBe(false); // the caller's to close
    await agent.close();
  });

  it("should refuse an unknown CA at once, naming both ways to trust it, and trust it through caCerts", async () => {
    const baseUrl = `https://localhost:${front.port}`;
    const before = front.connections();
    const err = await make({ baseUrl, retry: { maxAttempts: 5, initialDelayMs: 10, maxDelayMs: 20 } })
      .getSpec()
      .catch((e: unknown) => e);
    expect(err).toBeInstanceOf(CertificateError);
    expect(err).not.toBeInstanceOf(RetriesExhaustedError);
    const message = (err as Error).message;
    expect(message).toContain("unable to verify the first certificate");
    expect(message).toContain("caCerts");
    expect(message).toContain("NODE_EXTRA_CA_CERTS");
    expect(message).not.toContain("..");
    expect(message).not.toContain(KEY);
    expect(front.connections() - before).toBe(1);

    const pem = fs.readFileSync(ca.caFile, "utf8");
    await expect(make({ baseUrl, caCerts: pem }).getSpec()).resolves.toMatchObject({ name: "net" });
    expect(() => make({ baseUrl, caCerts: "not a certificate" })).toThrow(InvalidOptionError);
  });

  it("should refuse http:// beyond loopback unless allowInsecureHttp, and allow loopback", () => {
    const refused = (): unknown => {
      try {
        make({ baseUrl: "http://wws.example.com:8787" });
      } catch (e) {
        return e;
      }
      return undefined;
    };
    const err = refused();
    expect(err).toBeInstanceOf(InvalidOptionError);
    expect((err as InvalidOptionError).option).toBe("baseUrl");
    expect((err as Error).message).toMatch(/Use https:\/\/, or .* allowInsecureHttp/);
    expect(() => make({ baseUrl: "http://10.1.2.3", allowInsecureHttp: true })).not.toThrow();
    for (const baseUrl of ["http://localhost:1", "http://127.0.0.2:1", "http://[::1]:1", "https://wws.example.com"])
      expect(() => make({ baseUrl })).not.toThrow();
  });
});
