import { z } from "zod";
import { WorkloadType, specKeyOf } from "./workloads";

/** Serialized `config` (UTF-8 JSON) may be at most this many bytes. */
export const TEMPLATE_CONFIG_MAX_BYTES = 64 * 1024;
/**
 * `config` may nest objects and arrays at most this deep (`config` itself is level 1). A few
 * thousand levels fit in 64 KB and would exhaust the stack of every recursive walk of it
 * (serializing, cloning, stripping passwords): refused as invalid instead.
 */
export const TEMPLATE_CONFIG_MAX_DEPTH = 32;

/**
 * Nesting depth of a JSON value (objects and arrays count; scalars are 0), without recursion;
 * stops past `limit`. Objects for which `isLeaf` answers true are not walked into.
 */
export function jsonDepth(
  value: unknown,
  limit = Number.POSITIVE_INFINITY,
  isLeaf: (v: object) => boolean = () => false,
): number {
  let max = 0;
  const stack: Array<[unknown, number]> = [[value, 1]];
  while (stack.length > 0) {
    const [v, depth] = stack.pop()!;
    if (typeof v !== "object" || v === null || isLeaf(v)) continue;
    max = Math.max(max, depth);
    if (max > limit) return max;
    for (const child of Array.isArray(v) ? v : Object.values(v)) stack.push([child, depth + 1]);
  }
  return max;
}

export const TemplateCreate = z
  .strictObject({
    name: z.string().min(1).max(200),
    description: z.string().max(2000).optional(),
    kind: WorkloadType,
    config: z.record(z.string(), z.unknown()),
  })
  .superRefine((t, ctx) => {
    // Depth first: serializing a deeper config to measure it could exhaust the stack.
    if (jsonDepth(t.config, TEMPLATE_CONFIG_MAX_DEPTH) > TEMPLATE_CONFIG_MAX_DEPTH) {
      ctx.addIssue({
        code: "custom",
        path: ["config"],
        message: `nests objects and arrays more than ${TEMPLATE_CONFIG_MAX_DEPTH} levels deep`,
      });
      return;
    }
    // The size limit is part of the schema so that a check (preview) refuses what the service would (413).
    const bytes = configByteLength(t.config);
    if (bytes > TEMPLATE_CONFIG_MAX_BYTES) {
      ctx.addIssue({
        code: "custom",
        path: ["config"],
        message: `at most ${TEMPLATE_CONFIG_MAX_BYTES} bytes serialized (UTF-8 JSON); this one is ${bytes}`,
      });
    }
    const key = specKeyOf(t.kind);
    for (const k of Object.keys(t.config)) {
      if (k !== key && k !== "password") {
        ctx.addIssue({
          code: "custom",
          path: ["config", k],
          message: `a ${t.kind} template holds its spec under config.${key} only`,
        });
      }
    }
    if (!(key in t.config)) {
      ctx.addIssue({ code: "custom", path: ["config", key], message: `a ${t.kind} template needs config.${key}` });
    } else if (typeof t.config[key] !== "object" || t.config[key] === null || Array.isArray(t.config[key])) {
      ctx.addIssue({ code: "custom", path: ["config", key], message: "must be an object" });
    }
  });
export type TemplateCreate = z.infer<typeof TemplateCreate>;

export const SavedTemplate = z.looseObject({
  id: z.string(),
  name: z.string(),
  description: z.string().optional(),
  kind: z.string(),
  config: z.record(z.string(), z.unknown()),
  createdAt: z.string(),
});
export type SavedTemplate = z.infer<typeof SavedTemplate>;

export const TemplateList = z.looseObject({ templates: z.array(SavedTemplate) });

export function configByteLength(config: unknown): number {
  return Buffer.byteLength(JSON.stringify(config), "utf8");
}

/**
 * Paths of the passwords the service strips from a template: a `password` at the top level of
 * `config` or of its spec object, and `password` inside any `credentials` object at any depth.
 */
export function templatePasswordPaths(config: Record<string, unknown>): string[][] {
  const found: string[][] = [];
  const visit = (value: unknown, path: string[], depth: number): void => {
    if (typeof value !== "object" || value === null) return;
    if (Array.isArray(value)) {
      value.forEach((v, i) => visit(v, [...path, String(i)], depth + 1));
      return;
    }
    for (const [k, v] of Object.entries(value)) {
      const inCredentials = path[path.length - 1] === "credentials";
      if (k === "password" && (depth <= 1 || inCredentials)) found.push([...path, k]);
      else visit(v, [...path, k], depth + 1);
    }
  };
  visit(config, [], 0);
  return found;
}

/** A deep copy of `config` without the passwords of `templatePasswordPaths`. */
export function stripTemplatePasswords(config: Record<string, unknown>): Record<string, unknown> {
  const copy = structuredClone(config);
  for (const path of templatePasswordPaths(copy)) {
    let node: Record<string, unknown> = copy;
    for (const key of path.slice(0, -1)) node = node[key] as Record<string, unknown>;
    delete node[path[path.length - 1]];
  }
  return copy;
}
