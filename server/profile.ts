/**
 * What the local service shows, beside what it does.
 *
 * - `full` (default): everything `contract.md` decides, extensions included.
 * - `spec`: only what `service-spec.md` names or shapes. The service keeps the same state either
 *   way; only answers and events are cut down (see `server/README.md` for each choice).
 *
 * Transitions, orthogonal to the profile, say how an accepted update or restart shows in `/status`:
 * - `visible` (default): Pending → Provisioning → Running, or Restarting → Running, one reconciler step each;
 * - `instant`: the workload is Running again before the request is answered, so no read sees another phase;
 * - `in-place`: an update or restart of a Running workload never leaves Running; it applies
 *   `inPlaceDelayMs` after the request (a workload that is not Running goes the `visible` way).
 */
export const PROFILES = ["full", "spec"] as const;
export type Profile = (typeof PROFILES)[number];
export const TRANSITIONS = ["visible", "instant", "in-place"] as const;
export type Transitions = (typeof TRANSITIONS)[number];

/** Fields of `/status` that are the contract's extensions (or not promised by the spec). */
const STATUS_EXTENSIONS = ["generation", "observedGeneration", "restartCount", "updatedAt", "endpoint"] as const;
/** Fields of an activity row that the spec does not promise. */
const ROW_EXTENSIONS = ["target", "detail"] as const;
/** Fields of the pulse that are the contract's extensions. */
const PULSE_EXTENSIONS = ["lastEventId", "workloads"] as const;

function without<T extends object>(value: T, keys: readonly string[]): T {
  const out = { ...value } as Record<string, unknown>;
  for (const k of keys) delete out[k];
  return out as T;
}

/** The `/status` record as the profile shows it. */
export function statusView<T extends object>(profile: Profile, record: T): T {
  return profile === "spec" ? without(record, STATUS_EXTENSIONS) : record;
}

/** An activity row (event data and `GET /activity` row) as the profile shows it. */
export function rowView<T extends object>(profile: Profile, row: T): T {
  return profile === "spec" ? without(row, ROW_EXTENSIONS) : row;
}

/** The pulse snapshot as the profile shows it. */
export function pulseView<T extends object>(profile: Profile, pulse: T): T {
  return profile === "spec" ? without(pulse, PULSE_EXTENSIONS) : pulse;
}

/** The restart answer: the spec names no body fields. */
export function restartView(profile: Profile, body: Record<string, unknown>): Record<string, unknown> {
  return profile === "spec" ? {} : body;
}
