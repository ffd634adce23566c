import { UNKNOWN } from "../../../provider/dynamic/inputs/unknown";
import { checkTemplate } from "../../../provider/dynamic/templates/check";
import { checkWorkload } from "../../../provider/dynamic/workloads/check";
import type { StackConfig } from "../../../provider/dynamic/service/connection";
import { CORPUS } from "../../reliability/corpus";
import { byField, fieldOf, givenOf } from "../../support/failures";

const ENV = { WWS_BASE_URL: "http://127.0.0.1:1", WWS_WORKSPACE: "demo", WWS_API_KEY: "env-Key-1234" };
const PASSWORD = "check-Pass-Word-9";
const config = (values: Record<string, string>): StackConfig => ({ get: (k) => values[k] });
const vm = (extra: Record<string, unknown> = {}): Record<string, unknown> => ({
  workloadId: "web",
  type: "vm-ubuntu",
  credentials: { password: PASSWORD },
  ...extra,
});

describe("checkWorkload", () => {
  it("should accept a valid workload and write the resolved workspace and base URL, never the key, into the inputs", () => {
    const { inputs, failures } = checkWorkload({}, vm({ cpus: 2 }), { env: ENV });
    expect(failures).toEqual([]);
    expect(inputs).toMatchObject({ workspace: "demo", baseUrl: "http://127.0.0.1:1", cpus: 2 });
    expect(inputs).not.toHaveProperty("apiKey");
  });

  it("should report every bad field at once, with its path and the fix", () => {
    const { failures } = checkWorkload(
      {},
      vm({
        workloadId: "Web_1",
        cpus: "two",
        memory: "4GB",
        ports: [{ port: 0 }],
        placement: { region: "eu", host: "h1" },
        color: "red",
      }),
      { env: ENV },
    );
    const byProperty = byField(failures);
    expect(Object.keys(byProperty).sort()).toEqual([
      "color",
      "cpus",
      "memory",
      "placement.host",
      "ports[0].port",
      "workloadId",
    ]);
    expect(byProperty.workloadId).toMatch(/lower-case letters, digits and '-'/);
    expect(byProperty.memory).toMatch(/size such as 512Mi, 4Gi or 1Ti/);
    expect(byProperty["placement.host"]).toMatch(/not both/);
    expect(byProperty.color).toMatch(/unknown field: remove it \(the fields are cpus, memory/);
  });

  it("should report cross-field rules together with the other failures", () => {
    const { failures } = checkWorkload(
      {},
      {
        workloadId: "db",
        type: "storage",
        engine: "redis",
        cpu: "lots",
        backup: { enabled: true },
        credentials: { password: PASSWORD },
      },
      { env: ENV },
    );
    expect(failures.map((f) => f.property).sort()).toEqual(["backup", "cpu"]);
  });

  it("should require credentials for a new VM, but not for an update or an adoption", () => {
    const noCreds = vm({ credentials: undefined });
    expect(checkWorkload({}, noCreds, { env: ENV }).failures).toEqual([
      { property: "", reason: expect.stringMatching(/^credentials: required for a new VM/) },
    ]);
    expect(checkWorkload(vm(), noCreds, { env: ENV }).failures).toEqual([]);
    expect(checkWorkload({}, { ...noCreds, adopt: true }, { env: ENV }).failures).toEqual([]);
  });

  it("should require credentials where an update first enables aiDaemon, and only there", () => {
    const daemon = vm({ credentials: undefined, aiDaemon: { enabled: true } });
    expect(checkWorkload(vm(), daemon, { env: ENV }).failures).toEqual([
      { property: "", reason: expect.stringMatching(/^credentials: .*first enables aiDaemon/) },
    ]);
    // Kept enabled: the agent installed its key already.
    expect(checkWorkload(vm({ aiDaemon: { enabled: true } }), daemon, { env: ENV }).failures).toEqual([]);
  });

  it("should never name a secret field as the failing property, nor quote a secret", () => {
    const { failures } = checkWorkload(
      {},
      {
        workloadId: "db",
        type: "storage",
        engine: "postgres",
        credentials: { password: "", extra: PASSWORD },
        apiKey: "has space",
      },
      { env: ENV },
    );
    expect(failures.map((f) => f.property)).toEqual(["", "", ""]);
    expect(failures.map(fieldOf).sort()).toEqual(["apiKey", "credentials.extra", "credentials.password"]);
    expect(failures.map(givenOf).filter(Boolean)).toEqual([
      "set; not shown, it may be secret",
      "set; not shown, it may be secret",
    ]);
    expect(JSON.stringify(failures)).not.toContain(PASSWORD);
    expect(byField(failures).apiKey).toMatch(/^apiKey must be a non-empty string of printable ASCII/);
  });

  it("should let unknown values through and skip the rules that depend on them", () => {
    const news = {
      workloadId: UNKNOWN,
      type: "pod",
      image: UNKNOWN,
      cpu: "x",
      ports: [{ name: "http", port: UNKNOWN }],
      apiKey: UNKNOWN,
    };
    const { failures } = checkWorkload({}, news, {
      env: {},
      config: config({ "wws:baseUrl": "https://h", "wws:workspace": "demo" }),
    });
    expect(failures.map((f) => f.property)).toEqual(["cpu"]);
    expect(checkWorkload({}, { workloadId: "w", type: UNKNOWN, whatever: 1 }, { env: ENV }).failures).toEqual([]);
  });

  it("should name all three ways to set each missing connection setting", () => {
    const { failures } = checkWorkload({}, vm(), { env: {} });
    expect(failures).toHaveLength(3);
    const text = failures.map((f) => `${f.property}: ${f.reason}`).join("\n");
    for (const s of [
      "`baseUrl` argument",
      "wws:baseUrl",
      "WWS_BASE_URL",
      "wws:workspace",
      "WWS_WORKSPACE",
      "`apiKey` argument",
      "--secret wws:apiKey",
      "WWS_API_KEY",
    ])
      expect(text).toContain(s);
  });

  it("should take each setting from the arguments, then the stack config, then the environment", () => {
    const sources = { env: ENV, config: config({ "wws:workspace": "from-config" }) };
    expect(checkWorkload({}, vm(), sources).inputs).toMatchObject({
      workspace: "from-config",
      baseUrl: ENV.WWS_BASE_URL,
    });
    expect(checkWorkload({}, vm({ workspace: "from-args" }), { env: ENV }).inputs.workspace).toBe("from-args");
    expect(checkWorkload({}, vm({ workspace: "Bad Name" }), sources).failures[0]).toEqual({
      property: "workspace",
      reason: expect.stringMatching(/^workspace must be 1-63/),
    });
  });

  it("should refuse a workspace named in the program that the stack config or environment names otherwise, naming both", () => {
    const fromConfig = { env: ENV, config: config({ "wws:workspace": "acme" }) };
    expect(checkWorkload({}, vm({ workspace: "team" }), fromConfig).failures).toEqual([
      {
        property: "workspace",
        reason: expect.stringMatching(/program names workspace team but the stack config wws:workspace names acme/),
      },
    ]);
    expect(checkWorkload({}, vm({ workspace: "team" }), { env: ENV }).failures).toEqual([
      { property: "workspace", reason: expect.stringMatching(/environment variable WWS_WORKSPACE names demo/) },
    ]);
    // Agreeing sources are no conflict; the program alone decides when nothing else names one.
    expect(checkWorkload({}, vm({ workspace: "acme" }), fromConfig).failures).toEqual([]);
    const programOnly = { env: { ...ENV, WWS_WORKSPACE: undefined } };
    expect(checkWorkload({}, vm({ workspace: "team" }), programOnly).failures).toEqual([]);
  });

  it("should give each out-of-range or mistyped field its range or allowed values and what was given, in no zod default words", () => {
    const reasons = (extra: Record<string, unknown>, type = "vm-ubuntu"): Record<string, string> =>
      byField(checkWorkload({}, vm({ type, ...extra }), { env: ENV }).failures);
    expect(reasons({ cpus: -1 })).toEqual({ cpus: "must be a whole number from 1 to 256; got -1" });
    expect(reasons({ cpus: 2.5 })).toEqual({ cpus: "must be a whole number from 1 to 256; got 2.5" });
    expect(reasons({ engine: "mysql" }, "storage")).toEqual({ engine: 'must be one of postgres, redis; got "mysql"' });
    const pod = reasons({ credentials: undefined, image: "nginx", ports: [{ name: "", port: 70_000 }] }, "pod");
    expect(pod).toEqual({
      "ports[0].name": "must be 1 to 63 characters long",
      "ports[0].port": "must be a whole number from 1 to 65535; got 70000",
    });
    const db = reasons({ engine: "postgres", credentials: { password: "" } }, "storage");
    expect(db).toEqual({ "credentials.password": "must be 1 to 1024 characters long" });
    expect(reasons({ credentials: undefined, image: "" }, "pod")).toEqual({ image: "must not be empty" });
  });

  it("should phrase every failure of the bad-input corpus in its own words, never zod's defaults", () => {
    const reasons = CORPUS.filter((c) => c.schema !== false).flatMap((c) => {
      const { id, ...spec } = c.body as Record<string, unknown>;
      const news =
        c.kind === "template" ? { ...(c.body as Record<string, unknown>) } : { ...spec, workloadId: id, type: c.kind };
      const out = c.kind === "template" ? checkTemplate(news, { env: ENV }) : checkWorkload({}, news, { env: ENV });
      return out.failures.map((f) => `${c.name}: ${f.reason}`);
    });
    expect(reasons.length).toBeGreaterThan(80);
    expect(reasons.filter((r) => /: (Invalid|Too (small|big)|Expected)\b/.test(r))).toEqual([]);
  });

  it("should check the options", () => {
    const { failures } = checkWorkload(
      {},
      vm({ readyTimeoutSeconds: -1, waitForReady: "yes", restartTrigger: { a: 1 } }),
      { env: ENV },
    );
    expect(failures.map((f) => f.property).sort()).toEqual(["readyTimeoutSeconds", "restartTrigger", "waitForReady"]);
  });

  it("should refuse an unknown type, naming the valid ones", () => {
    expect(checkWorkload({}, { workloadId: "w", type: "vm-debian" }, { env: ENV }).failures).toEqual([
      {
        property: "type",
        reason: expect.stringContaining("vm-ubuntu, vm-ubuntu-desktop, vm-windows, pod, browser, controller, storage"),
      },
    ]);
  });
});

describe("checkTemplate", () => {
  const tpl = (extra: Record<string, unknown> = {}): Record<string, unknown> => ({
    name: "base",
    kind: "browser",
    config: { browser: { aiAgent: { enabled: true } } },
    ...extra,
  });

  it("should accept a valid template", () => {
    expect(checkTemplate(tpl(), { env: ENV }).failures).toEqual([]);
  });

  it("should refuse every password the service would strip, at its path, without quoting it", () => {
    const { failures } = checkTemplate(
      tpl({
        kind: "vm-ubuntu",
        config: { password: PASSWORD, vm: { password: PASSWORD, credentials: { password: PASSWORD } } },
      }),
      { env: ENV },
    );
    expect(failures.map(fieldOf).sort()).toEqual([
      "config.password",
      "config.vm.credentials.password",
      "config.vm.password",
    ]);
    expect(failures[0].reason).toMatch(/cannot hold a password/);
    expect(JSON.stringify(failures)).not.toContain(PASSWORD);
  });

  it("should refuse a config over 64 KB at preview", () => {
    const { failures } = checkTemplate(tpl({ config: { browser: { blob: "x".repeat(70 * 1024) } } }), { env: ENV });
    expect(failures).toEqual([
      { property: "", reason: expect.stringMatching(/^config: at most 65536 bytes serialized/) },
    ]);
    // Also when another field fails (zod then skips the rule that measures the config).
    const both = checkTemplate(
      { kind: "nope", config: { browser: { blob: "x".repeat(70 * 1024) } } },
      { env: ENV },
    ).failures;
    expect(both.map((f) => f.property)).toEqual(["name", "kind", ""]);
    expect(both[2].reason).toMatch(
      /^config: at most 65536 bytes serialized \(64 KB\); this one is \d+: make it smaller/,
    );
  });

  it("should report the schema's failures per field, and let unknowns through", () => {
    const failures = checkTemplate({ kind: "pod", config: { vm: {} }, extra: 1 }, { env: ENV }).failures;
    expect(failures.map(fieldOf).sort()).toEqual(["config.pod", "config.vm", "extra", "name"]);
    expect(byField(failures)["config.vm"]).toBe("a pod template holds its spec under config.pod only");
    // A nested field that was set is named with its value: the engine would print `value {<nil>}` for it.
    const image = checkTemplate({ name: "web", kind: "pod", config: { image: "nginx:1.27" } }, { env: ENV }).failures;
    expect(image.map((f) => f.reason)).toEqual([
      'config.image (set to "nginx:1.27"): a pod template holds its spec under config.pod only',
      "config.pod (not set): a pod template needs config.pod",
    ]);
    expect(checkTemplate({ name: UNKNOWN, kind: "pod", config: UNKNOWN }, { env: ENV }).failures).toEqual([]);
  });
});
