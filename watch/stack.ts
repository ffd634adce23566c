import { createHash } from "node:crypto";
import * as fs from "node:fs";
import * as path from "node:path";
import { OUR_TYPE_PREFIX, revealed, type ExportedStack } from "../provider/checkpoint";
import { isManagedRecord, secretPathsOf } from "./state-record";
import { projectNameAt, stackNameAt, type StackPlace } from "../automation/place";
import { pulumiJsonAt } from "../automation/pulumi-at";

/** Recorded outputs of a resource, in plaintext. */
export type Recorded = Record<string, unknown>;

/** A workload or template the stack's state records: its URN, resource id (`workspace/id`) and recorded outputs, in plaintext. */
export interface ManagedResource {
  kind: "workload" | "template";
  stack: string;
  urn: string;
  id: string;
  recorded: Recorded;
  /** Paths (`credentials`, `source.repo`) where the state keeps a secret, at any depth: their values are never shown. */
  secretKeys: ReadonlySet<string>;
}

/** Stack configuration as the provider's `configure` receives it. */
export interface StackConfigView {
  get(key: string): string | undefined;
}

/** What the watch knows of a stack: its workloads and templates, its config (secrets decrypted, as `pulumi up` gets it), when its state last changed. */
export interface StackView {
  name: string;
  workloads: ManagedResource[];
  config: StackConfigView;
  /** A digest of the whole config: another one means another connection, key or setting. */
  configDigest: string;
  /** The state's manifest time: a new one means an update, refresh or import changed it. */
  version: string;
}

/**
 * One stack of the watch, through the `pulumi` CLI: its state and config (`pulumi stack export`,
 * `pulumi config`, secrets shown: any backend and secrets provider), and what says cheaply whether
 * they changed. On a file backend the state file's and the config file's times, read without
 * spawning anything; elsewhere the stack's summary (`pulumi stack ls`: its last update and whether one runs).
 */
export class StackSource {
  private backend?: Promise<string>;

  constructor(
    readonly name: string,
    private readonly place: StackPlace,
  ) {}

  private get env(): NodeJS.ProcessEnv {
    return this.place.env ?? process.env;
  }

  /** The name `pulumi` knows it by (`name` is the watch's). */
  private get stackName(): string {
    return stackNameAt(this.name, this.place);
  }

  private get workDir(): string {
    return this.place.cwd ?? process.cwd();
  }

  /** The stack's workloads, templates and config, secrets decrypted. */
  async load(): Promise<StackView> {
    const stack = this.stackName;
    const [state, configMap] = await Promise.all([
      pulumiJsonAt<ExportedStack>(["stack", "export", "--show-secrets"], this.place, { stack }),
      pulumiJsonAt<Record<string, { value?: unknown }>>(["config", "--json", "--show-secrets"], this.place, { stack }),
    ]);
    const values = new Map(
      Object.entries(configMap).flatMap(([k, v]) => (typeof v?.value === "string" ? [[k, v.value] as const] : [])),
    );
    const workloads: ManagedResource[] = [];
    for (const r of state.deployment.resources ?? []) {
      if (!r.type.startsWith(OUR_TYPE_PREFIX) || !r.id || !isManagedRecord(r)) continue;
      const kind = r.type === `${OUR_TYPE_PREFIX}Template` ? "template" : "workload";
      const outputs = r.outputs ?? {};
      const secretKeys = secretPathsOf(outputs, r.inputs);
      workloads.push({
        kind,
        stack: this.name,
        urn: r.urn,
        id: r.id,
        recorded: revealed(outputs) as Recorded,
        secretKeys,
      });
    }
    const manifest = (state.deployment as { manifest?: { time?: string } }).manifest;
    return {
      name: this.name,
      workloads,
      config: { get: (key) => values.get(key) },
      configDigest: createHash("sha256")
        .update(JSON.stringify([...values].sort()))
        .digest("hex"),
      version: `${manifest?.time ?? ""}:${workloads.length}`,
    };
  }

