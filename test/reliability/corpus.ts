/**
 * A corpus of invalid inputs, one mistake each, for every workload kind and for templates.
 *
 * Used by `bad-input.test.ts` (posted straight to the service, and parsed with the sdk's zod
 * schemas) and meant to be reused by a `pulumi preview` test: each entry names the field the
 * error must name, written the way the service's error details write it (`ports[0].port`).
 *
 * Ids of valid parts match the workloads of `SEED`, so that an input wrongly accepted would
 * change existing state (a new generation) rather than only add a workload.
 */
import type { WorkloadType } from "../../sdk/schemas";

export type CorpusKind = WorkloadType | "template";

export interface BadInput {
  /** What is wrong, as a sentence fragment: "memory with unit GB". */
  name: string;
  kind: CorpusKind;
  body: unknown;
  /** The path the error must name, as the service writes it (`placement.host`, `ports[0].port`). */
  field: string;
  /** Further paths the service's error names for the same mistake (a misplaced key is also a missing one). */
  also?: string[];
  /** @default 400 */
  status?: 400 | 413;
  /**
   * false when only the service can know (fleet membership, whether a VM is new or its daemon already enabled): the sdk's
   * zod schema accepts the body and the service refuses it. @default true
   */
  schema?: boolean;
}

const PW = "corpus-Pw-0a1b2c";

/** Workloads and a template that exist before the corpus is posted. */
export const SEED: ReadonlyArray<{ kind: CorpusKind; body: Record<string, unknown> }> = [
  { kind: "vm-ubuntu", body: { id: "rel-vm", cpus: 2, memory: "4Gi", credentials: { password: PW } } },
  { kind: "vm-ubuntu-desktop", body: { id: "rel-desk", credentials: { password: PW } } },
  { kind: "vm-windows", body: { id: "rel-win", credentials: { username: "admin", password: PW } } },
  { kind: "pod", body: { id: "rel-pod", image: "nginx:1.27", ports: [{ name: "http", port: 80 }] } },
  { kind: "browser", body: { id: "rel-browser", cpu: "500m", memory: "1Gi" } },
  { kind: "controller", body: { id: "rel-ctl", autodiscover: true } },
  { kind: "storage", body: { id: "rel-db", engine: "postgres", credentials: { password: PW } } },
  { kind: "template", body: { name: "seed", kind: "pod", config: { pod: { image: "nginx" } } } },
];

const vm = (extra: Record<string, unknown> = {}): Record<string, unknown> => ({
  id: "rel-vm",
  credentials: { password: PW },
  ...extra,
});
const pod = (extra: Record<string, unknown> = {}): Record<string, unknown> => ({
  id: "rel-pod",
  image: "nginx:1.27",
  ...extra,
});
const db = (extra: Record<string, unknown> = {}): Record<string, unknown> => ({
  id: "rel-db",
  engine: "postgres",
  credentials: { password: PW },
  ...extra,
});
const tpl = (extra: Record<string, unknown> = {}): Record<string, unknown> => ({
  name: "t",
  kind: "pod",
  config: { pod: { image: "x" } },
  ...extra,
});
const without = (o: Record<string, unknown>, key: string): Record<string, unknown> =>
  Object.fromEntries(Object.entries(o).filter(([k]) => k !== key));

/** Serialized config just over the limit (65,536 bytes). */
const HUGE_CONFIG = { pod: { image: "x", command: ["sh", "-c", "a".repeat(64 * 1024)] } };
/** Under the limit in characters, over it in UTF-8 bytes (each "é" is 2 bytes). */
const WIDE_CONFIG = { pod: { image: "x", command: ["é".repeat(33 * 1024)] } };

