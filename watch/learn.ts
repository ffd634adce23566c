/**
 * What the watch knows of its stacks: each one's record (workloads, templates, config) and the
 * provider seam made from its config. A stack is read again only when its stamp (state file and
 * config file times on a file backend) changed: while nothing changes, nothing is spawned.
 */
import { openWatchSeam, type WatchSeam, type WatchSeamOptions } from "../provider/dynamic/watch-seam";
import type { StackPlace } from "../automation/place";
import { StackSource, type StackView } from "./stack";
import { stackAccessHint } from "./stack-access";

/** The parts of a stack the watch uses; `StackSource` in production, a fake in tests. */
export type StackReader = Pick<StackSource, "name" | "load" | "stamp" | "locked">;

export interface LearnDeps {
  source(name: string, place: StackPlace): StackReader;
  seam(options: WatchSeamOptions): WatchSeam;
}

export const DEFAULT_LEARN_DEPS: LearnDeps = {
  source: (name, place) => new StackSource(name, place),
  seam: openWatchSeam,
};

export interface KnownStack {
  reader: StackReader;
  view: StackView;
  /** The stamp taken before `view` was read. */
  stamp: string;
  seam: WatchSeam;
}

export class StackBook {
  readonly stacks = new Map<string, KnownStack>();
  private readonly readers = new Map<string, StackReader>();

  constructor(
    private readonly deps: LearnDeps,
    private readonly placeOf: (stack: string) => StackPlace,
    private readonly onProgress: (line: string) => void,
  ) {}

  reader(name: string): StackReader {
    let r = this.readers.get(name);
    if (!r) {
      r = this.deps.source(name, this.placeOf(name));
      this.readers.set(name, r);
    }
    return r;
  }

  /**
   * Reads `name` again when its stamp changed since it was read (or `force`). Resolves to whether
   * its record changed. The stamp is taken before the read: a write between the two only costs one
   * more reading.
   */
  async learn(name: string, force = false): Promise<boolean> {
    try {
      return await this.read(name, force);
    } catch (err) {
      const text = err instanceof Error ? err.message : String(err);
      const hint = stackAccessHint(name, text, this.placeOf(name).env ?? process.env);
      throw hint ? new Error(hint, { cause: err }) : err;
    }
  }

  private async read(name: string, force: boolean): Promise<boolean> {
    const reader = this.reader(name);
    const before = this.stacks.get(name);
    const stamp = await reader.stamp();
    if (before && !force && stamp === before.stamp) return false;
    const view = await reader.load();
    const configSame = before !== undefined && sameConfig(before.view, view);
    if (before?.view.version === view.version && configSame) {
      before.stamp = stamp;
      return false;
    }
    const env = this.placeOf(name).env ?? process.env;
    const seam = configSame ? before.seam : this.deps.seam({ config: view.config, env, onProgress: this.onProgress });
    if (before && !configSame) await before.seam.close().catch(() => undefined);
    this.stacks.set(name, { reader, view, stamp, seam });
    return true;
  }

  async closeAll(): Promise<void> {
    await Promise.all([...this.stacks.values()].map((s) => s.seam.close().catch(() => undefined)));
  }
}

function sameConfig(a: StackView, b: StackView): boolean {
  return a.configDigest === b.configDigest;
}
