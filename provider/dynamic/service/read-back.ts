import {
  outcomeUnknown,
  RetrySpacing,
  formatDuration,
  HttpError,
  RequestTimeoutError,
  type SavedTemplate,
  type TemplateCreate,
  type WorkloadStatus,
  type WorkspaceClient,
  type WwsError,
} from "../../../sdk";
import type { ProgressReporter } from "../engine/progress";
import { sameValue } from "../inputs/equal";
import type { Operation } from "../operation";

const num = (v: unknown): number => (typeof v === "number" ? v : 0);

/** A failure of unknown outcome in a few words: `HTTP 500`, `no answer in time`. */
function shortly(err: unknown): string {
  if (err instanceof HttpError) return `HTTP ${err.status}`;
  if (err instanceof RequestTimeoutError) return "no answer in time";
  return "the connection failed before an answer";
}

/** What a read-back loop takes of the provider's context: the clock against the operation's deadline, the row it writes on. */
interface ReadBackAccess {
  now(): number;
  readonly progress: ProgressReporter;
}

/** A loop's call (`the restart`) and what its read-back found (`its status shows no restart`). */
interface ReadBackCall {
  call: string;
  notDone: string;
}

/** What a loop is waiting for, on the operation's row: `update of pod web: the restart got HTTP 500 and …: sending it again in 1.2 s …` */
function sayWaiting(
  ctx: ReadBackAccess,
  op: Operation,
  what: ReadBackCall,
  err: unknown,
  delayMs: number,
  n: number,
): void {
  ctx.progress.status(
    `${op.what}: ${what.call} got ${shortly(err)} and ${what.notDone}: sending it again in ${formatDuration(delayMs)} (attempt ${n + 1}, up to ${formatDuration(op.timeoutMs)} in all)`,
    op.urn,
  );
}

/**
 * Sends `attempt` until it succeeds. After a failure of unknown outcome (a 500, a lost answer)
 * `readBack` says whether the service acted anyway (then its value is taken); if not, the call is
 * sent again after the client's backoff (sdk/retry/spacing.ts), saying so on the row, until the
 * operation's deadline: a service that fails every attempt gets a bounded number of them.
 */
async function readBackLoop<T>(
  ctx: ReadBackAccess,
  client: WorkspaceClient,
  op: Operation,
  what: ReadBackCall,
  attempt: () => Promise<T>,
  readBack: () => Promise<{ done: true; value: T } | { done: false }>,
): Promise<T> {
  const spacing = new RetrySpacing(client.options, op.deadline);
  for (;;) {
    try {
      return await attempt();
    } catch (err) {
      if (!outcomeUnknown(err) || ctx.now() >= op.deadline) throw err;
      // A read back the deadline cut (the attempt may end a moment before it) says nothing of the
      // call: the call's own failure is what the user must read.
      const back = await readBack().catch((readErr: unknown) => {
        throw ctx.now() >= op.deadline ? err : readErr;
      });
      if (back.done) return back.value;
      const next = spacing.next(err as WwsError);
      if (!next.retry) throw next.error;
      sayWaiting(ctx, op, what, err, next.delayMs, next.attempt);
      await spacing.wait(next.delayMs, op.what, op.call.signal);
    }
  }
}

/**
 * Restarts workload `id` once, `before` being its status before the request. After a failure of
 * unknown outcome it reads `/status`: a higher `restartCount` or `generation`, or the phase
 * `Restarting`, is the restart, taken; without any of these it is sent again (a second restart
 * rather than none: the user asked for one), spaced, until the operation's deadline.
 */
export async function restartOnce(
  ctx: ReadBackAccess,
  client: WorkspaceClient,
  id: string,
  before: WorkloadStatus,
  op: Operation,
): Promise<void> {
  await readBackLoop<void>(
    ctx,
    client,
    op,
    { call: "the restart", notDone: "its status shows no restart" },
    async () => void (await client.restartWorkload(id, op.call)),
    async () => {
      const after = await client.getStatus(id, op.call);
      const restarted =
        num(after.restartCount) > num(before.restartCount) ||
        num(after.generation) > num(before.generation) ||
        after.phase === "Restarting";
      return restarted ? { done: true, value: undefined } : { done: false };
    },
  );
}

/** How far apart the service's clock and ours may be when telling a template saved by our call. */
const CLOCK_SKEW_MS = 60 * 1000; // 1 min

/**
 * Creates the template `body` once. After a failure of unknown outcome it lists the workspace's
 * templates: one with every field of `body`, saved since the call began (clocks may differ by a
 * minute), is the one the call saved, taken; otherwise the create is sent again, spaced.
 */
export async function createTemplateOnce(
  ctx: ReadBackAccess,
  client: WorkspaceClient,
  body: TemplateCreate,
  op: Operation,
): Promise<SavedTemplate> {
  const since = ctx.now() - CLOCK_SKEW_MS;
  return readBackLoop<SavedTemplate>(
    ctx,
    client,
    op,
    { call: "the create", notDone: "the template list does not hold it" },
    () => client.createTemplate(body, op.call),
    async () => {
      const saved = (await client.listTemplates(op.call)).find(
        (t) =>
          t.name === body.name &&
          t.kind === body.kind &&
          (t.description ?? undefined) === (body.description ?? undefined) &&
          sameValue(t.config, body.config) &&
          Date.parse(t.createdAt) >= since,
      );
      return saved ? { done: true, value: saved } : { done: false };
    },
  );
}
