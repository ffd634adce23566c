/**
 * From a company network, through the real `pulumi` CLI: the service is reachable only through a
 * forward proxy (the `proxy` package in a process of its own, which alone resolves the service's
 * host name `wws.internal.test`), first over plain HTTP, then over TLS with a certificate of a
 * private CA (a TLS front, Node's own, before the local service). One stack of two pods walks:
 *
 * 1. `http://` to a host that is not loopback: preview fails naming https:// and the opt-in, and
 *    nothing reaches the proxy (the key never left the machine).
 * 2. With `wws:allowInsecureHttp`: `up` and `destroy` through `HTTP_PROXY`, seen by the proxy.
 * 3. `https://` with the private CA untrusted: preview fails at once naming the certificate problem
 *    and both ways to trust a CA; the TLS front sees no retry.
 * 4. The CA trusted through `wws:caCerts` (a file path): `up` through `HTTPS_PROXY`.
 * 5. The CA trusted through `NODE_EXTRA_CA_CERTS` instead: `destroy`.
 *
 * `NO_PROXY=127.0.0.1,localhost` throughout, as the README says: the CLI's own gRPC stays local.
 */
import * as fs from "node:fs";
import * as os from "node:os";
import * as path from "node:path";
import * as wws from "../../index";
import type { WorkspaceClient } from "../../sdk";
import { configuredStack, E2E_TIMEOUT_MS, serviceForFile, type E2eStack } from "./harness";
import { startForwardProxy, type ForwardProxy } from "../support/forward-proxy";
import { privateCa, startTlsFront } from "../support/private-ca";

jest.setTimeout(E2E_TIMEOUT_MS * 2);

const HOST = "wws.internal.test";
const service = serviceForFile();

/** The text of a failed operation's error. */
async function failure(run: () => Promise<unknown>): Promise<string> {
  try {
    await run();
  } catch (err) {
    return String(err);
  }
  throw new Error("expected the operation to fail");
}

describe("from a company network", () => {
  let dir: string;
  let proxy: ForwardProxy;
  let s: E2eStack & { client: WorkspaceClient };

  beforeAll(async () => {
    dir = fs.mkdtempSync(path.join(os.tmpdir(), "wws-net-"));
    proxy = await startForwardProxy(HOST);
  });
  afterAll(() => {
    proxy?.stop();
    fs.rmSync(dir, { recursive: true, force: true });
  });

  it("should reach the service only through the proxy, refuse the key in clear, and trust a private CA", async () => {
    const { caFile, key, cert } = privateCa(dir, HOST);
    const front = await startTlsFront(key, cert, new URL(service.url));
    try {
      s = await configuredStack(service, async () => {
        new wws.Pod("web", { image: "nginx:1.27" });
        new wws.Pod("api", { image: "nginx:1.27", ports: [{ name: "http", port: 80 }] });
      });
      service.keep(s);
      const env = s.stack.workspace.envVars;
      const port = new URL(service.url).port;
      env.NO_PROXY = "127.0.0.1,localhost";
      env.HTTP_PROXY = proxy.url;
      await s.stack.setConfig("wws:baseUrl", { value: `http://${HOST}:${port}` });

      // 1. The key in clear to a host beyond this machine: refused at preview, nothing sent.
      const insecure = await failure(() => s.preview());
      expect(insecure).toContain(`uses http:// to ${HOST}, which is not this machine`);
      expect(insecure).toContain("Use https://");
      expect(insecure).toContain("wws:allowInsecureHttp");
      expect(proxy.seen).toEqual([]);

      // 2. Opted in for a trusted network: up and destroy through HTTP_PROXY.
      await s.stack.setConfig("wws:allowInsecureHttp", { value: "true" });
      await s.up();
      expect((await s.client.getSpec()).workloads.map((w) => w.id).sort()).toEqual(["api", "web"]);
      await s.destroy();
      expect((await s.client.getSpec()).workloads).toEqual([]);
      expect(proxy.seen.length).toBeGreaterThan(0);
      expect(new Set(proxy.seen)).toEqual(new Set([`CONNECT ${HOST}:${port}`]));

      // 3. https:// with a certificate of a CA nothing trusts yet: fails at once, never retried.
      await s.stack.removeConfig("wws:allowInsecureHttp");
      delete env.HTTP_PROXY;
      env.HTTPS_PROXY = proxy.url;
      await s.stack.setConfig("wws:baseUrl", { value: `https://${HOST}:${front.port}` });
      const started = Date.now();
      const untrusted = await failure(() => s.preview());
      const untrustedMs = Date.now() - started;
      expect(untrusted).toContain("TLS certificate was refused (unable to verify the first certificate");
      expect(untrusted).toContain("Retrying cannot help");
      expect(untrusted).toContain("wws:caCerts");
      expect(untrusted).toContain("NODE_EXTRA_CA_CERTS");
      expect(untrusted).not.toContain("..");
      // The preview's connection check, which both pods wait on, connects once: a retried call would connect 5 times.
      const refused = front.connections();
      console.log(`untrusted preview: failed in ${untrustedMs} ms; ${refused} TLS connection(s)`);
      expect(refused).toBeGreaterThan(0);
      expect(refused).toBeLessThanOrEqual(3);
      expect(untrustedMs).toBeLessThan(60_000);

      // 4. The CA trusted through wws:caCerts: up through HTTPS_PROXY and the TLS front.
      const before = proxy.seen.length;
      await s.stack.setConfig("wws:caCerts", { value: caFile });
      await s.up();
      expect((await s.client.getSpec()).workloads.map((w) => w.id).sort()).toEqual(["api", "web"]);
      expect(proxy.seen.slice(before)).toContain(`CONNECT ${HOST}:${front.port}`);

      // 5. Trusted through NODE_EXTRA_CA_CERTS instead: destroy.
      await s.stack.removeConfig("wws:caCerts");
      env.NODE_EXTRA_CA_CERTS = caFile;
      await s.destroy();
      expect((await s.client.getSpec()).workloads).toEqual([]);
    } finally {
      front.close();
    }
  });
});