  /** The backend URL (`PULUMI_BACKEND_URL`, else the login's: `pulumi whoami`, asked once). */
  private backendUrl(): Promise<string> {
    const fromEnv = this.env.PULUMI_BACKEND_URL;
    if (fromEnv) return Promise.resolve(fromEnv);
    // A failure is not kept: the next call tries again.
    this.backend ??= pulumiJsonAt<{ url?: string }>(["whoami", "--json"], this.place).then((who) => who.url ?? "");
    this.backend.catch(() => (this.backend = undefined));
    return this.backend;
  }

  /** A file backend's `.pulumi` directory, the stack's short name there and the project; undefined on any other backend. */
  private async fileBackend(): Promise<{ dir: string; stack: string; project: string } | undefined> {
    const backend = await this.backendUrl();
    if (!backend.startsWith("file://")) return undefined;
    const root = backend.slice("file://".length).replace(/^~/, this.env.HOME ?? "~");
    const project = projectNameAt(this.place);
    const stack = this.stackName.slice(this.stackName.lastIndexOf("/") + 1);
    return { dir: path.join(root, ".pulumi"), stack, project };
  }

  /** The stack's summary on a backend other than a file one (one `pulumi stack ls`). */
  private async summary(): Promise<{ lastUpdate?: string; updateInProgress?: boolean; resourceCount?: number }> {
    const short = this.stackName.slice(this.stackName.lastIndexOf("/") + 1);
    const all = await listStacksAt(this.place);
    return all.find((s) => s.name === this.stackName || s.name.endsWith(`/${short}`) || s.name === short) ?? {};
  }

  /**
   * A stamp of the stack's state and config that changes whenever an update, refresh or import
   * writes the state, or a `pulumi config set` the config: on a file backend the files' times
   * (nothing spawned), elsewhere the last update and the config file's time.
   */
  async stamp(): Promise<string> {
    const short = this.stackName.slice(this.stackName.lastIndexOf("/") + 1);
    const config = mtimeOf(["yaml", "yml", "json"].map((ext) => path.join(this.workDir, `Pulumi.${short}.${ext}`)));
    const file = await this.fileBackend();
    if (!file) {
      const s = await this.summary();
      return `${s.lastUpdate ?? ""}:${s.resourceCount ?? ""}:${config}`;
    }
    const state = mtimeOf([
      path.join(file.dir, "stacks", file.project, `${file.stack}.json`),
      path.join(file.dir, "stacks", `${file.stack}.json`),
    ]);
    return `${state}:${config}`;
  }

  /** Whether an update holds the stack's lock: a lock file on a file backend, an update in progress elsewhere. */
  async locked(): Promise<boolean> {
    const file = await this.fileBackend();
    if (!file) return (await this.summary()).updateInProgress === true;
    for (const locks of [
      path.join(file.dir, "locks", "organization", file.project, file.stack),
      path.join(file.dir, "locks", file.stack),
    ]) {
      try {
        if (fs.readdirSync(locks).length > 0) return true;
      } catch {
        // no lock directory: no update ran here yet
      }
    }
    return false;
  }

  /** The workspace's selected stack (`pulumi stack ls`'s current one). */
  async selected(): Promise<string> {
    const current = (await listStacksAt(this.place)).find((s) => s.current);
    if (!current) throw new Error("no stack is selected here: name one with --stack, or run `pulumi stack select`");
    return current.name;
  }
}

/** A stack of `pulumi stack ls --json`. */
export interface StackSummary {
  name: string;
  current?: boolean;
  lastUpdate?: string;
  updateInProgress?: boolean;
  resourceCount?: number;
}

/** The stacks of the project at `place` (`pulumi stack ls --json`). */
export function listStacksAt(place: StackPlace): Promise<StackSummary[]> {
  return pulumiJsonAt<StackSummary[]>(["stack", "ls", "--json"], place);
}

/** The time of the first of `files` that exists, as text ("" when none does). */
function mtimeOf(files: string[]): string {
  // Read every 15 s for every stack: a missing file is no exception (and no garbage) here.
  for (const f of files) {
    try {
      const stat = fs.statSync(f, { throwIfNoEntry: false });
      if (stat) return String(stat.mtimeMs);
    } catch {
      // unreadable: not this one
    }
  }
  return "";
}
