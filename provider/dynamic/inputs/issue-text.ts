import type { z } from "zod";
import { schemasAt } from "./suggest";

type Issue = z.core.$ZodIssue;

interface NumberBounds {
  minValue?: number | null;
  maxValue?: number | null;
  isInt?: boolean;
}
interface StringBounds {
  minLength?: number | null;
  maxLength?: number | null;
}

const finite = (n: number | null | undefined): n is number => typeof n === "number" && Math.abs(n) < 1e15;

/** `a whole number from 1 to 256`, from the schema of the field. */
function numberRule(schemas: z.ZodType[], int: boolean): string {
  const s = schemas.find((x) => "minValue" in x || "maxValue" in x) as NumberBounds | undefined;
  const kind = int || s?.isInt ? "a whole number" : "a number";
  const min = s?.minValue;
  const max = s?.maxValue;
  if (finite(min) && finite(max)) return `${kind} from ${min} to ${max}`;
  if (finite(min)) return `${kind} of at least ${min}`;
  if (finite(max)) return `${kind} of at most ${max}`;
  return kind;
}

/** `must be 1 to 63 characters long`, `must not be empty` */
function lengthRule(schemas: z.ZodType[]): string {
  const s = schemas.find((x) => "minLength" in x) as StringBounds | undefined;
  const min = s?.minLength ?? 0;
  const max = s?.maxLength;
  if (finite(max)) return `must be ${min} to ${max} characters long`;
  return min <= 1 ? "must not be empty" : `must be at least ${min} characters long`;
}

/** What a value is, for "got …": numbers and booleans shown unless `hidden` (it may be secret), text never. */
function describeValue(v: unknown, hidden: boolean): string {
  if (v === null) return "null";
  if (Array.isArray(v)) return `a list of ${v.length}`;
  if (typeof v === "number") return hidden ? "a number" : String(v);
  if (typeof v === "boolean") return hidden ? "true or false" : String(v);
  if (typeof v === "string") return "a string";
  return typeof v === "object" ? "an object" : typeof v;
}

function valueAt(input: unknown, path: ReadonlyArray<PropertyKey>): unknown {
  let v = input;
  for (const k of path) v = typeof v === "object" && v !== null ? (v as Record<PropertyKey, unknown>)[k] : undefined;
  return v;
}

/** zod's own wording ("Too small: expected number to be >=1"), as opposed to a message the schema sets. */
const isDefaultMessage = (m: string): boolean => /^(Invalid|Too (small|big)|Expected)\b/.test(m);

/**
 * The reason of a failed field in a user's words: the allowed range or values, what was given
 * (never the text of a string: it may be a password; nothing of a value that may be secret,
 * `hidden`), and so the fix. A message the schema sets
 * itself (a quantity's format, a cross-field rule) is kept as it is.
 */
export function reasonOf(issue: Issue, schema: z.ZodType | undefined, input: unknown, hidden = false): string {
  if (!isDefaultMessage(issue.message)) return issue.message;
  const schemas = schema ? schemasAt(schema, issue.path) : [];
  const got = `; got ${describeValue(valueAt(input, issue.path), hidden)}`;
  switch (issue.code) {
    case "invalid_type": {
      if (issue.expected === "number" || issue.expected === "int")
        return `must be ${numberRule(schemas, issue.expected === "int")}${got}`;
      if (issue.expected === "string") return `must be a string${got}`;
      if (issue.expected === "boolean") return `must be true or false${got}`;
      if (issue.expected === "array") return `must be a list${got}`;
      if (issue.expected === "object") return `must be an object${got}`;
      return `must be of type ${issue.expected}${got}`;
    }
    case "too_small":
    case "too_big":
      if (issue.origin === "number") return `must be ${numberRule(schemas, false)}${got}`;
      if (issue.origin === "string") return lengthRule(schemas);
      if (issue.origin === "array") {
        const bound = issue.code === "too_big" ? `at most ${issue.maximum}` : `at least ${issue.minimum}`;
        return `must have ${bound} items${got}`;
      }
      return issue.message;
    case "invalid_value": {
      // An enum's value is a word of a list, not a secret: shown when short.
      const v = valueAt(input, issue.path);
      const given = typeof v === "string" && v.length <= 64 && !hidden ? `; got "${v}"` : got;
      return `must be one of ${issue.values.map((x) => String(x)).join(", ")}${given}`;
    }
    case "invalid_union":
      return `does not match any of the forms this field takes${got}`;
    default:
      return issue.message;
  }
}
