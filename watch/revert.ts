import * as path from "node:path";
import { stackNameAt, type StackPlace } from "../automation/place";
import { openRevertSeam, type RevertSeam } from "../provider/dynamic/revert-seam";
import type { Difference } from "./compare";
import type { Finding } from "./finding";
import { planRevert } from "./revert-plan";
import { RevertQueue } from "./revert-queue";
import { recordNow, unappliedChange, type RecordedResource } from "./revert-stack";

/** A resource changed again this soon after the watch put it back is contested: a person is at it. */
const CONTESTED_WINDOW_MS = 10 * 60 * 1000; // 10 min

interface ReverterHooks {
  report(f: Finding): void;
  locked(stack: string): Promise<boolean>;
  relearn(): Promise<void>;
  place(stack: string): StackPlace;
  /** The revert's update of `urn` begins: its row is the watch's own, not a person's change. Returns its end. */
  writing(urn: string): () => void;
  /** Whether the watch's latest comparison of `urn` still found it differing from the record. */
  differs(urn: string): boolean;
}

interface RevertJob {
  f: Finding;
  drifted: string[];
  command: string;
}

const LOCK_POLL_MS = 500;
const MAX_LOCKED_TRIES = 20;

const messageOf = (err: unknown): string =>
  (err instanceof Error ? err.message : String(err)).split("\n").filter(Boolean).slice(-3).join(" ");

/** A revert that ends without putting anything back: said as "not reverted" with `reason`. */
class NotReverted extends Error {}

/** An update of the stack took its lock between the check and the revert. */
class LockTaken extends Error {}

/**
 * `--revert`: a drifted field that the provider updates in place is put back to the stack's record.
 * Before acting it reads the record now (`pulumi stack export`) and the live workload, and acts only
 * when an update from the one to the other changes exactly the drifted fields in place
 * (revert-plan.ts), and the program in the working directory has no edit of that resource not yet
 * applied. It then sends the recorded inputs by the provider's own `update`, outside the engine
 * (provider/dynamic/revert-seam.ts: no lock taken, the state already records those values), and
 * says "reverted" only once the live workload reads back as recorded. Every other finding, and
 * every revert refused or cut short, is said as "not reverted" with the reason and the command.
 * Reverts of one stack run one at a time, after any update that holds its lock; of a resource only
 * its newest finding waits (revert-queue.ts), and one found as declared again by the time its turn
 * comes is left alone without a `pulumi` run.
 */
export class Reverter {
  private readonly lastRevert = new Map<string, number>();
  private readonly contested = new Set<string>();
  private readonly queues = new Map<string, RevertQueue<RevertJob>>();
  private stopped = false;
  /** Ends the revert under way: its preview, and the update's calls and wait. */
  private readonly abort = new AbortController();
  private readonly seams = new Set<RevertSeam>();

  constructor(private readonly hooks: ReverterHooks) {}

  consider(f: Finding, diffs: Difference[]): void {
    const place = this.hooks.place(f.stack);
    const command = `${place.cwd ? `cd ${place.cwd} && ` : ""}pulumi up --refresh --target '${f.urn}' --stack ${stackNameAt(f.stack, place)}`;
    if (f.kind === "deleted")
      return this.refuse(
        f,
        `deleted outside Pulumi; the watch creates nothing. The command that would create it again: ${command}`,
      );
    if (f.kind === "restarted")
      return this.refuse(f, `a restart cannot be undone; the command that records it in the stack: ${command}`);
    if (f.kind !== "drift") return;
    // What is never reverted is said so first, whether or not the resource is contested.
    const changed = diffs.find((d) => d.kind === "changed");
    if (!changed || changed.kind !== "changed") return;
    const login = changed.fields.some((x) => x.path.startsWith("credentials"));
    if (changed.replaces || login) {
      const template = f.urn.includes(":Template::");
      const what = login
        ? "would change a login"
        : template
          ? "would replace the template (a template has no update)"
          : "would replace the workload (its data with it)";
      return this.refuse(f, `putting it back ${what}: left alone; the command that would do it: ${command}`);
    }
    if (this.contested.has(f.urn)) return;
    const last = this.lastRevert.get(f.urn);
    if (last !== undefined && Date.now() - last < CONTESTED_WINDOW_MS) {
      this.contested.add(f.urn);
      this.hooks.report({
        ...f,
        kind: "contested",
        message: `changed ${Math.round((Date.now() - last) / 1000)} s after the revert; put it back yourself once agreed: ${command}`,
      });
      return;
    }
    const drifted = [...new Set(changed.fields.map((x) => x.path.split(".")[0]))];
    let queue = this.queues.get(f.stack);
    if (!queue) {
      queue = new RevertQueue((job) => this.turn(job));
      this.queues.set(f.stack, queue);
    }
    queue.add(f.urn, { f, drifted, command });
  }

