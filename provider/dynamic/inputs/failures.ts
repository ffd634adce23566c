import type { z } from "zod";
import { formatPath } from "../../../sdk";
import { reasonOf } from "./issue-text";
import { closestName, fieldsAt } from "./suggest";
import type { FieldTable } from "../../fields/declaration";
import { TEMPLATE_FIELDS } from "../../fields/template-fields";
import { SECRET_SPEC_FIELDS, WORKLOAD_FIELDS } from "../../fields/workload-fields";

/** One failed field of `check`, in the shape `pulumi.dynamic.CheckFailure` has. */
export interface Failure {
  property: string;
  reason: string;
}

/**
 * Top-level keys whose values must not be printed. The engine prints a failure as
 * `property <p> value {<inputs[p]>} has a problem: <reason>`, formatting the raw input value (a
 * secret included), so a failure never names one of these keys exactly: it names the field inside
 * (`credentials.password`) or no property at all, with the path in the reason. They are the
 * fields declared `secret` or `quiet` (provider/fields/), a workload's and a template's.
 */
const QUIET_KEYS = new Set([
  ...[WORKLOAD_FIELDS, TEMPLATE_FIELDS].flatMap((fields: FieldTable) =>
    Object.keys(fields).filter((k) => fields[k].secret || fields[k].quiet),
  ),
  ...Object.keys(SECRET_SPEC_FIELDS),
]);

/** The fields declared secret, a workload's and a template's, its spec fields' among them. */
const SECRET_KEYS = new Set([
  ...[WORKLOAD_FIELDS, TEMPLATE_FIELDS].flatMap((fields: FieldTable) =>
    Object.keys(fields).filter((k) => fields[k].secret),
  ),
  ...Object.keys(SECRET_SPEC_FIELDS),
]);
/** Names a value may be secret under, whatever field holds it (a template's config may carry a login). */
const SECRET_NAME = /password|credential|secret|token|key/i;

/**
 * Whether the value at `path` may be secret: inside a field declared secret (at any depth: a
 * template's `config.pod.source`), or under a name a secret goes by. Its value is never printed.
 */
function mayBeSecret(path: ReadonlyArray<PropertyKey>): boolean {
  return path.some((k) => SECRET_KEYS.has(String(k)) || SECRET_NAME.test(String(k)));
}

/** What the user gave at a nested path, for the reason: the value when safe to show, else what it is. */
function givenAt(path: ReadonlyArray<PropertyKey>, value: unknown): string {
  if (value === undefined || value === null) return "not set";
  if (mayBeSecret(path)) return "set; not shown, it may be secret";
  if (typeof value === "number" || typeof value === "boolean") return `set to ${String(value)}`;
  if (typeof value === "string")
    return value.length <= 80 ? `set to ${JSON.stringify(value)}` : `set to a string of ${value.length} characters`;
  if (Array.isArray(value)) return `set to a list of ${value.length}`;
  return `set to an object with ${Object.keys(value).join(", ") || "no fields"}`;
}

/** A bag holding `value` at `path`, for `failureAt` after a rename of the path's first key. */
function nestedBag(path: ReadonlyArray<PropertyKey>, value: unknown): unknown {
  return path.reduceRight<unknown>((inner, k) => ({ [k]: inner }), value);
}

/** The value at `path` of `input`, or undefined. */
function valueAt(input: unknown, path: ReadonlyArray<PropertyKey>): unknown {
  let v = input;
  for (const k of path) v = typeof v === "object" && v !== null ? (v as Record<PropertyKey, unknown>)[k] : undefined;
  return v;
}

/**
 * A failure at `path` (as the user writes it: `ports[0].port`) that is safe to show. The engine
 * looks a failure's property up among the top-level inputs only, so a nested one would print as
 * `value {<nil>}` though it was set: a nested failure names its path and what was given in the
 * reason instead (`inputs`, the bag the path starts from), the value itself unless it may be secret.
 */
export function failureAt(path: ReadonlyArray<PropertyKey>, reason: string, inputs?: unknown): Failure {
  const property = formatPath(path);
  if (path.length > 1 && inputs !== undefined)
    return { property: "", reason: `${property} (${givenAt(path, valueAt(inputs, path))}): ${reason}` };
  if (path.length > 1) return { property: "", reason: `${property}: ${reason}` };
  if (path.length === 1 && QUIET_KEYS.has(String(path[0]))) return { property: "", reason: `${property}: ${reason}` };
  return { property, reason };
}

