import { z } from "zod";
import type { WorkspaceState } from "../state/workspace-state";
import { preciseNow } from "../state/workspace-state";

/** Body of `POST /_control/events/emit`: synthetic `task-update` events for fan-out benchmarks. */
export const SyntheticEvents = z.strictObject({
  workspace: z.string().min(1),
  count: z.number().int().min(1).max(10_000_000),
  /** Paced at this rate; omitted: all at once. */
  ratePerSec: z.number().positive().max(10_000_000).optional(),
  /**
   * true (default): each event is emitted by a job of its own, as events caused by separate
   * requests are; false: the events due are emitted together in one synchronous burst.
   */
  separateJobs: z.boolean().optional(),
});
export type SyntheticEvents = z.infer<typeof SyntheticEvents>;

/** Pacing granularity: the events due are started once per tick. */
const TICK_MS = 1;

/**
 * Emits `count` events `task-update {taskId, status: "synthetic", sentAt}` (`sentAt`: epoch ms,
 * sub-ms precision, so a subscriber on the same machine can measure delivery latency).
 */
export async function emitSynthetic(
  ws: WorkspaceState,
  req: SyntheticEvents,
): Promise<{ firstId: string; lastId: string; elapsedMs: number }> {
  const started = preciseNow();
  const separate = req.separateJobs ?? true;
  let firstId: number | undefined;
  let lastId = 0;
  let started_ = 0;
  let emitted = 0;
  let allDone: () => void = () => undefined;
  const done = new Promise<void>((resolve) => (allDone = resolve));
  const emitOne = (): void => {
    lastId = ws.fanout.emit("task-update", {
      taskId: `synthetic-${emitted}`,
      status: "synthetic",
      sentAt: preciseNow(),
    });
    firstId ??= lastId;
    if (++emitted === req.count) allDone();
  };
  const start = (n: number): void => {
    started_ += n;
    for (let i = 0; i < n; i++) {
      if (separate) setImmediate(emitOne);
      else emitOne();
    }
  };
  if (req.ratePerSec === undefined) start(req.count);
  while (started_ < req.count) {
    await new Promise((r) => setTimeout(r, TICK_MS));
    start(Math.min(req.count, Math.floor(((preciseNow() - started) / 1000) * req.ratePerSec!)) - started_);
  }
  await done;
  return { firstId: String(firstId), lastId: String(lastId), elapsedMs: preciseNow() - started };
}
