import { mkdirSync, readFileSync, renameSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import type { SecretRecord, TemplateRecord, WorkloadRecord } from "./types";

const STATE_FILE = "state.json";
const SECRETS_FILE = "secrets.json";
const FORMAT_VERSION = 1;
/** Writes are coalesced: a burst of changes costs one write per file. */
const DEBOUNCE_MS = 25;

interface PersistedWorkspace {
  generation: number;
  lastEventId: string;
  workloads: WorkloadRecord[];
  templates: TemplateRecord[];
}
export interface PersistedState {
  workspaces: Record<string, PersistedWorkspace>;
}
type PersistedSecrets = Record<string, Record<string, SecretRecord>>;

function readJsonFile(path: string): unknown {
  let text: string;
  try {
    text = readFileSync(path, "utf8");
  } catch (err) {
    if ((err as NodeJS.ErrnoException).code === "ENOENT") return undefined;
    throw err;
  }
  try {
    return JSON.parse(text);
  } catch {
    // Refuse to start rather than overwrite data we could not read.
    throw new Error(`${path}: not valid JSON; fix or remove it`);
  }
}

function checkVersion(path: string, data: unknown): Record<string, unknown> | undefined {
  if (data === undefined) return undefined;
  const o = data as Record<string, unknown>;
  if (typeof o !== "object" || o === null || o.version !== FORMAT_VERSION) {
    throw new Error(`${path}: unknown format (expected version ${FORMAT_VERSION})`);
  }
  return o;
}

export function loadDataDir(dir: string): { state?: PersistedState; secrets?: PersistedSecrets } {
  const statePath = join(dir, STATE_FILE);
  const secretsPath = join(dir, SECRETS_FILE);
  const state = checkVersion(statePath, readJsonFile(statePath));
  const secrets = checkVersion(secretsPath, readJsonFile(secretsPath));
  return {
    state: state ? { workspaces: (state.workspaces ?? {}) as PersistedState["workspaces"] } : undefined,
    secrets: secrets ? ((secrets.secrets ?? {}) as PersistedSecrets) : undefined,
  };
}

/** Atomic replace: readers see the old file or the new one, never a torn write. */
function writeAtomic(path: string, text: string, mode: number): void {
  const tmp = `${path}.${process.pid}.tmp`;
  writeFileSync(tmp, text, { mode });
  renameSync(tmp, path);
}

/**
 * Debounced writer of the data dir: the state file and, only when secrets changed, the secrets
 * file (mode 0600). `flush()` writes synchronously what is pending (used on close).
 */
export class Persister {
  private timer: NodeJS.Timeout | undefined;
  private stateDirty = false;
  private secretsDirty = false;

  constructor(
    private readonly dir: string,
    private readonly snapshot: () => { state: PersistedState; secrets: PersistedSecrets },
  ) {
    mkdirSync(dir, { recursive: true, mode: 0o700 });
  }

  schedule(secrets = false): void {
    this.stateDirty = true;
    this.secretsDirty ||= secrets;
    this.timer ??= setTimeout(() => this.flush(), DEBOUNCE_MS);
  }

  flush(): void {
    if (this.timer !== undefined) clearTimeout(this.timer);
    this.timer = undefined;
    if (!this.stateDirty && !this.secretsDirty) return;
    const { state, secrets } = this.snapshot();
    if (this.secretsDirty) {
      writeAtomic(join(this.dir, SECRETS_FILE), JSON.stringify({ version: FORMAT_VERSION, secrets }), 0o600);
    }
    writeAtomic(join(this.dir, STATE_FILE), JSON.stringify({ version: FORMAT_VERSION, ...state }), 0o644);
    this.stateDirty = false;
    this.secretsDirty = false;
  }
}
