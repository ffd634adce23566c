import type { z } from "zod";

/** Edits (insert, delete, substitute, swap two neighbours) between `a` and `b`. */
function editDistance(a: string, b: string): number {
  const d: number[][] = Array.from({ length: a.length + 1 }, (_, i) => [i, ...Array<number>(b.length).fill(0)]);
  for (let j = 1; j <= b.length; j++) d[0][j] = j;
  for (let i = 1; i <= a.length; i++) {
    for (let j = 1; j <= b.length; j++) {
      const cost = a[i - 1] === b[j - 1] ? 0 : 1;
      d[i][j] = Math.min(d[i - 1][j] + 1, d[i][j - 1] + 1, d[i - 1][j - 1] + cost);
      if (i > 1 && j > 1 && a[i - 1] === b[j - 2] && a[i - 2] === b[j - 1])
        d[i][j] = Math.min(d[i][j], d[i - 2][j - 2] + 1);
    }
  }
  return d[a.length][b.length];
}

/**
 * The candidate `word` was most likely meant to be: same letters in another case, or a few edits
 * away (one per three characters, at least one). Undefined when nothing is that close.
 */
export function closestName(word: string, candidates: Iterable<string>): string | undefined {
  let best: { name: string; distance: number } | undefined;
  for (const c of candidates) {
    if (c === word) continue;
    const distance = c.toLowerCase() === word.toLowerCase() ? 0 : editDistance(word.toLowerCase(), c.toLowerCase());
    if (distance <= Math.max(1, Math.floor(word.length / 3)) && (!best || distance < best.distance))
      best = { name: c, distance };
  }
  return best?.name;
}

interface Def {
  type: string;
  shape?: Record<string, z.ZodType>;
  element?: z.ZodType;
  innerType?: z.ZodType;
  in?: z.ZodType;
  options?: z.ZodType[];
}
const defOf = (schema: z.ZodType): Def => (schema as unknown as { _zod: { def: Def } })._zod.def;

/** The schemas that validate the value at `path` of `schema` (several under a union). */
export function schemasAt(schema: z.ZodType, path: ReadonlyArray<PropertyKey>): z.ZodType[] {
  const def = defOf(schema);
  const inner = def.innerType ?? def.in;
  if (inner) return schemasAt(inner, path);
  if (def.type === "union") return (def.options ?? []).flatMap((o) => schemasAt(o, path));
  if (path.length === 0) return [schema];
  const [head, ...rest] = path;
  if (def.type === "array" && def.element && typeof head === "number") return schemasAt(def.element, rest);
  if (def.type === "object" && def.shape && typeof head === "string" && def.shape[head])
    return schemasAt(def.shape[head], rest);
  return [];
}

/** The field names an object at `path` of `schema` allows (empty when it is not an object there). */
export function fieldsAt(schema: z.ZodType, path: ReadonlyArray<PropertyKey>): string[] {
  const names = schemasAt(schema, path).flatMap((s) => Object.keys(defOf(s).shape ?? {}));
  return [...new Set(names)];
}
