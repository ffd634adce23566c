/**
 * The last `capacity` serialized frames of one workspace. Ids are consecutive integers, so the
 * frame with id `n` sits `n - oldestId` places after the oldest, and a lookup is arithmetic.
 */
export class EventRing {
  private readonly frames: string[];
  private start = 0;
  private count = 0;
  private firstId = 0;

  constructor(readonly capacity: number) {
    this.frames = new Array<string>(capacity);
  }

  get size(): number {
    return this.count;
  }

  /** Id of the oldest frame held; undefined while empty. */
  get oldestId(): number | undefined {
    return this.count === 0 ? undefined : this.firstId;
  }

  /** Appends the frame of `id`, which must be one more than the last id pushed. */
  push(id: number, frame: string): void {
    if (this.count > 0 && id !== this.firstId + this.count)
      throw new RangeError(`event ids must be consecutive: got ${id}`);
    if (this.count === 0) {
      this.firstId = id;
      this.start = 0;
    }
    if (this.count < this.capacity) {
      this.frames[(this.start + this.count) % this.capacity] = frame;
      this.count++;
      return;
    }
    this.frames[this.start] = frame;
    this.start = (this.start + 1) % this.capacity;
    this.firstId++;
  }

  /** Frames with an id above `afterId`, oldest first. `afterId` must be within [oldestId - 1, newest]. */
  after(afterId: number): string[] {
    const out: string[] = [];
    for (let i = Math.max(0, afterId - this.firstId + 1); i < this.count; i++) {
      out.push(this.frames[(this.start + i) % this.capacity]);
    }
    return out;
  }
}