/** `{pod: {a: {a: …}}}`: `levels` objects deep, `config` included. */
function nested(levels: number): Record<string, unknown> {
  let inner: Record<string, unknown> = {};
  for (let i = 2; i < levels; i++) inner = { a: inner };
  return { pod: inner };
}
/** 3,000 levels in about 6 KB: deep enough to exhaust the stack of a recursive walk in a request handler. */
const ABYSS = JSON.parse(`{"pod":{"a":${"[".repeat(3000)}${"]".repeat(3000)}}}`) as Record<string, unknown>;

const ids: Array<[string, unknown]> = [
  ["upper case", "Rel-Vm"],
  ["an underscore", "rel_vm"],
  ["64 characters", "a".repeat(64)],
  ["a leading '-'", "-rel"],
  ["a trailing '-'", "rel-"],
  ["the empty string", ""],
  ["unicode", "wörkload"],
  ["a dot", "rel.vm"],
  ["a space", "rel vm"],
  ["a number instead of a string", 42],
];

/** VM bodies are written with `rel-vm`; each VM kind gets the id of its own seed workload (another type's id is a 409). */
const VM_SEED_ID: Partial<Record<CorpusKind, string>> = { "vm-ubuntu-desktop": "rel-desk", "vm-windows": "rel-win" };
function ownSeedId(e: BadInput): BadInput {
  const body = e.body as Record<string, unknown>;
  const id = VM_SEED_ID[e.kind];
  return id !== undefined && body.id === "rel-vm" ? { ...e, body: { ...body, id } } : e;
}

