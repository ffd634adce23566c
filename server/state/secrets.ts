import type { SecretRecord } from "./types";

export function credentialsPath(workloadId: string): string {
  return `workloads/${workloadId}/credentials`;
}

/**
 * Credentials, kept apart from the workspace state (own map, own file with mode 0600). Nothing
 * here is ever rendered into a response, a log line, an audit row or an event: the only reader
 * that sees values is the persistence layer; everyone else gets paths and timestamps.
 */
export class SecretStore {
  private readonly byWorkspace = new Map<string, Map<string, SecretRecord>>();

  get(workspace: string, path: string): SecretRecord | undefined {
    return this.byWorkspace.get(workspace)?.get(path);
  }

  set(workspace: string, path: string, secret: SecretRecord): void {
    let m = this.byWorkspace.get(workspace);
    if (!m) this.byWorkspace.set(workspace, (m = new Map()));
    m.set(path, secret);
  }

  delete(workspace: string, path: string): boolean {
    return this.byWorkspace.get(workspace)?.delete(path) ?? false;
  }

  /** Paths and update times only, never values. */
  list(workspace: string): Array<{ path: string; updatedAt: string }> {
    return [...(this.byWorkspace.get(workspace) ?? new Map<string, SecretRecord>())].map(([path, s]) => ({
      path,
      updatedAt: s.updatedAt,
    }));
  }

  /** For the secrets file only (not `toJSON`, so that no stray `JSON.stringify` can reveal values). */
  serialize(): Record<string, Record<string, SecretRecord>> {
    return Object.fromEntries([...this.byWorkspace].map(([ws, m]) => [ws, Object.fromEntries(m)]));
  }

  load(data: Record<string, Record<string, SecretRecord>>): void {
    for (const [ws, m] of Object.entries(data)) {
      for (const [path, s] of Object.entries(m)) this.set(ws, path, s);
    }
  }
}
