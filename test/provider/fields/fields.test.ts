import { readFileSync } from "node:fs";
import { join } from "node:path";
import { WorkloadStatus, createBodyFields, WORKLOAD_TYPES, type WorkloadType } from "../../../sdk/schemas";
import { CONNECTION_SETTING_NAMES } from "../../../sdk/connection-check";
import {
  replaces,
  type ChangeEffect,
  type ConditionalChange,
  type FieldTable,
} from "../../../provider/fields/declaration";
import { TEMPLATE_FIELDS, TEMPLATE_RULES } from "../../../provider/fields/template-fields";
import { SPEC_FIELD_RULES, WORKLOAD_FIELDS } from "../../../provider/fields/workload-fields";
import { WORKLOAD_RULES, workloadRules } from "../../../provider/fields/workload-rules";
import { checkOptions } from "../../../provider/dynamic/workloads/check";
import {
  classifyWorkloadChanges,
  diffOfChanges,
  notesOf,
  type WorkloadChanges,
} from "../../../provider/dynamic/workloads/diff";
import { databaseReplacement } from "../../../provider/dynamic/workloads/data-loss";

/** A pod's state: every option set, Running at its generation. */
const state = {
  workloadId: "web",
  type: "pod",
  image: "nginx:1.27",
  workspace: "demo",
  baseUrl: "http://127.0.0.1:1",
  waitForReady: true,
  phase: "Running",
  generation: 1,
  observedGeneration: 1,
};

/** A value of `key` other than `value`, of the kind its declaration expects. */
function another(key: string, value: unknown): unknown {
  if (typeof value === "boolean") return !value;
  if (key === "readyTimeoutSeconds") return 77;
  if (key === "customTimeouts") return { create: "7m" };
  if (key === "credentials") return { username: "ops", digest: "scrypt1:other" };
  return `${String(value ?? key)}-2`;
}

/** The consequence `classifyWorkloadChanges` gave a change of `key`. */
function consequence(c: WorkloadChanges, key: string): ChangeEffect {
  if (c.replaces.includes(key)) return c.deleteFirst ? "replace-delete-first" : "replace";
  if (c.updates.includes(key)) return "update";
  if (c.restart) return "restart";
  if (c.local.includes(key)) return "local";
  return "none";
}

/** Every conditional rule declared, a field's or a spec field's, with its key. */
const CONDITIONAL: [string, ConditionalChange][] = Object.entries({ ...WORKLOAD_FIELDS, ...SPEC_FIELD_RULES }).flatMap(
  ([key, decl]) => ((decl as { changeIf?: readonly ConditionalChange[] }).changeIf ?? []).map((r) => [key, r]),
) as [string, ConditionalChange][];
/** The keys a database replaces on by a rule of its own: set once. */
const DATABASE_SET_ONCE = [
  ...new Set(CONDITIONAL.filter(([, r]) => replaces(r.effect) && r.types?.includes("storage")).map(([k]) => k)),
];

/** Each input field declared in `fields`, with the value its state holds (set, so that a change is a change). */
function declaredInputs(fields: FieldTable): [string, ChangeEffect][] {
  return Object.entries(fields)
    .filter(([, f]) => f.role !== "output")
    .map(([k, f]) => [k, f.change]);
}

