import { AbortedError, NotFoundError } from "../errors";
import type { CallOptions } from "../options";
import type { WorkloadStatus } from "../schemas";
import type { Observation } from "./condition";

/** What the reads need of a client. */
export interface StatusSource {
  getStatus(id: string, options?: CallOptions): Promise<WorkloadStatus>;
}

interface Slot {
  promise: Promise<Observation>;
  controller: AbortController;
  users: number;
}

/**
 * The `/status` reads of one workload through one client, shared by every waiter of it, so that
 * the workload never has two reads in flight however many waiters it has.
 *
 * `read()` promises a read that starts no earlier than the call: the answer of a read already
 * in flight may predate whatever made the caller look, so callers arriving during it share the
 * one read that follows it. A shared request is aborted only when all its callers have left.
 */
export class SharedStatusReads {
  private static readonly registry = new WeakMap<StatusSource, Map<string, SharedStatusReads>>();
  private current: Slot | undefined;
  private next: Slot | undefined;

  private constructor(
    private readonly source: StatusSource,
    private readonly id: string,
    private readonly release: () => void,
  ) {}

  /** The shared reads of workload `id` through `source`; look it up for each read (an idle one is dropped). */
  static of(source: StatusSource, id: string): SharedStatusReads {
    let byId = SharedStatusReads.registry.get(source);
    if (!byId) SharedStatusReads.registry.set(source, (byId = new Map()));
    const map = byId;
    let reads = map.get(id);
    if (!reads) map.set(id, (reads = new SharedStatusReads(source, id, () => map.delete(id))));
    return reads;
  }

  /** A read that starts no earlier than now; `undefined` for 404. Leaves (rejecting with `AbortedError`) when `signal` aborts. */
  read(signal: AbortSignal): Promise<Observation> {
    // A slot everyone left is aborted: nobody may join it, or they would get its AbortedError.
    const alive = (s: Slot | undefined): s is Slot => s !== undefined && !s.controller.signal.aborted;
    let target: Slot;
    if (alive(this.next)) target = this.next;
    else if (alive(this.current)) target = this.next = this.slot(this.current.promise);
    else {
      target = this.current = this.slot(undefined);
      this.next = undefined;
    }
    return this.join(target, signal);
  }

  private slot(after: Promise<unknown> | undefined): Slot {
    const controller = new AbortController();
    const fetch = (): Promise<Observation> =>
      this.source.getStatus(this.id, { signal: controller.signal }).catch((err: unknown) => {
        if (err instanceof NotFoundError) return undefined;
        throw err;
      });
    const slot: Slot = { controller, users: 0, promise: after ? after.then(fetch, fetch) : fetch() };
    // When this read ends, either way, the one queued behind it becomes the current one.
    const promoteNext = (): void => {
      if (this.current !== slot) return;
      this.current = this.next;
      this.next = undefined;
      if (this.current === undefined) this.release();
    };
    slot.promise.then(promoteNext, promoteNext);
    return slot;
  }

  private join(slot: Slot, signal: AbortSignal): Promise<Observation> {
    slot.users++;
    return new Promise<Observation>((resolve, reject) => {
      let left = false;
      const leave = (): void => {
        if (left) return;
        left = true;
        signal.removeEventListener("abort", onAbort);
        if (--slot.users === 0) slot.controller.abort();
      };
      const onAbort = (): void => {
        leave();
        reject(new AbortedError(`get status of workload ${this.id}`, signal.reason));
      };
      if (signal.aborted) return onAbort();
      signal.addEventListener("abort", onAbort, { once: true });
      slot.promise.then(
        (v) => {
          leave();
          resolve(v);
        },
        (e: unknown) => {
          leave();
          reject(e);
        },
      );
    });
  }
}
