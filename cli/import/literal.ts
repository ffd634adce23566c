/** A JSON value as a TypeScript literal: keys unquoted where they can be, one line while short. */
export function literal(value: unknown, indent = ""): string {
  if (value === null || typeof value !== "object") return JSON.stringify(value);
  const inner = indent + "  ";
  const parts = Array.isArray(value)
    ? value.map((v) => literal(v, inner))
    : Object.entries(value as Record<string, unknown>)
        .filter(([, v]) => v !== undefined)
        .map(([k, v]) => `${/^[A-Za-z_$][\w$]*$/.test(k) ? k : JSON.stringify(k)}: ${literal(v, inner)}`);
  const [open, close] = Array.isArray(value) ? ["[", "]"] : ["{ ", " }"];
  if (parts.length === 0) return Array.isArray(value) ? "[]" : "{}";
  const oneLine = `${open}${parts.join(", ")}${close}`;
  if (oneLine.length + indent.length <= 100 && !oneLine.includes("\n")) return oneLine;
  return `${open.trim()}\n${parts.map((p) => `${inner}${p},`).join("\n")}\n${indent}${close.trim()}`;
}
