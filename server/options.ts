import { keyEntries, type WorkspaceKeys } from "./auth";
import { DNS_LABEL, DNS_LABEL_RULE } from "../sdk/schemas";
import { DEFAULT_FLEET, fleetProblem, type FleetConfig } from "./fleet";
import { PROFILES, TRANSITIONS, type Profile, type Transitions } from "./profile";

export type LogFn = (line: string) => void;

/** Options of `startService`. Every one is optional; the defaults are `DEFAULT_SERVICE_OPTIONS`. */
export interface ServiceOptions {
  /** @default "127.0.0.1" */
  host?: string;
  /** 0 picks a free port. @default 8787 */
  port?: number;
  /**
   * API key of each workspace: `{workspace: key}`, or several keys `{workspace: [{key, label}]}`
   * (a key's label is the `actor` of the activity rows of its changes). A key belongs to exactly
   * one workspace. @default {demo: "demo-key"}
   */
  keys?: Record<string, WorkspaceKeys>;
  /** Events each workspace keeps for replay. @default 1000 */
  ringSize?: number;
  /** Interval of `:heartbeat` comments on open streams, in ms. @default 20000 (20 s) */
  heartbeatMs?: number;
  /** The server closes a stream after this many ms. @default 10800000 (3 h) */
  streamMaxMs?: number;
  /** The `retry:` field sent first on every stream, in ms. @default 2000 (2 s) */
  retryMs?: number;
  /**
   * Least ms between two fan-out writes to a stream: a quiet stream gets every frame at once, a
   * busy one gets frames grouped into windows this long (fan-out costs per write). @default 2
   */
  coalesceMs?: number;
  /** Duration of one reconciler step; 0 runs steps as soon as possible (still asynchronously). @default 400 */
  reconcileMs?: number;
  /** Domain of workload endpoints and admin consoles. @default "workloads.localhost" */
  workloadDomain?: string;
  /** Persist workloads, templates, event counters and (separately, mode 0600) secrets here. @default undefined (memory only) */
  dataDir?: string;
  /** Enables the `/_control` endpoints, authenticated by header `x-control-token`. @default undefined (disabled) */
  controlToken?: string;
  /** One line per request (method, route, status, ms, request id); false for none. @default false */
  log?: LogFn | false;
  /** Regions and hosts of `GET /v1/fleet/hosts` and placement. @default two regions, five hosts */
  fleet?: FleetConfig;
  /**
   * Refuse (409) to create or grow a VM when no host of its scope (its pinned host, its region, or
   * the whole fleet) has that many CPUs and that much memory free, as a real scheduler would.
   * Off, the service places it anyway. @default false
   */
  refuseWithoutRoom?: boolean;
  /** `full`: the whole contract; `spec`: only what the published spec names (see `profile.ts`). @default "full" */
  profile?: Profile;
  /** How an accepted update or restart shows: `visible`, `instant` or `in-place` (see `profile.ts`). @default "visible" */
  transitions?: Transitions;
  /**
   * With `transitions: "in-place"`, how long after the request an update or restart applies. It
   * sits inside the client's settle rule (at least 2 s after the request), so that a client
   * without other evidence never takes the old record for the new one. @default 1000 (1 s)
   */
  inPlaceDelayMs?: number;
}

export type ResolvedOptions = Readonly<Required<Omit<ServiceOptions, "dataDir" | "controlToken">>> & {
  readonly dataDir: string | undefined;
  readonly controlToken: string | undefined;
};

export const DEFAULT_SERVICE_OPTIONS: ResolvedOptions = Object.freeze({
  host: "127.0.0.1",
  port: 8787,
  keys: Object.freeze({ demo: "demo-key" }),
  ringSize: 1000,
  heartbeatMs: 20 * 1000, // 20 s
  streamMaxMs: 3 * 60 * 60 * 1000, // 3 h
  retryMs: 2 * 1000, // 2 s
  coalesceMs: 2,
  reconcileMs: 400,
  workloadDomain: "workloads.localhost",
  dataDir: undefined,
  controlToken: undefined,
  log: false,
  fleet: DEFAULT_FLEET,
  refuseWithoutRoom: false,
  profile: "full",
  transitions: "visible",
  inPlaceDelayMs: 1000, // 1 s
});