describe("the workload field declaration", () => {
  it.each(declaredInputs(WORKLOAD_FIELDS))("should classify a change of %s as its declared %s", (key, change) => {
    const olds = { ...state, [key]: key === "credentials" ? { digest: "scrypt1:one" } : `${key}-1` };
    if (key in state) olds[key as keyof typeof state] = state[key as keyof typeof state] as never;
    const news = { ...olds, [key]: another(key, olds[key as keyof typeof olds]) };
    expect(consequence(classifyWorkloadChanges(olds, news), key)).toBe(change);
  });

  it.each(DATABASE_SET_ONCE)(
    "should replace a database, deleting it first, on a change of %s, and its class replace on it",
    (key) => {
      const olds = { ...state, type: "storage", engine: "postgres", credentials: { digest: "scrypt1:one" } };
      const news = { ...olds, [key]: key === "engine" ? "redis" : { digest: "scrypt1:two" } };
      expect(consequence(classifyWorkloadChanges(olds, news), key)).toBe("replace-delete-first");
      expect(WORKLOAD_RULES.replaceOnChanges("storage")).toContain(key);
      expect(WORKLOAD_RULES.replaceOnChanges("pod")).not.toContain(key);
    },
  );

  it("should apply each rule only where its condition holds, and say what it says", () => {
    const db = { ...state, type: "storage", engine: "postgres" };
    // A login missing from the state (adopted, imported) is sent, not a reason to replace.
    const adopted = classifyWorkloadChanges(db, { ...db, credentials: { digest: "scrypt1:two" } });
    expect(consequence(adopted, "credentials")).toBe("update");
    const trigger = (olds: unknown, news: unknown) =>
      classifyWorkloadChanges({ ...state, restartTrigger: olds }, { ...state, restartTrigger: news });
    expect([consequence(trigger("1", "2"), "restartTrigger"), notesOf(trigger("1", "2"))]).toEqual([
      "restart",
      ["restartTrigger changed, so the update restarts it (one restart call, then a wait)"],
    ]);
    expect(consequence(trigger(undefined, "1"), "restartTrigger")).toBe("local");
    expect(notesOf(trigger(undefined, "1"))).toEqual([
      expect.stringMatching(/set for the first time.*restarts nothing/),
    ]);
    expect([consequence(trigger("1", undefined), "restartTrigger"), notesOf(trigger("1", undefined))]).toEqual([
      "local",
      [],
    ]);
  });

  it("should word a database's refusal by the rules of the keys that replace it", () => {
    const db = { ...state, type: "storage", engine: "postgres", credentials: { digest: "scrypt1:one" } };
    const news = { ...db, engine: "redis", credentials: { digest: "scrypt1:two" } };
    const refused = databaseReplacement(classifyWorkloadChanges(db, news), db, news);
    expect(refused?.allowed).toBe(false);
    expect(refused && !refused.allowed && refused.error.message).toMatch(
      /credentials changed, but the service sets a database's login once.*; engine changed from postgres to redis\. .*put back the password \(and username\) it was created with and undo the change of engine;/,
    );
  });

  it("should treat a key it does not declare as a spec field, sent with an upsert", () => {
    const c = classifyWorkloadChanges(state, { ...state, image: "nginx:1.28" });
    expect(consequence(c, "image")).toBe("update");
  });

  it("should derive the check of every option from its declared value type", () => {
    const wrong = { boolean: "yes", seconds: -1, "restart-trigger": { a: 1 }, timeouts: undefined };
    for (const [key, value] of Object.entries(WORKLOAD_RULES.optionValues)) {
      if (value === "timeouts") continue; // the resource option's own shape: typos-timeouts.test.ts
      expect(checkOptions({ [key]: wrong[value] }).map((f) => f.property)).toEqual([key]);
    }
  });

  it("should name the same connection settings as the SDK, and outputs the service's status reports", () => {
    expect(WORKLOAD_RULES.connectionKeys).toEqual([...CONNECTION_SETTING_NAMES]);
    expect(TEMPLATE_RULES.connectionKeys).toEqual([...CONNECTION_SETTING_NAMES]);
    const statusShape = Object.keys(WorkloadStatus.shape);
    for (const key of WORKLOAD_RULES.statusKeys) expect(statusShape).toContain(key);
    expect(WORKLOAD_RULES.outputKeys.filter((k) => !WORKLOAD_RULES.statusKeys.includes(k))).toEqual(["connectionUri"]);
  });

  it("should keep the declared secret fields out of the class properties and every output", () => {
    expect(WORKLOAD_RULES.secretKeys).toEqual(["apiKey", "credentials", "source"]);
    expect(WORKLOAD_RULES.secretSpecKeys).toEqual(["source"]);
    for (const key of WORKLOAD_RULES.secretKeys) expect(WORKLOAD_RULES.properties.has(key)).toBe(false);
    expect(TEMPLATE_RULES.secretKeys).toEqual(["apiKey"]);
  });

  it("should make a new option and a new replacing field each one line, every consumer following", () => {
    const extended = workloadRules(
      {
        ...WORKLOAD_FIELDS,
        pauseAfterCreate: { role: "option", change: "local", value: "boolean", default: false, doc: "a new option" },
        zone: { role: "identity", change: "replace-delete-first", doc: "a new replacing field" },
      },
      SPEC_FIELD_RULES,
    );
    const olds = { ...state, pauseAfterCreate: false, zone: "a" };
    const option = classifyWorkloadChanges(olds, { ...olds, pauseAfterCreate: true }, extended);
    expect(option).toMatchObject({ local: ["pauseAfterCreate"], updates: [], replaces: [] });
    const zone = classifyWorkloadChanges(olds, { ...olds, zone: "b" }, extended);
    expect(diffOfChanges(zone, olds)).toEqual({ changes: undefined, replaces: ["zone"], deleteBeforeReplace: true });
    expect(checkOptions({ pauseAfterCreate: "yes" }, extended)).toEqual([
      { property: "pauseAfterCreate", reason: "must be true or false" },
    ]);
    expect(extended.defaults).toMatchObject({ pauseAfterCreate: false });
    expect(extended.commonArgs).toEqual(expect.arrayContaining(["pauseAfterCreate", "zone"]));
    expect(extended.replaceOnChanges("pod")).toContain("zone");
    expect(extended.replaceOnChanges("pod")).not.toContain("pauseAfterCreate");
    expect(extended.properties.has("zone")).toBe(true);
  });
});