export const CORPUS: readonly BadInput[] = (
  [
    // ---- id rules, across kinds ----
    ...ids.map(([what, id], i): BadInput => {
      const kinds: WorkloadType[] = [
        "vm-ubuntu",
        "vm-ubuntu-desktop",
        "vm-windows",
        "pod",
        "browser",
        "controller",
        "storage",
      ];
      const kind = kinds[i % kinds.length];
      const base: Record<WorkloadType, Record<string, unknown>> = {
        "vm-ubuntu": vm(),
        "vm-ubuntu-desktop": vm(),
        "vm-windows": vm(),
        pod: pod(),
        browser: {},
        controller: {},
        storage: db(),
      };
      return { name: `id with ${what}`, kind, body: { ...base[kind], id }, field: "id" };
    }),
    { name: "id missing", kind: "controller", body: { autodiscover: true }, field: "id" },

    // ---- virtual machines ----
    { name: "cpus as a string", kind: "vm-ubuntu", body: vm({ cpus: "two" }), field: "cpus" },
    { name: "cpus as a fraction", kind: "vm-ubuntu", body: vm({ cpus: 1.5 }), field: "cpus" },
    { name: "cpus of 0", kind: "vm-ubuntu-desktop", body: vm({ cpus: 0 }), field: "cpus" },
    { name: "cpus of -1", kind: "vm-windows", body: vm({ cpus: -1 }), field: "cpus" },
    { name: "cpus above 256", kind: "vm-ubuntu", body: vm({ cpus: 257 }), field: "cpus" },
    { name: "memory with unit GB", kind: "vm-ubuntu", body: vm({ memory: "4GB" }), field: "memory" },
    { name: "memory as a number", kind: "vm-windows", body: vm({ memory: 4096 }), field: "memory" },
    { name: "memory of 0Gi", kind: "vm-ubuntu-desktop", body: vm({ memory: "0Gi" }), field: "memory" },
    { name: "memory with a lower-case unit", kind: "vm-ubuntu", body: vm({ memory: "4gi" }), field: "memory" },
    { name: "storageSize without a unit", kind: "vm-ubuntu", body: vm({ storageSize: "10" }), field: "storageSize" },
    { name: "storageSize negative", kind: "vm-windows", body: vm({ storageSize: "-10Gi" }), field: "storageSize" },
    { name: "credentials as a string", kind: "vm-ubuntu", body: vm({ credentials: PW }), field: "credentials" },
    {
      name: "credentials without password",
      kind: "vm-ubuntu-desktop",
      body: vm({ credentials: { username: "u" } }),
      field: "credentials.password",
    },
    {
      name: "credentials with an empty password",
      kind: "vm-windows",
      body: vm({ credentials: { password: "" } }),
      field: "credentials.password",
    },
    {
      name: "credentials with an unknown field",
      kind: "vm-ubuntu",
      body: vm({ credentials: { password: PW, token: "t" } }),
      field: "credentials.token",
    },
    {
      name: "credentials missing on a new VM",
      kind: "vm-ubuntu",
      body: { id: "rel-vm-new" },
      field: "credentials",
      schema: false,
    },
    { name: "a port of 0", kind: "vm-ubuntu", body: vm({ ports: [{ port: 0 }] }), field: "ports[0].port" },
    {
      name: "a port of 65536",
      kind: "vm-windows",
      body: vm({ ports: [{ port: 22 }, { port: 65536 }] }),
      field: "ports[1].port",
    },
    {
      name: "a port as a string",
      kind: "vm-ubuntu-desktop",
      body: vm({ ports: [{ port: "22" }] }),
      field: "ports[0].port",
    },
    {
      name: "a port protocol sctp",
      kind: "vm-ubuntu",
      body: vm({ ports: [{ port: 22, protocol: "sctp" }] }),
      field: "ports[0].protocol",
    },
    { name: "ports as an object", kind: "vm-ubuntu", body: vm({ ports: { ssh: 22 } }), field: "ports" },
    {
      name: "65 ports",
      kind: "vm-ubuntu",
      body: vm({ ports: Array.from({ length: 65 }, (_, i) => ({ port: 1000 + i })) }),
      field: "ports",
    },
    {
      name: "placement region and host together",
      kind: "vm-ubuntu",
      body: vm({ placement: { region: "eu-central", host: "eu-central-1" } }),
      field: "placement.host",
    },
    { name: "placement as a string", kind: "vm-windows", body: vm({ placement: "eu-central" }), field: "placement" },
    {
      name: "placement with an unknown field",
      kind: "vm-ubuntu",
      body: vm({ placement: { zone: "a" } }),
      field: "placement.zone",
    },
    {
      name: "placement with an unknown region",
      kind: "vm-ubuntu",
      body: vm({ placement: { region: "mars-north" } }),
      field: "placement.region",
      schema: false,
    },
    {
      name: "placement with an unknown host",
      kind: "vm-ubuntu-desktop",
      body: vm({ placement: { host: "eu-central-9" } }),
      field: "placement.host",
      schema: false,
    },
    {
      name: "placement with an empty region",
      kind: "vm-windows",
      body: vm({ placement: { region: "" } }),
      field: "placement.region",
    },
    {
      // Refused where the daemon is first enabled only, which the service knows (a new VM here).
      name: "aiDaemon enabled without credentials",
      kind: "vm-ubuntu",
      body: { id: "rel-vm", aiDaemon: { enabled: true } },
      field: "credentials",
      schema: false,
    },
    { name: "aiDaemon as a boolean", kind: "vm-ubuntu", body: vm({ aiDaemon: true }), field: "aiDaemon" },
    {
      name: "aiDaemon without enabled",
      kind: "vm-ubuntu-desktop",
      body: vm({ aiDaemon: { provider: "x" } }),
      field: "aiDaemon.enabled",
    },
    {
      name: "aiDaemon with an unknown field",
      kind: "vm-windows",
      body: vm({ aiDaemon: { enabled: true, temperature: 1 } }),
      field: "aiDaemon.temperature",
    },
    { name: "an unknown top-level field", kind: "vm-ubuntu", body: vm({ colour: "red" }), field: "colour" },
    { name: "a pod field on a VM", kind: "vm-ubuntu", body: vm({ image: "ubuntu" }), field: "image" },

    // ---- pods ----
    { name: "neither image nor source.repo", kind: "pod", body: { id: "rel-pod" }, field: "image" },
    { name: "source without repo", kind: "pod", body: { id: "rel-pod", source: {} }, field: "source.repo" },
    {
      name: "source with an unknown field",
      kind: "pod",
      body: pod({ source: { repo: "r", branch: "main" } }),
      field: "source.branch",
    },
    { name: "image as a number", kind: "pod", body: pod({ image: 42 }), field: "image" },
    { name: "an empty image", kind: "pod", body: pod({ image: "" }), field: "image" },
    { name: "command as a string", kind: "pod", body: pod({ command: "nginx -g daemon off" }), field: "command" },
    {
      name: "a command item that is a number",
      kind: "pod",
      body: pod({ command: ["sleep", 10] }),
      field: "command[1]",
    },
    { name: "cpu of -1", kind: "pod", body: pod({ cpu: "-1" }), field: "cpu" },
    { name: "cpu with a fraction", kind: "pod", body: pod({ cpu: "0.5" }), field: "cpu" },
    { name: "cpu as a number", kind: "pod", body: pod({ cpu: 2 }), field: "cpu" },
    { name: "memory with unit MB", kind: "pod", body: pod({ memory: "512MB" }), field: "memory" },
    { name: "a port without a name", kind: "pod", body: pod({ ports: [{ port: 80 }] }), field: "ports[0].name" },
    {
      name: "a port of 70000",
      kind: "pod",
      body: pod({ ports: [{ name: "http", port: 70000 }] }),
      field: "ports[0].port",
    },
    {
      name: "a port with a protocol",
      kind: "pod",
      body: pod({ ports: [{ name: "http", port: 80, protocol: "tcp" }] }),
      field: "ports[0].protocol",
    },
    { name: "a VM field on a pod", kind: "pod", body: pod({ credentials: { password: PW } }), field: "credentials" },

    // ---- browsers ----
    { name: "cpu with unit cores", kind: "browser", body: { id: "rel-browser", cpu: "2cores" }, field: "cpu" },
    { name: "memory with unit GB", kind: "browser", body: { id: "rel-browser", memory: "2GB" }, field: "memory" },
    { name: "memory of 0Mi", kind: "browser", body: { id: "rel-browser", memory: "0Mi" }, field: "memory" },
    { name: "an image", kind: "browser", body: { id: "rel-browser", image: "chromium" }, field: "image" },

    // ---- controllers ----
    {
      name: "autodiscover as a string",
      kind: "controller",
      body: { id: "rel-ctl", autodiscover: "true" },
      field: "autodiscover",
    },
    {
      name: "autodiscover as a number",
      kind: "controller",
      body: { id: "rel-ctl", autodiscover: 1 },
      field: "autodiscover",
    },
    { name: "an unknown field", kind: "controller", body: { id: "rel-ctl", replicas: 2 }, field: "replicas" },

    // ---- storage ----
    { name: "engine missing", kind: "storage", body: without(db(), "engine"), field: "engine" },
    { name: "engine mysql", kind: "storage", body: db({ engine: "mysql" }), field: "engine" },
    { name: "engine in upper case", kind: "storage", body: db({ engine: "Postgres" }), field: "engine" },
    { name: "credentials missing", kind: "storage", body: without(db(), "credentials"), field: "credentials" },
    {
      name: "credentials.password missing",
      kind: "storage",
      body: db({ credentials: { username: "app" } }),
      field: "credentials.password",
    },
    {
      name: "credentials.password as a number",
      kind: "storage",
      body: db({ credentials: { password: 1234 } }),
      field: "credentials.password",
    },
    {
      name: "a password over 1024 characters",
      kind: "storage",
      body: db({ credentials: { password: "p".repeat(1025) } }),
      field: "credentials.password",
    },
    { name: "instances 4", kind: "storage", body: db({ instances: 4 }), field: "instances" },
    { name: "instances 0", kind: "storage", body: db({ instances: 0 }), field: "instances" },
    { name: "instances as a string", kind: "storage", body: db({ instances: "2" }), field: "instances" },
    { name: "storageSize 10", kind: "storage", body: db({ storageSize: "10" }), field: "storageSize" },
    { name: "memory 4GB", kind: "storage", body: db({ memory: "4GB" }), field: "memory" },
    { name: "cpu -1", kind: "storage", body: db({ cpu: "-1" }), field: "cpu" },
    { name: "tls as a string", kind: "storage", body: db({ tls: "yes" }), field: "tls" },
    { name: "adminConsole as a number", kind: "storage", body: db({ adminConsole: 1 }), field: "adminConsole" },
    { name: "network.exposed missing", kind: "storage", body: db({ network: {} }), field: "network.exposed" },
    {
      name: "network with a port",
      kind: "storage",
      body: db({ network: { exposed: true, port: 5432 } }),
      field: "network.port",
    },
    {
      name: "backup on redis",
      kind: "storage",
      body: db({ engine: "redis", backup: { enabled: true } }),
      field: "backup",
    },
    {
      name: "backup without enabled",
      kind: "storage",
      body: db({ backup: { schedule: "@daily" } }),
      field: "backup.enabled",
    },
    {
      name: "backup retentionDays 0",
      kind: "storage",
      body: db({ backup: { enabled: true, retentionDays: 0 } }),
      field: "backup.retentionDays",
    },
    { name: "an empty version", kind: "storage", body: db({ version: "" }), field: "version" },

    // ---- templates ----
    { name: "config over 64 KB", kind: "template", body: tpl({ config: HUGE_CONFIG }), field: "config", status: 413 },
    {
      name: "config over 64 KB in UTF-8 bytes only",
      kind: "template",
      body: tpl({ config: WIDE_CONFIG }),
      field: "config",
      status: 413,
    },
    { name: "config nested 33 levels deep", kind: "template", body: tpl({ config: nested(33) }), field: "config" },
    { name: "config nested 3,000 levels deep", kind: "template", body: tpl({ config: ABYSS }), field: "config" },
    {
      name: "config with the wrong top-level key",
      kind: "template",
      body: tpl({ config: { vm: { image: "x" } } }),
      field: "config.vm",
      also: ["config.pod"],
    },
    {
      name: "config with an extra top-level key",
      kind: "template",
      body: tpl({ config: { pod: {}, labels: {} } }),
      field: "config.labels",
    },
    {
      name: "config without the kind's key",
      kind: "template",
      body: tpl({ kind: "storage", config: {} }),
      field: "config.storage",
    },
    {
      name: "config.vm for a vm-windows template as a string",
      kind: "template",
      body: tpl({ kind: "vm-windows", config: { vm: "windows" } }),
      field: "config.vm",
    },
    { name: "config as an array", kind: "template", body: tpl({ config: [{ pod: {} }] }), field: "config" },
    { name: "config missing", kind: "template", body: without(tpl(), "config"), field: "config" },
    { name: "kind missing", kind: "template", body: without(tpl(), "kind"), field: "kind" },
    { name: "kind vm", kind: "template", body: tpl({ kind: "vm", config: { vm: {} } }), field: "kind" },
    { name: "name missing", kind: "template", body: without(tpl(), "name"), field: "name" },
    { name: "an empty name", kind: "template", body: tpl({ name: "" }), field: "name" },
    { name: "a name over 200 characters", kind: "template", body: tpl({ name: "n".repeat(201) }), field: "name" },
    { name: "description as a number", kind: "template", body: tpl({ description: 7 }), field: "description" },
    { name: "a client-chosen id", kind: "template", body: tpl({ id: "tpl_00" }), field: "id" },
    { name: "an unknown top-level field", kind: "template", body: tpl({ owner: "me" }), field: "owner" },
  ] as BadInput[]
).map(ownSeedId);
