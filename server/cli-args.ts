import { parseFlags, UsageError, type Flags } from "../command-line";
import { keyEntries } from "./auth";
import type { FleetConfig } from "./fleet";
import type { ServiceOptions } from "./options";
import { fleetFileProblem, readJsonOption, seedProblem, type SeedSnapshot } from "./seed";

export const USAGE = `Usage: wws-local [options]       (in this repository: npm run service -- [options])
Starts the local Workspace Workload Service; SIGINT or SIGTERM closes it cleanly.
  --host HOST               address to listen on (default 127.0.0.1)
  --port PORT               port, 0 for a free one (default 8787)
  --key WORKSPACE=KEY[:LABEL]  API key of a workspace; repeatable, also for one workspace (several keys);
                            the label names the key in activity rows (default demo=demo-key)
  --ring-size N             events kept per workspace for replay (default 1000)
  --heartbeat-ms MS         heartbeat interval of event streams (default 20000)
  --stream-max-ms MS        lifetime cap of an event stream (default 10800000)
  --reconcile-ms MS         duration of one reconciler step (default 400)
  --coalesce-ms MS          least time between two writes to a busy event stream (default 2)
  --workload-domain DOMAIN  domain of endpoints and admin consoles (default workloads.localhost)
  --data-dir DIR            persist state here (default: memory only)
  --control-token TOKEN     enable the /_control endpoints
  --profile full|spec       spec: answer only what the published spec names (default full)
  --transitions MODE        visible|instant|in-place: how updates and restarts show (default visible)
  --in-place-delay-ms MS    with --transitions in-place, when an update applies (default 1000)
  --refuse-without-room     refuse (409) a new or grown VM no host of its scope has room for now
                            (a VM goes to a host of its scope with both its CPUs and memory free, the
                            one it fills best; docs/placement.md)
  --fleet FILE              regions and hosts from a JSON file: {"regions":[{"name","hosts":[{"name",
                            "capacity":{"cpus":64,"memory":"256Gi"}}]}]} (default: two regions, five hosts)
  --seed FILE               start from a snapshot (JSON: {"version":1,"workspaces":{NAME:{"workloads":
                            [{"id","type","spec","phase"}],"templates":[{"id","name","kind","config"}]}},
                            "held":[{"host","cpus","memory"}]}): ids, specs, phases and templates kept,
                            "held" is what other tenants take on each host; written into --data-dir
                            (which must hold no state yet), or a temporary one removed on exit
  --quiet                   no per-request log lines
  --help                    this text`;

type Setter = (o: ServiceOptions, value: string, flag: string) => void;

function int(flag: string, value: string): number {
  if (!/^[0-9]+$/.test(value)) throw new UsageError(`${flag}: expected a non-negative integer, got "${value}"`);
  return Number(value);
}

const WITH_VALUE: Record<string, Setter> = {
  "--host": (o, v) => (o.host = v),
  "--port": (o, v, f) => (o.port = int(f, v)),
  "--ring-size": (o, v, f) => (o.ringSize = int(f, v)),
  "--heartbeat-ms": (o, v, f) => (o.heartbeatMs = int(f, v)),
  "--stream-max-ms": (o, v, f) => (o.streamMaxMs = int(f, v)),
  "--reconcile-ms": (o, v, f) => (o.reconcileMs = int(f, v)),
  "--coalesce-ms": (o, v, f) => (o.coalesceMs = int(f, v)),
  "--workload-domain": (o, v) => (o.workloadDomain = v),
  "--data-dir": (o, v) => (o.dataDir = v),
  "--control-token": (o, v) => (o.controlToken = v),
  "--profile": (o, v) => (o.profile = v as ServiceOptions["profile"]),
  "--transitions": (o, v) => (o.transitions = v as ServiceOptions["transitions"]),
  "--in-place-delay-ms": (o, v, f) => (o.inPlaceDelayMs = int(f, v)),
  "--fleet": (o, v, f) => (o.fleet = fileOption<FleetConfig>(f, v, fleetFileProblem)),
  "--key": (o, v, f) => {
    const eq = v.indexOf("=");
    if (eq <= 0 || eq === v.length - 1) throw new UsageError(`${f}: expected WORKSPACE=KEY or WORKSPACE=KEY:LABEL`);
    const workspace = v.slice(0, eq);
    // A label follows the key's last colon (a key with a colon of its own then needs a label).
    const rest = v.slice(eq + 1);
    const colon = rest.lastIndexOf(":");
    const entry = colon > 0 ? { key: rest.slice(0, colon), label: rest.slice(colon + 1) } : { key: rest };
    // Repeated for one workspace: another key of it (the seed's API keys page shows several).
    const before = o.keys?.[workspace];
    const keys = before === undefined && entry.label === undefined ? entry.key : [...keyEntries(before ?? []), entry];
    o.keys = { ...o.keys, [workspace]: keys };
  },
};

/** The command-line flag of each option, so that messages name what the user typed. */
const FLAG_OF: Record<string, string> = {
  host: "--host",
  port: "--port",
  keys: "--key",
  ringSize: "--ring-size",
  heartbeatMs: "--heartbeat-ms",
  streamMaxMs: "--stream-max-ms",
  reconcileMs: "--reconcile-ms",
  coalesceMs: "--coalesce-ms",
  workloadDomain: "--workload-domain",
  dataDir: "--data-dir",
  controlToken: "--control-token",
  profile: "--profile",
  transitions: "--transitions",
  inPlaceDelayMs: "--in-place-delay-ms",
  refuseWithoutRoom: "--refuse-without-room",
  fleet: "--fleet",
};

export function flagOf(option: string): string {
  return FLAG_OF[option] ?? option;
}

function fileOption<T>(flag: string, file: string, problem: (v: unknown) => string | undefined): T {
  try {
    return readJsonOption<T>(flag, file, problem);
  } catch (err) {
    throw new UsageError((err as Error).message);
  }
}

interface CliArgs {
  options: ServiceOptions;
  /** `--seed FILE`: the snapshot to start from. */
  seed?: SeedSnapshot;
  quiet: boolean;
  help: boolean;
}

/** Every flag: those with a value (`WITH_VALUE`), then the switches and `--seed`. */
const FLAGS: Flags = {
  ...Object.fromEntries(
    Object.keys(WITH_VALUE).map((flag) => [flag.slice(2), { type: "string", multiple: flag === "--key" }]),
  ),
  seed: { type: "string" },
  quiet: { type: "boolean" },
  "refuse-without-room": { type: "boolean" },
  help: { type: "boolean", short: "h" },
};

/** Parses the flags (`--flag value` and `--flag=value`); an unknown flag or a bad value throws a UsageError naming it. */
export function parseCliArgs(argv: readonly string[]): CliArgs {
  const given = parseFlags(argv, FLAGS) as Record<string, string | string[] | boolean | undefined>;
  const out: CliArgs = { options: {}, quiet: given.quiet === true, help: given.help === true };
  if (given["refuse-without-room"] === true) out.options.refuseWithoutRoom = true;
  if (typeof given.seed === "string") out.seed = fileOption<SeedSnapshot>("--seed", given.seed, seedProblem);
  for (const [flag, set] of Object.entries(WITH_VALUE)) {
    const value = given[flag.slice(2)];
    // `--key` may be repeated: each applies in the order given.
    for (const v of Array.isArray(value) ? value : typeof value === "string" ? [value] : []) set(out.options, v, flag);
  }
  return out;
}