export class OptionError extends Error {
  constructor(
    readonly option: string,
    readonly problem: string,
  ) {
    super(`${option}: ${problem}`);
    this.name = "OptionError";
  }
}

/** Longest delay a Node timer takes (about 24.8 days); a longer one would fire at once. */
const MAX_TIMER_MS = 2 ** 31 - 1;

function integer(name: string, value: number, min: number, max = MAX_TIMER_MS): void {
  if (!Number.isInteger(value) || value < min || value > max) {
    throw new OptionError(name, `must be an integer from ${min} to ${max}, got ${String(value)}`);
  }
}

/** Merges the options over the defaults once and rejects invalid ones, naming the option. */
export function resolveOptions(options: ServiceOptions = {}): ResolvedOptions {
  const defined = Object.fromEntries(Object.entries(options).filter(([, v]) => v !== undefined));
  const o: ResolvedOptions = { ...DEFAULT_SERVICE_OPTIONS, ...defined };
  if (typeof o.host !== "string" || o.host === "") throw new OptionError("host", "must be a host name or address");
  integer("port", o.port, 0, 65535);
  integer("ringSize", o.ringSize, 1, 10_000_000);
  integer("heartbeatMs", o.heartbeatMs, 1);
  integer("streamMaxMs", o.streamMaxMs, 1);
  integer("retryMs", o.retryMs, 0);
  integer("coalesceMs", o.coalesceMs, 0, 1000);
  integer("reconcileMs", o.reconcileMs, 0);
  if (!/^[a-z0-9]([a-z0-9.-]*[a-z0-9])?$/.test(o.workloadDomain)) {
    throw new OptionError("workloadDomain", "must be a lower-case domain name such as workloads.localhost");
  }
  if (o.dataDir !== undefined && (typeof o.dataDir !== "string" || o.dataDir === "")) {
    throw new OptionError("dataDir", "must be a directory path");
  }
  if (o.controlToken !== undefined && (typeof o.controlToken !== "string" || o.controlToken.length < 1)) {
    throw new OptionError("controlToken", "must be a non-empty string");
  }
  if (o.log !== false && typeof o.log !== "function") throw new OptionError("log", "must be a function or false");
  if (!PROFILES.includes(o.profile))
    throw new OptionError("profile", `must be one of ${PROFILES.join(", ")}, got ${JSON.stringify(o.profile)}`);
  if (!TRANSITIONS.includes(o.transitions))
    throw new OptionError(
      "transitions",
      `must be one of ${TRANSITIONS.join(", ")}, got ${JSON.stringify(o.transitions)}`,
    );
  integer("inPlaceDelayMs", o.inPlaceDelayMs, 0);
  validateKeys(o.keys);
  const fleetIssue = fleetProblem(o.fleet);
  if (fleetIssue) throw new OptionError("fleet", fleetIssue);
  return Object.freeze(o);
}

function validateKeys(keys: Record<string, WorkspaceKeys>): void {
  if (typeof keys !== "object" || keys === null || Object.keys(keys).length === 0) {
    throw new OptionError("keys", "must map at least one workspace to its API key");
  }
  const seen = new Set<string>();
  for (const [workspace, given] of Object.entries(keys)) {
    if (!DNS_LABEL.test(workspace)) throw new OptionError("keys", `workspace "${workspace}" ${DNS_LABEL_RULE}`);
    const entries = Array.isArray(given) || typeof given === "string" ? keyEntries(given) : [];
    if (entries.length === 0) throw new OptionError("keys", `workspace "${workspace}" needs at least one key`);
    for (const { key, label } of entries) {
      // The key itself never goes into a message: it is a credential.
      if (typeof key !== "string" || !/^[\x21-\x7e]{1,512}$/.test(key)) {
        throw new OptionError("keys", `the key of workspace "${workspace}" must be 1-512 printable ASCII characters`);
      }
      if (label !== undefined && !/^[A-Za-z0-9][A-Za-z0-9._@-]{0,63}$/.test(label))
        throw new OptionError("keys", `a key label of workspace "${workspace}" must be 1-64 letters, digits, . _ @ -`);
      if (seen.has(key)) throw new OptionError("keys", `a key of workspace "${workspace}" is given twice`);
      seen.add(key);
    }
  }
}
