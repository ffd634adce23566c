import * as pulumi from "@pulumi/pulumi";
import { WorkloadType, specKeyOf, type SavedTemplate } from "../../sdk";
import { WORKLOAD_RULES } from "../fields/workload-rules";

/**
 * A spec as shown: without `credentials`, should a service ever answer with them, and each field the
 * classes keep secret (a pod's `source`, which may carry a token) as a secret `Output` where it sits:
 * exported or passed on, it stays secret in the reading stack's state and outputs.
 */
export function shownSpec(spec: Record<string, unknown>): Record<string, unknown> {
  return Object.fromEntries(
    Object.entries(spec)
      .filter(([k]) => k !== "credentials")
      .map(([k, v]) => [k, WORKLOAD_RULES.secretSpecKeys.includes(k) ? pulumi.secret(v) : v]),
  );
}

/** A template as shown: its spec object (`config.pod`) as `shownSpec` shows a workload's. */
export function shownTemplate(t: SavedTemplate): SavedTemplate {
  const key = WorkloadType.safeParse(t.kind).success ? specKeyOf(t.kind as WorkloadType) : undefined;
  const spec = key === undefined ? undefined : t.config[key];
  if (typeof spec !== "object" || spec === null || Array.isArray(spec)) return t;
  return { ...t, config: { ...t.config, [key as string]: shownSpec(spec as Record<string, unknown>) } };
}
