/**
 * The network settings `check` reads (stack config, then environment): each problem names the
 * setting, where it was found and the fix, never quoting a proxy URL; an `http://` base URL beyond
 * loopback fails check unless `allowInsecureHttp`.
 */
import * as fs from "node:fs";
import * as os from "node:os";
import * as path from "node:path";
import { networkSettings } from "../../../provider/dynamic/service/network";
import { checkWorkload } from "../../../provider/dynamic/workloads/check";
import type { StackConfig } from "../../../provider/dynamic/service/connection";

const config = (values: Record<string, string>): StackConfig => ({ get: (k) => values[k] });
const CONNECTION = { WWS_WORKSPACE: "demo", WWS_API_KEY: "env-Key-1234" };
const PEM = "-----BEGIN CERTIFICATE-----\nMIIB\n-----END CERTIFICATE-----\n";

describe("network settings", () => {
  it("should take the stack config over the environment, and a PEM file or the PEM text", () => {
    const dir = fs.mkdtempSync(path.join(os.tmpdir(), "wws-net-settings-"));
    try {
      fs.writeFileSync(path.join(dir, "ca.pem"), PEM);
      const s = networkSettings({
        config: config({ "wws:proxy": "http://proxy.corp:3128", "wws:caCerts": path.join(dir, "ca.pem") }),
        env: { WWS_PROXY: "http://other:1", WWS_ALLOW_INSECURE_HTTP: "TRUE" },
      });
      expect(s.problems).toEqual([]);
      expect(s.options).toEqual({
        proxy: "http://proxy.corp:3128",
        proxySetting: "the stack config wws:proxy",
        caCerts: PEM,
        allowInsecureHttp: true,
      });
      expect(networkSettings({ env: { WWS_CA_CERTS: PEM } }).options).toEqual({ caCerts: PEM });
    } finally {
      fs.rmSync(dir, { recursive: true, force: true });
    }
  });

  it("should name each setting's problem and where it was found, never quoting the proxy", () => {
    const s = networkSettings({
      config: config({ "wws:proxy": "socks9://user:Secret-Pw@proxy", "wws:caCerts": "/nowhere/ca.pem" }),
      env: { WWS_ALLOW_INSECURE_HTTP: "yes" },
    });
    expect(s.problems.map((p) => p.message)).toEqual([
      "proxy must use http or https (from the stack config wws:proxy)",
      "caCerts names a file that cannot be read (ENOENT): give the path of a PEM file or the PEM text (from the stack config wws:caCerts)",
      "allowInsecureHttp must be true or false (from the environment variable WWS_ALLOW_INSECURE_HTTP)",
    ]);
    expect(networkSettings({ env: { WWS_CA_CERTS: "-----BEGIN nothing" } }).problems[0].message).toMatch(
      /^caCerts must hold one or more PEM certificates/,
    );
  });

  it("should fail check on http:// beyond loopback, naming https:// and the opt-in", () => {
    const news = { workloadId: "web", type: "pod", image: "nginx" };
    const env = { ...CONNECTION, WWS_BASE_URL: "http://wws.corp.example:8787" };
    const refused = checkWorkload({}, news, { env }).failures;
    expect(refused).toHaveLength(1);
    expect(refused[0].reason).toMatch(/uses http:\/\/ to wws\.corp\.example, which is not this machine/);
    expect(refused[0].reason).toMatch(/Use https:\/\/, or .*wws:allowInsecureHttp true/);
    expect(checkWorkload({}, news, { env: { ...env, WWS_ALLOW_INSECURE_HTTP: "true" } }).failures).toEqual([]);
    for (const WWS_BASE_URL of ["http://127.0.0.1:8787", "http://localhost:1", "https://wws.corp.example"])
      expect(checkWorkload({}, news, { env: { ...CONNECTION, WWS_BASE_URL } }).failures).toEqual([]);
  });
});
