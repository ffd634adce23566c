const MUTATING = new Set(["POST", "PUT", "PATCH", "DELETE"]);

export interface CountersSnapshot {
  requests: { total: number; mutating: number; byRoute: Record<string, number>; byStatus: Record<string, number> };
  streams: { open: number; opened: number; byWorkspace: Record<string, number> };
}

/**
 * Request and stream counters for tests and benchmarks (`GET /_control/counters`). Requests to
 * `/_control` itself are not counted, so that reading the counters does not change them.
 */
export class Counters {
  private total = 0;
  private mutating = 0;
  private byRoute = new Map<string, number>();
  private byStatus = new Map<string, number>();
  private opened = 0;
  /** Open streams per workspace: a gauge, so a reset leaves it alone. */
  private readonly openByWorkspace = new Map<string, number>();

  request(method: string, route: string, status: number): void {
    this.total++;
    if (MUTATING.has(method)) this.mutating++;
    const key = `${method} ${route}`;
    this.byRoute.set(key, (this.byRoute.get(key) ?? 0) + 1);
    const s = String(status);
    this.byStatus.set(s, (this.byStatus.get(s) ?? 0) + 1);
  }

  streamOpened(workspace: string): void {
    this.opened++;
    this.openByWorkspace.set(workspace, (this.openByWorkspace.get(workspace) ?? 0) + 1);
  }

  streamClosed(workspace: string): void {
    const n = (this.openByWorkspace.get(workspace) ?? 1) - 1;
    if (n <= 0) this.openByWorkspace.delete(workspace);
    else this.openByWorkspace.set(workspace, n);
  }

  reset(): void {
    this.total = 0;
    this.mutating = 0;
    this.byRoute = new Map();
    this.byStatus = new Map();
    this.opened = 0;
  }

  snapshot(): CountersSnapshot {
    let open = 0;
    for (const n of this.openByWorkspace.values()) open += n;
    return {
      requests: {
        total: this.total,
        mutating: this.mutating,
        byRoute: Object.fromEntries(this.byRoute),
        byStatus: Object.fromEntries(this.byStatus),
      },
      streams: { open, opened: this.opened, byWorkspace: Object.fromEntries(this.openByWorkspace) },
    };
  }
}
