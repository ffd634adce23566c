import type { StreamListener, StreamState, WorkspaceEvent, WorkloadStatus } from "../../../sdk";

/** An event source the test drives by hand. */
export class FakeEvents {
  readonly listeners = new Set<StreamListener>();
  subscriptions = 0;
  constructor(
    public state: StreamState = "open",
    private readonly log?: string[],
  ) {}

  subscribe = (listener: StreamListener): (() => void) => {
    this.subscriptions++;
    this.log?.push("subscribe");
    this.listeners.add(listener);
    listener.onState?.(this.state);
    return () => {
      this.log?.push("unsubscribe");
      this.listeners.delete(listener);
    };
  };

  set(state: StreamState): void {
    this.state = state;
    for (const l of this.listeners) l.onState?.(state);
  }

  emit(event: WorkspaceEvent): void {
    for (const l of this.listeners) l.onEvent?.(event);
  }

  row(id: string, phase?: string): void {
    this.emit({
      type: "activity",
      data: { id: "1", action: "workload.phase", target: { type: "workload", id }, detail: phase ? { phase } : {} },
    });
  }
}

interface Deferred {
  resolve(s: WorkloadStatus | undefined): void;
  reject(e: unknown): void;
}

/** `/status` reads the test answers by hand. */
export class FakeReads {
  readonly pending: Deferred[] = [];
  /** `Date.now()` at each read: exact under fake timers. */
  readonly at: number[] = [];
  count = 0;
  constructor(private readonly log?: string[]) {}

  read = (): Promise<WorkloadStatus | undefined> => {
    this.count++;
    this.at.push(Date.now());
    this.log?.push("read");
    return new Promise((resolve, reject) => this.pending.push({ resolve, reject }));
  };

  answer(status: WorkloadStatus | undefined): void {
    const d = this.pending.shift();
    if (!d) throw new Error("no read in flight");
    d.resolve(status);
  }

  fail(error: unknown): void {
    const d = this.pending.shift();
    if (!d) throw new Error("no read in flight");
    d.reject(error);
  }
}
