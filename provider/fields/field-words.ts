import { z } from "zod";
import { CpuQuantity, Name, SizeQuantity } from "../../sdk";
import type { ChangeEffect, FieldDeclaration, OptionValue } from "./declaration";

/**
 * A field's type, values and change in words, for the docs (reference.ts) and the classes' doc
 * comments (args-source.ts) alike: one wording, read from the schemas and the declarations.
 */

export type Schema = {
  type?: string;
  enum?: unknown[];
  const?: unknown;
  anyOf?: Schema[];
  pattern?: string;
  minLength?: number;
  maxLength?: number;
  minimum?: number;
  maximum?: number;
  maxItems?: number;
  items?: Schema;
  properties?: Record<string, Schema>;
  required?: string[];
};

export const jsonSchemaOf = (schema: z.ZodType): Schema => z.toJSONSchema(schema, { io: "input" }) as Schema;

/** The formats the schemas share, in words: looked up by the schema's own pattern, so a changed pattern shows as a pattern. */
const FORMATS = new Map<string | undefined, string>([
  [jsonSchemaOf(SizeQuantity).pattern, "a size: `<N>Mi`, `<N>Gi` or `<N>Ti` (`512Mi`, `4Gi`)"],
  [jsonSchemaOf(CpuQuantity).pattern, "CPU: millicores `<N>m` or whole cores `<N>` (`500m`, `2`)"],
  [jsonSchemaOf(Name).pattern, "a DNS label: 1-63 lower-case letters, digits and `-`, a letter or digit at each end"],
]);

export const code = (v: unknown): string => `\`${typeof v === "string" ? v : JSON.stringify(v)}\``;

/** A field's type and allowed values, in words. */
export function typeOf(s: Schema): string {
  if (s.enum) return `one of ${s.enum.map(code).join(", ")}`;
  if (s.anyOf?.every((a) => a.const !== undefined)) return `one of ${s.anyOf.map((a) => code(a.const)).join(", ")}`;
  if (s.type === "integer" || s.type === "number") {
    const kind = s.type === "integer" ? "whole number" : "number";
    return s.minimum !== undefined && s.maximum !== undefined ? `${kind}, ${s.minimum} to ${s.maximum}` : kind;
  }
  if (s.type === "boolean") return "`true` or `false`";
  if (s.type === "string") {
    if (s.pattern !== undefined) return FORMATS.get(s.pattern) ?? `text matching \`${s.pattern}\``;
    if (s.maxLength !== undefined) return `text, ${s.minLength ?? 0} to ${s.maxLength} characters`;
    return s.minLength ? "text, not empty" : "text";
  }
  if (s.type === "array") return `list${s.maxItems !== undefined ? ` of at most ${s.maxItems}` : ""}`;
  if (s.type === "object") return "object";
  return "any value";
}

export const EFFECT: Record<ChangeEffect, string> = {
  replace: "replaces it (the new one created first)",
  "replace-delete-first": "replaces it (**deleted first**, then created again)",
  update: "update: sent, then the new generation awaited",
  restart: "a restart call, then a wait",
  local: "recorded in the state; nothing sent",
  none: "(an output)",
};

/** What a change of `key` does for a workload of `type` (or a template, without a type). */
export function changeOf(decl: Pick<FieldDeclaration, "change" | "changeIf"> | undefined, type?: string): string {
  const rules = (decl?.changeIf ?? []).filter((r) => type === undefined || !r.types || r.types.includes(type));
  const base = EFFECT[decl?.change ?? "update"];
  if (rules.length === 0) return base;
  const conditional = rules.map(
    (r) =>
      `${EFFECT[r.effect]} (${r.description})${r.dataLoss ? ", refused at preview without `allowDataLoss: true`" : ""}`,
  );
  // A rule that holds whatever the values (engine's, restartTrigger's last) leaves no other case.
  const always = rules.some((r) => r.when({ key: "", olds: {}, news: {} }));
  return always ? conditional.join("; ") : [...conditional, `otherwise ${base}`].join("; ");
}

/** An option's value type, in words. */
export const VALUE: Record<OptionValue | "text", string> = {
  boolean: "`true` or `false`",
  seconds: "whole number of seconds",
  "restart-trigger": "text or number",
  timeouts: "durations",
  text: "text",
};
