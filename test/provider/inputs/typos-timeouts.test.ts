import { checkTemplate } from "../../../provider/dynamic/templates/check";
import { checkWorkload } from "../../../provider/dynamic/workloads/check";
import { restartsOutsidePulumi } from "../../../provider/dynamic/workloads/recorded-status";
import { closestName } from "../../../provider/dynamic/inputs/suggest";
import { parseDurationSeconds, timeoutMsOf } from "../../../provider/dynamic/inputs/timeouts";
import { byField } from "../../support/failures";

const ENV = { WWS_BASE_URL: "http://127.0.0.1:1", WWS_WORKSPACE: "demo", WWS_API_KEY: "env-Key-1234" };
const reasons = byField;

describe("unknown arguments", () => {
  it("should suggest the closest name only when one is close", () => {
    expect(closestName("memroy", ["memory", "cpu"])).toBe("memory");
    expect(closestName("Image", ["image"])).toBe("image");
    expect(closestName("waitForRedy", ["waitForReady", "adopt"])).toBe("waitForReady");
    expect(closestName("colour", ["memory", "cpu", "image"])).toBeUndefined();
  });

  it("should refuse a typo of a spec field, an option, a field of another kind and a nested field, each with a did-you-mean", () => {
    const news = {
      workloadId: "web",
      type: "pod",
      image: "nginx",
      memroy: "1Gi",
      waitForRedy: true,
      cpus: 2,
      ports: [{ name: "http", prot: 80 }],
      source: { repo: "r", reff: "main" },
    };
    expect(reasons(checkWorkload({}, news, { env: ENV }).failures)).toEqual({
      memroy: expect.stringMatching(
        /^unknown field: did you mean memory\? Rename or remove it \(the fields are image, command, cpu, memory, ports, source\)$/,
      ),
      waitForRedy: expect.stringMatching(/did you mean waitForReady\?/),
      cpus: expect.stringMatching(/did you mean cpu\?/),
      "ports[0].prot": "unknown field: did you mean port? Rename or remove it (the fields are name, port)",
      "ports[0].port": "required: set it",
      "source.reff": "unknown field: did you mean ref? Rename or remove it (the fields are repo, ref)",
    });
  });

  it("should name the nested credentials field without quoting it", () => {
    const { failures } = checkWorkload(
      {},
      { workloadId: "vm1", type: "vm-ubuntu", credentials: { password: "Secret-Pw-1", usrname: "me" } },
      { env: ENV },
    );
    expect(reasons(failures)).toEqual({ "credentials.usrname": expect.stringMatching(/did you mean username\?/) });
    expect(JSON.stringify(failures)).not.toContain("Secret-Pw-1");
  });

  it("should refuse a template argument no template has", () => {
    const { failures } = checkTemplate({ name: "t", kind: "pod", config: { pod: {} }, descripton: "x" }, { env: ENV });
    expect(reasons(failures)).toEqual({ descripton: expect.stringMatching(/did you mean description\?/) });
  });
});

describe("customTimeouts carried in the inputs", () => {
  it("should parse the durations the engine takes", () => {
    expect([
      parseDurationSeconds("30s"),
      parseDurationSeconds("5m"),
      parseDurationSeconds("1h30m"),
      parseDurationSeconds("1.5h"),
      parseDurationSeconds("500ms"),
    ]).toEqual([30, 300, 5400, 5400, 0.5]);
    expect([
      parseDurationSeconds("5"),
      parseDurationSeconds("-5m"),
      parseDurationSeconds("5 minutes"),
      parseDurationSeconds(""),
    ]).toEqual([undefined, undefined, undefined, undefined]);
  });

  it("should give readyTimeoutSeconds precedence over create and update, and customTimeouts.delete precedence over it", () => {
    const props = { readyTimeoutSeconds: 30, customTimeouts: { create: "5m", update: "10m", delete: "1m" } };
    expect([timeoutMsOf(props, "create"), timeoutMsOf(props, "update"), timeoutMsOf(props, "delete")]).toEqual([
      30_000, 30_000, 60_000,
    ]);
    const custom = { customTimeouts: { create: "5m" } };
    expect([timeoutMsOf(custom, "create"), timeoutMsOf(custom, "update"), timeoutMsOf(custom, "delete")]).toEqual([
      300_000, 600_000, 600_000,
    ]);
  });

  it("should refuse a bad duration or operation at check, naming it", () => {
    const { failures } = checkWorkload(
      {},
      { workloadId: "b", type: "browser", customTimeouts: { create: "soon", update: "48h", read: "1m" } },
      { env: ENV },
    );
    expect(reasons(failures)).toEqual({
      "customTimeouts.create": expect.stringMatching(/such as 30s, 5m or 1h30m \(got "soon"\)/),
      "customTimeouts.update": expect.stringMatching(/at most 24h/),
      "customTimeouts.read": expect.stringMatching(/use create, update or delete/),
    });
  });
});

describe("restarts outside Pulumi", () => {
  it("should count the restarts the state did not expect, and keep counting until an up drops them", () => {
    const status = (restartCount: number) => ({ id: "w", phase: "Running", restartCount }) as never;
    const stored = (restartCount: number, drift?: number) => ({
      status: status(restartCount),
      restartsOutsidePulumi: drift,
    });
    expect(restartsOutsidePulumi(stored(0), status(0))).toBeUndefined();
    expect(restartsOutsidePulumi(stored(0), status(2))).toBe(2);
    expect(restartsOutsidePulumi(stored(2, 2), status(3))).toBe(3);
    expect(restartsOutsidePulumi(stored(3, 3), status(3))).toBe(3);
  });
});
