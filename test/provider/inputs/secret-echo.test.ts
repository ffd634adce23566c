/**
 * No value of a secret or write-only field is ever printed, whatever its type: every such field of
 * every class (the declarations' secret fields, a workload's login, a pod's `source`, each field
 * inside them; a template's API key and the same fields inside its `config`), given a string, a
 * number, an object and an array, and every failure `check` reports scanned for any part of the value.
 */
import type { z } from "zod";
import { fieldsAt } from "../../../provider/dynamic/inputs/suggest";
import { checkTemplate } from "../../../provider/dynamic/templates/check";
import { checkWorkload } from "../../../provider/dynamic/workloads/check";
import { TEMPLATE_RULES } from "../../../provider/fields/template-fields";
import { WORKLOAD_RULES } from "../../../provider/fields/workload-rules";
import { CREATE_BODY, Credentials, WORKLOAD_TYPES, specKeyOf, type WorkloadType } from "../../../sdk";

const ENV = { WWS_BASE_URL: "http://127.0.0.1:1", WWS_WORKSPACE: "demo", WWS_API_KEY: "env-Key-1234" };
const TEXT = "echo-Secret-Value-7f3a";
const NUMBER = 918273645017;
/** The value of each type, and the pieces of it that must not appear. */
const VALUES: Array<[string, unknown]> = [
  ["a string", TEXT],
  ["a number", NUMBER],
  ["an object", { x: TEXT, n: NUMBER }],
  ["an array", [TEXT, NUMBER]],
];
const leaks = (printed: string): boolean => printed.includes(TEXT) || printed.includes(String(NUMBER));

/** A valid workload of `type`, so that a failure is the secret field's. */
const VALID: Record<string, Record<string, unknown>> = {
  pod: { image: "nginx:1.27" },
  storage: { engine: "postgres", credentials: { password: "valid-Pass-Word-1" } },
};

/** Every secret field of a workload of `type`, as a path: the declared ones and each field inside them. */
function secretPaths(type: WorkloadType): string[][] {
  const body = CREATE_BODY[type] as unknown as z.ZodType;
  return WORKLOAD_RULES.secretKeys.flatMap((key) => {
    const inside = key === "credentials" ? Object.keys(Credentials.shape) : fieldsAt(body, [key]);
    return [[key], ...inside.map((f) => [key, f])];
  });
}

const setAt = (bag: Record<string, unknown>, path: string[], value: unknown): Record<string, unknown> =>
  path.length === 1
    ? { ...bag, [path[0]]: value }
    : { ...bag, [path[0]]: setAt({ ...(bag[path[0]] as Record<string, unknown>) }, path.slice(1), value) };

describe("check never prints the value of a secret or write-only field", () => {
  const cases = WORKLOAD_TYPES.flatMap((type) =>
    secretPaths(type).flatMap((path) => VALUES.map(([what, value]) => [type, path.join("."), what, value] as const)),
  );

  it("should cover a workload's API key, login (its username and password) and a pod's source (repo and ref)", () => {
    expect(new Set(cases.map(([, path]) => path))).toEqual(
      new Set([
        "apiKey",
        "credentials",
        "credentials.username",
        "credentials.password",
        "source",
        "source.repo",
        "source.ref",
      ]),
    );
  });

  it.each(cases)("%s, %s set to %s", (type, path, _, value) => {
    const news = setAt({ workloadId: "w", type, ...VALID[type] }, path.split("."), value);
    const { failures } = checkWorkload({}, news, { env: ENV });
    // A value of the wrong type is refused: the scan below reads a failure about it. (An API key
    // argument that is not a string is passed over for the stack config's or the environment's.)
    if (typeof value !== "string" && path !== "apiKey") expect(failures.length).toBeGreaterThan(0);
    expect(leaks(JSON.stringify(failures))).toBe(false);
  });

  const templateCases = WORKLOAD_TYPES.flatMap((kind) => {
    const key = specKeyOf(kind);
    const inConfig = secretPaths(kind)
      .filter(([top]) => top !== "apiKey")
      .map((p) => ["config", key, ...p]);
    return [...TEMPLATE_RULES.secretKeys.map((k) => [k]), ...inConfig].flatMap((path) =>
      VALUES.map(([what, value]) => [kind, path.join("."), what, value] as const),
    );
  });

  it.each(templateCases)("template of kind %s, %s set to %s", (kind, path, _, value) => {
    const news = setAt({ name: "t", kind, config: { [specKeyOf(kind)]: {} } }, path.split("."), value);
    const { failures } = checkTemplate(news, { env: ENV });
    if (typeof value !== "string" && path !== "apiKey") expect(failures.length).toBeGreaterThan(0);
    expect(leaks(JSON.stringify(failures))).toBe(false);
  });

  it("should still say what the value is, and show a value that is not secret", () => {
    const { failures } = checkWorkload(
      {},
      { workloadId: "w", type: "storage", engine: "postgres", credentials: { password: NUMBER } },
      { env: ENV },
    );
    expect(failures.map((f) => f.reason)).toEqual([
      "credentials.password (set; not shown, it may be secret): must be a string; got a number",
    ]);
    const pod = checkWorkload({}, { workloadId: "w", type: "pod", image: "nginx", cpu: 3 }, { env: ENV }).failures;
    expect(pod).toEqual([{ property: "cpu", reason: "must be a string; got 3" }]);
  });
});
