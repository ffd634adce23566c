import { UNKNOWN } from "../../../provider/dynamic/inputs/unknown";
import { checkTemplate } from "../../../provider/dynamic/templates/check";
import { checkWorkload } from "../../../provider/dynamic/workloads/check";
import { CONFIG_EXAMPLES } from "../../../provider/fields/reference";
import { STAND_IN_KEYS, blueprintFields } from "../../../provider/fields/template-blueprint";
import { CREATE_BODY, WORKLOAD_TYPES, specKeyOf, type WorkloadType } from "../../../sdk";
import { byField, givenOf } from "../../support/failures";

const ENV = { WWS_BASE_URL: "http://127.0.0.1:1", WWS_WORKSPACE: "demo", WWS_API_KEY: "env-Key-1234" };
const template = (kind: WorkloadType, spec: unknown) =>
  checkTemplate({ name: "base", kind, config: { [specKeyOf(kind)]: spec } }, { env: ENV }).failures;

/** A spec field's bad value, checked by a class (type, fields beside it to be valid) and by a blueprint. */
const CASES: Array<[type: WorkloadType, field: string, value: unknown]> = [
  ["pod", "memory", "512MB"],
  ["pod", "cpu", "half"],
  ["pod", "ports", [{ name: "http", port: 70_000 }]],
  ["pod", "command", "run"],
  ["vm-ubuntu", "cpus", 0],
  ["vm-windows", "storageSize", "1PB"],
  ["vm-ubuntu", "placement", { region: "eu", host: "h1" }],
  ["vm-ubuntu", "aiDaemon", { enabled: "yes" }],
  ["browser", "memory", 512],
  ["controller", "autodiscover", "on"],
  ["storage", "engine", "mysql"],
  ["storage", "instances", 4],
  ["storage", "network", { exposed: 1 }],
];
const VALID_BESIDE: Record<string, Record<string, unknown>> = {
  pod: { image: "nginx:1.27" },
  "vm-ubuntu": { credentials: { password: "a-Pass-Word-1" } },
  "vm-windows": { credentials: { password: "a-Pass-Word-1" } },
  storage: { engine: "postgres", credentials: { password: "a-Pass-Word-1" } },
};

describe("a Template's spec object, checked as its kind's class checks its fields", () => {
  it.each(CASES)(
    "should refuse %s's %s = %j with the class's message, at config.<kind>.<field>",
    (type, field, value) => {
      const cls = checkWorkload({}, { workloadId: "w", type, ...VALID_BESIDE[type], [field]: value }, { env: ENV });
      const blueprint = template(type, { [field]: value });
      expect(cls.failures.length).toBeGreaterThan(0);
      const prefix = `config.${specKeyOf(type)}.`;
      const classReasons = Object.fromEntries(Object.entries(byField(cls.failures)).map(([k, r]) => [prefix + k, r]));
      expect(byField(blueprint)).toEqual(classReasons);
    },
  );

  it("should name the path and the value, and say which field a misspelt one was meant to be", () => {
    const failures = template("pod", { memory: "512MB", memroy: "512Mi", cpu: "half" });
    expect(failures.map((f) => f.reason).sort()).toEqual([
      'config.pod.cpu (set to "half"): must be millicores such as 500m or whole cores such as 2',
      'config.pod.memory (set to "512MB"): must be a size such as 512Mi, 4Gi or 1Ti',
      'config.pod.memroy (set to "512Mi"): unknown field: did you mean memory? Rename or remove it (the fields are image, command, cpu, memory, ports, source)',
    ]);
    expect(failures.every((f) => f.property === "")).toBe(true);
  });

  it("should require nothing the class requires: an empty blueprint of every kind, and each documented example, pass", () => {
    for (const kind of WORKLOAD_TYPES) {
      expect([kind, template(kind, {})]).toEqual([kind, []]);
      expect([kind, checkTemplate({ name: "t", kind, config: CONFIG_EXAMPLES[kind] }, { env: ENV }).failures]).toEqual([
        kind,
        [],
      ]);
    }
    // Every field a create body requires has a stand-in, so its cross-field rules run without it.
    for (const kind of WORKLOAD_TYPES) {
      const required = Object.entries(CREATE_BODY[kind].shape)
        .filter(([, s]) => !(s as { safeParse(v: unknown): { success: boolean } }).safeParse(undefined).success)
        .map(([k]) => k);
      expect([kind, required.filter((k) => !STAND_IN_KEYS.includes(k))]).toEqual([kind, []]);
    }
  });

  it("should keep the class's cross-field rules over the fields the blueprint sets", () => {
    expect(byField(template("storage", { engine: "redis", backup: { enabled: true } }))).toEqual({
      "config.storage.backup": "backup is only available for engine postgres",
    });
    // Without an engine the rule cannot apply; a pod blueprint needs neither image nor source.repo.
    expect(template("storage", { backup: { enabled: true } })).toEqual([]);
    expect(template("pod", { cpu: "1" })).toEqual([]);
    // A nested object still takes its required fields.
    expect(byField(template("pod", { source: { ref: "main" } }))).toEqual({
      "config.pod.source.repo": "required: set it",
    });
  });

  it("should take a username without a password, refuse the password apart, and a browser's aiAgent (service spec 2.4)", () => {
    expect(template("vm-ubuntu", { credentials: { username: "ops" } })).toEqual([]);
    const withPassword = template("storage", { credentials: { username: "app", password: "a-Pass-Word-1" } });
    expect(withPassword.map((f) => f.reason)).toEqual([
      expect.stringMatching(
        /^config\.storage\.credentials\.password \(set; not shown, it may be secret\): a template cannot hold a password/,
      ),
    ]);
    expect(template("browser", { aiAgent: { enabled: true, provider: "p", model: "m" }, cpu: "1" })).toEqual([]);
    expect(byField(template("browser", { aiAgent: { enabled: "yes" } }))).toEqual({
      "config.browser.aiAgent.enabled": "must be true or false; got a string",
    });
    expect(blueprintFields("browser")).toEqual(["cpu", "memory", "aiAgent"]);
  });

  it("should let a value not known yet through, and check the fields beside it", () => {
    expect(template("pod", UNKNOWN)).toEqual([]);
    const failures = template("pod", { image: UNKNOWN, memory: "512MB" });
    expect(failures.map((f) => [byField([f]), givenOf(f)])).toEqual([
      [{ "config.pod.memory": "must be a size such as 512Mi, 4Gi or 1Ti" }, 'set to "512MB"'],
    ]);
  });
});
