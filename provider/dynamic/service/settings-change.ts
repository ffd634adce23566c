import { CONNECTION_KEYS } from "../inputs/props";

/** What a diff found, by consequence (a workload's `WorkloadChanges`; a template's changes fit it too). */
interface ClassifiedChanges {
  readonly replaces: readonly string[];
  readonly updates: readonly string[];
  readonly restart: boolean;
  readonly resumeWait: boolean;
  /** Keys only the state records. */
  readonly local: readonly string[];
}

/**
 * What preview says of an update that changes connection settings and sends nothing (a rotated
 * key, another base URL of the same service): the engine shows `~ update [diff: ~apiKey]`, which
 * fails a `--expect-no-changes` gate with no word why. Nothing for an update that sends or waits.
 */
export function settingsOnlyNotes(c: ClassifiedChanges, createsAt?: { workspace: string; baseUrl: string }): string[] {
  const sends = c.replaces.length > 0 || c.updates.length > 0 || c.restart || c.resumeWait;
  const settings = CONNECTION_KEYS.filter((k) => c.local.includes(k));
  if (sends || settings.length === 0) return [];
  const values = settings.length > 1 ? "values" : "value";
  // Another service (a local one restarted on a new port, another region's) that does not hold it.
  if (createsAt)
    return [
      `${settings.join(" and ")} changed, and workspace ${createsAt.workspace} at ${createsAt.baseUrl} does not hold it: ` +
        `\`pulumi up\` creates it there, as declared, and records the new ${values}`,
    ];
  return [
    `${settings.join(" and ")} changed: \`pulumi up\` records the new ${values} in the state and sends nothing to the service`,
  ];
}