/** The rows of provider/README.md's "What each change does" table: [change, plan, requests]. */
function changeTable(): string[][] {
  const readme = readFileSync(join(__dirname, "../../../provider/README.md"), "utf8");
  const section = readme.slice(readme.indexOf("## What each change does"));
  return section
    .slice(0, section.indexOf("\n\n", section.indexOf("|---")))
    .split("\n")
    .filter((l) => l.startsWith("| ") && !l.startsWith("| change"))
    .map((l) => l.split(" | ").map((c) => c.replace(/^\| |\s*\|$/g, "")));
}

const PLAN: Record<ChangeEffect, RegExp> = {
  replace: /^replace, create first/,
  "replace-delete-first": /^replace, \*\*delete first\*\*/,
  update: /^update$/,
  restart: /^update$/,
  local: /^update$/,
  none: /./,
};
const REQUESTS: Record<ChangeEffect, RegExp> = {
  replace: /./,
  "replace-delete-first": /delete/,
  update: /upsert/,
  restart: /restart call/,
  local: /^none/,
  none: /./,
};

describe("provider/README.md's change table", () => {
  const rows = changeTable();
  const mentions = (row: string[], key: string): boolean => row[0].includes(`\`${key}\``);
  const workloadRows = rows.filter((r) => !r[0].includes("Template") && !r[0].startsWith("database"));

  it.each(declaredInputs(WORKLOAD_FIELDS))("should say what a change of workload %s does: %s", (key, change) => {
    const row = workloadRows.find((r) => mentions(r, key) && !r[0].startsWith("adding"));
    expect(row).toBeDefined();
    expect(row?.[1]).toMatch(PLAN[change]);
    expect(row?.[2]).toMatch(REQUESTS[change]);
  });

  it("should list each database field set once as refused at preview without allowDataLoss", () => {
    const row = rows.find((r) => r[0].startsWith("database"));
    for (const key of DATABASE_SET_ONCE) expect(row?.[0]).toContain(`\`${key}\``);
    expect(row?.[1]).toMatch(/refused at preview.*allowDataLoss: true/);
  });

  it.each(CONDITIONAL.map(([key, r]) => [key, r.description]))(
    "should describe %s's conditional rule in its row: %s",
    (key, description) => {
      expect(rows.some((r) => mentions(r, key) && r[0].includes(description))).toBe(true);
    },
  );

  it("should list every spec field of every type as an update", () => {
    const row = rows.find((r) => r[0].startsWith("any other spec field"));
    for (const type of WORKLOAD_TYPES as readonly WorkloadType[]) {
      const overridden = Object.keys(SPEC_FIELD_RULES).filter((k) => WORKLOAD_RULES.replaceOnChanges(type).includes(k));
      for (const field of createBodyFields(type).filter((k) => !(k in WORKLOAD_FIELDS) && !overridden.includes(k)))
        expect(`${type}: ${row?.[0]}`).toContain(`\`${field}\``);
    }
  });

  it.each(declaredInputs(TEMPLATE_FIELDS))("should say what a change of template %s does: %s", (key, change) => {
    const row = rows.find((r) => r[0].includes("Template") && mentions(r, key));
    expect(row?.[1]).toMatch(PLAN[change]);
    expect(row?.[2]).toMatch(change === "local" ? /^none/ : /./);
  });
});