interface IssueFilter {
  /** Top-level keys left out of validation because their value is not known yet: drop their issues. */
  unknownKeys: ReadonlySet<string>;
  /** Top-level keys whose issues are already reported (a later validation pass left them out). */
  skipKeys?: ReadonlySet<string>;
  /** Maps a path of the validated object to the path the user wrote (e.g. `id` → `workloadId`). */
  rename?: Readonly<Record<string, string>>;
  /** What to say after "unknown field": the fields that are allowed there. */
  knownFields?: readonly string[];
  /** The schema validated: the fields of a nested object, for a did-you-mean. */
  schema?: z.ZodType;
  /** More names a top-level key may have been meant as (options, connection settings). */
  otherArguments?: readonly string[];
  /** The value validated: what a reason says was given. */
  input?: unknown;
  /** Where the validated value sits in the inputs (a template's `config.pod`): the start of every failure's path. */
  at?: readonly PropertyKey[];
}

/** "unknown field: …" for `key` at `parent`, with the closest allowed name when one is close. */
function unknownFieldReason(parent: ReadonlyArray<PropertyKey>, key: string, filter: IssueFilter): string {
  const top = parent.length === 0;
  const fields = top ? [...(filter.knownFields ?? [])] : filter.schema ? fieldsAt(filter.schema, parent) : [];
  const meant = closestName(key, top ? [...fields, ...(filter.otherArguments ?? [])] : fields);
  const fix = meant === undefined ? "remove it" : `did you mean ${meant}? Rename or remove it`;
  return fields.length > 0 && (top || fields.length <= 12)
    ? `unknown field: ${fix} (the fields are ${fields.join(", ")})`
    : `unknown field: ${fix}`;
}

/**
 * Every zod issue as a failure naming its field and the fix. Issues about a field whose value is
 * unknown are dropped, and so are cross-field rules (`custom` issues) whenever anything is
 * unknown: the rule may involve the unknown field, and `check` runs again with every value known
 * before anything is created.
 */
export function issuesToFailures(error: z.ZodError, filter: IssueFilter): Failure[] {
  const failures: Failure[] = [];
  const anyUnknown = filter.unknownKeys.size > 0;
  for (const issue of error.issues) {
    const keys = issue.code === "unrecognized_keys" ? issue.keys : [undefined];
    for (const key of keys) {
      const path: PropertyKey[] = key === undefined ? [...issue.path] : [...issue.path, key];
      const top = path.length > 0 ? String(path[0]) : "";
      if (filter.unknownKeys.has(top) || filter.skipKeys?.has(top)) continue;
      if (issue.code === "custom" && anyUnknown) continue;
      const given = valueAt(filter.input, path);
      if (filter.rename?.[top] !== undefined) path[0] = filter.rename[top];
      const shown = [...(filter.at ?? []), ...path];
      let reason = reasonOf(issue, filter.schema, filter.input, mayBeSecret(shown));
      if (key !== undefined) {
        reason = unknownFieldReason(issue.path, key, filter);
      } else if (issue.code === "invalid_type" && /received undefined/.test(issue.message)) {
        reason = "required: set it";
      }
      failures.push(failureAt(shown, reason, shown.length > 1 ? nestedBag(shown, given) : undefined));
    }
  }
  return failures;
}

interface SchemaOutcome {
  failures: Failure[];
  /** Whether the schema's rules ran in some pass (zod skips them while a required field is missing or mistyped). */
  rulesRan: boolean;
}

/**
 * Zod stops before cross-field rules when a field already failed. To report every failure in one
 * preview, the fields that failed are left out and the rest is validated again, a few times
 * (the issues of a left-out field, such as "required", are not reported twice).
 */
export function schemaFailures(schema: z.ZodType, body: Record<string, unknown>, filter: IssueFilter): SchemaOutcome {
  const failures: Failure[] = [];
  let rulesRan = false;
  const seen = new Set<string>();
  const skipKeys = new Set<string>();
  const current = { ...body };
  for (let pass = 0; pass < 4; pass++) {
    const parsed = schema.safeParse(current);
    if (parsed.success) return { failures, rulesRan: true };
    if (parsed.error.issues.some((i) => i.code === "custom")) rulesRan = true;
    for (const f of issuesToFailures(parsed.error, { ...filter, skipKeys: new Set(skipKeys), input: current })) {
      // A rule of a nested object runs in every pass: report it once.
      const key = `${f.property}\n${f.reason}`;
      if (!seen.has(key)) failures.push(f);
      seen.add(key);
    }
    const failedTop = new Set<string>();
    for (const i of parsed.error.issues) {
      if (i.code === "custom") continue;
      if (i.code === "unrecognized_keys" && i.path.length === 0) i.keys.forEach((k) => failedTop.add(k));
      else failedTop.add(String(i.path[0] ?? ""));
    }
    if (failedTop.size === 0) return { failures, rulesRan };
    const removable = [...failedTop].filter((k) => k in current && !skipKeys.has(k));
    if (removable.length === 0) break;
    for (const k of removable) {
      skipKeys.add(k);
      delete current[k];
    }
  }
  return { failures, rulesRan };
}

/** An error's message as a clause another sentence continues: without its closing full stops. */
export function clauseOf(err: unknown): string {
  return (err instanceof Error ? err.message : String(err)).replace(/\.+$/, "");
}
