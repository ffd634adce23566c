/**
 * The state as the copy must record it: every string value equal to one of `replacements`' keys
 * (the real base URL, the real API key) replaced by its value (the copy's), in every resource's
 * inputs and outputs, at any depth. The provider records the connection it used; without this, a
 * rehearsal would show every workload as an update that only records the copy's base URL, and
 * hide the change the user is making.
 */
export function repointState(
  deployment: Record<string, unknown>,
  replacements: ReadonlyMap<string, string>,
): Record<string, unknown> {
  const swap = (v: unknown): unknown => {
    if (typeof v === "string") return replacements.get(v) ?? v;
    if (Array.isArray(v)) return v.map(swap);
    if (typeof v === "object" && v !== null)
      return Object.fromEntries(Object.entries(v as Record<string, unknown>).map(([k, x]) => [k, swap(x)]));
    return v;
  };
  const resources = (deployment.resources as Array<Record<string, unknown>> | undefined) ?? [];
  return {
    ...deployment,
    resources: resources.map((r) => ({ ...r, inputs: swap(r.inputs), outputs: swap(r.outputs) })),
  };
}
