import { ConcurrentUpdateError, LocalWorkspace } from "@pulumi/pulumi/automation";
import type { StackPlace } from "./place";
import type { Difference } from "./compare";
import type { Finding } from "./finding";

/** A resource changed again this soon after the watch put it back is contested: a person is at it. */
const CONTESTED_WINDOW_MS = 10 * 60 * 1000; // 10 min

interface ReverterHooks {
  report(f: Finding): void;
  locked(stack: string): Promise<boolean>;
  relearn(): Promise<void>;
  place(stack: string): StackPlace;
}

const LOCK_POLL_MS = 500;
const MAX_LOCKED_TRIES = 20;

/**
 * `--revert`: a drifted field that the provider updates in place is put back by an update of that
 * resource alone (`pulumi up --refresh --target <urn>`), through the Automation API. Never a replacement or a delete,
 * never a database's login: those are reported with the command, and left alone. Reverts of one
 * stack run one at a time, after any update that holds its lock.
 */
export class Reverter {
  private readonly lastRevert = new Map<string, number>();
  private readonly contested = new Set<string>();
  private readonly queues = new Map<string, Promise<void>>();
  private stopped = false;

  constructor(private readonly hooks: ReverterHooks) {}

  consider(f: Finding, diffs: Difference[]): void {
    const command = `pulumi up --refresh --target '${f.urn}' --stack ${f.stack}`;
    // What is never reverted is said so first, whether or not the resource is contested.
    const changed = diffs.find((d) => d.kind === "changed");
    if (!changed || changed.kind !== "changed") return;
    const login = changed.fields.some((x) => x.path.startsWith("credentials"));
    if (changed.replaces || login) {
      const what = login ? "would change a login" : "would replace the workload (its data with it)";
      this.hooks.report({
        ...f,
        kind: "revert-refused",
        message: `putting it back ${what}: left alone; the command that would do it: ${command}`,
      });
      return;
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
    const queue = this.queues.get(f.stack) ?? Promise.resolve();
    const next = queue.then(() => this.revert(f, command));
    this.queues.set(
      f.stack,
      next.catch(() => undefined),
    );
  }

  /** No revert starts after this; one under way ends as its `pulumi up` does. */
  stop(): void {
    this.stopped = true;
  }

  private async revert(f: Finding, command: string): Promise<void> {
    let lockedTries = 0;
    for (;;) {
      // A running update holds the lock: wait for it, never break it.
      while (await this.hooks.locked(f.stack).catch(() => true)) {
        if (this.stopped) return;
        await new Promise((r) => setTimeout(r, LOCK_POLL_MS));
      }
      if (this.stopped) return;
      try {
        await upTargeted(f.stack, f.urn, this.hooks.place(f.stack));
        break;
      } catch (err) {
        const message = err instanceof Error ? err.message : String(err);
        // Another update took the lock between the check and ours: wait for it again (a few times at most).
        const locked = err instanceof ConcurrentUpdateError || /currently locked/i.test(message);
        if (locked && ++lockedTries < MAX_LOCKED_TRIES) continue;
        this.hooks.report({
          ...f,
          kind: "revert-refused",
          message: `\`${command}\` failed: ${message.split("\n").slice(-3).join(" ")}`,
        });
        return;
      }
    }
    this.lastRevert.set(f.urn, Date.now());
    const fields = (f.fields ?? []).map((x) => x.path).join(", ");
    this.hooks.report({
      ...f,
      kind: "reverted",
      at: new Date().toISOString(),
      message: `${fields} put back as the stack declares (${command})`,
    });
    await this.hooks.relearn();
  }
}

/** `pulumi up --refresh --target <urn>` of `stack` in its project, through the Automation API. */
async function upTargeted(stackName: string, urn: string, place: StackPlace): Promise<void> {
  const envVars = Object.fromEntries(
    Object.entries(place.env ?? {}).filter((e): e is [string, string] => e[1] !== undefined),
  );
  const stack = await LocalWorkspace.selectStack({ stackName, workDir: place.cwd ?? process.cwd() }, { envVars });
  await stack.up({ target: [urn], refresh: true });
}