  /** A revert's turn: none when the watch has seen the resource as declared again meanwhile. */
  private async turn({ f, drifted, command }: RevertJob): Promise<void> {
    if (this.stopped || !this.hooks.differs(f.urn)) return;
    await this.revert(f, drifted, command);
  }

  /** No revert starts after this; the one under way is cancelled (its preview, its update's calls and wait). */
  stop(): void {
    this.stopped = true;
    this.abort.abort(new Error("the watch was stopped"));
    for (const seam of this.seams) seam.cancel();
  }

  private refuse(f: Finding, message: string): void {
    this.hooks.report({ ...f, kind: "revert-refused", at: new Date().toISOString(), message });
  }

  private async revert(f: Finding, drifted: string[], command: string): Promise<void> {
    for (let lockedTries = 0; ; lockedTries++) {
      // A running update holds the lock: wait for it, never break it.
      while (await this.hooks.locked(f.stack).catch(() => true)) {
        if (this.stopped) return;
        await new Promise((r) => setTimeout(r, LOCK_POLL_MS));
      }
      if (this.stopped) return;
      try {
        const fields = await this.putBack(f, drifted);
        if (fields === undefined) return;
        this.lastRevert.set(f.urn, Date.now());
        this.hooks.report({
          ...f,
          kind: "reverted",
          // Read back as recorded: that is what each field holds now.
          fields: f.fields?.map((x) => (x.secret ? x : { ...x, live: x.recorded })),
          at: new Date().toISOString(),
          message: `${fields.join(", ")} put back as the stack's state records it, and read back so`,
        });
        return;
      } catch (err) {
        // An update of the stack began meanwhile: wait for it, then decide again (a few times at most).
        if (err instanceof LockTaken && lockedTries < MAX_LOCKED_TRIES) continue;
        const why = this.stopped
          ? "the watch was stopped during the revert (the update may have been sent: `pulumi preview --refresh` shows what the workload holds)"
          : messageOf(err);
        this.refuse(f, `${why}; \`${command}\` would apply the program to it`);
        return;
      }
    }
  }

  /**
   * The revert itself: the drifted fields put back and read back as recorded (their names), or
   * undefined when nothing differs from the record any more (nothing done, nothing to say).
   * Throws `NotReverted` with the reason when it must not act.
   */
  private async putBack(f: Finding, drifted: string[]): Promise<string[] | undefined> {
    const place = this.hooks.place(f.stack);
    const { record, config } = await recordNow(f.stack, f.urn, place);
    if (!record) throw new NotReverted("the stack's state no longer records it as a resource it manages");
    const seam = openRevertSeam(config, place.env ?? process.env);
    this.seams.add(seam);
    try {
      const plan = await this.plan(seam, record, drifted);
      if (plan === undefined) return undefined;
      const edit = await unappliedChange(f.stack, f.urn, place, this.abort.signal);
      if (edit !== undefined)
        throw new NotReverted(
          `the program in ${path.resolve(place.cwd ?? ".")} would change it (${edit}), an edit not yet applied; the watch does not put back a record that is being changed`,
        );
      if (this.stopped) throw new NotReverted("the watch was stopped");
      if (await this.hooks.locked(f.stack).catch(() => true)) throw new LockTaken();
      // Planned again on a fresh read: the preview took seconds.
      const fresh = await this.plan(seam, record, drifted);
      if (fresh === undefined) return undefined;
      const written = this.hooks.writing(f.urn);
      let back: Awaited<ReturnType<RevertSeam["read"]>>;
      try {
        await seam.putBack(record.id, fresh.live, record.inputs);
        back = await seam.read(record.id, record.outputs);
      } finally {
        written();
      }
      const after = back && seam.changesToRecord(back, record.inputs);
      const still = fresh.fields.filter((k) => !after || after.updates.includes(k) || after.replaces.includes(k));
      if (still.length > 0)
        throw new NotReverted(`the update was sent, but ${still.join(", ")} did not read back as recorded`);
      return fresh.fields;
    } finally {
      this.seams.delete(seam);
      await seam.close();
    }
  }

  /** What putting `record` back over the live workload would update; undefined when nothing. */
  private async plan(
    seam: RevertSeam,
    record: RecordedResource,
    drifted: string[],
  ): Promise<{ live: Record<string, unknown>; fields: string[] } | undefined> {
    const live = await seam.read(record.id, record.outputs);
    if (!live) throw new NotReverted("it no longer exists in the workspace");
    const plan = planRevert({
      kind: "workload",
      type: record.outputs.type,
      drifted,
      changes: seam.changesToRecord(live, record.inputs),
    });
    if (plan.act === "refuse") throw new NotReverted(plan.reason);
    return plan.act === "nothing" ? undefined : { live, fields: plan.fields };
  }
}
