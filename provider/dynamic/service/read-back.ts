import {
  outcomeUnknown,
  type CallOptions,
  type SavedTemplate,
  type TemplateCreate,
  type WorkloadStatus,
  type WorkspaceClient,
} from "../../../sdk";
import { sameValue } from "../inputs/equal";

const num = (v: unknown): number => (typeof v === "number" ? v : 0);

/**
 * Restarts workload `id` once, `before` being its status before the request. After a failure of
 * unknown outcome it reads `/status`: a higher `restartCount` or `generation`, or the phase
 * `Restarting`, is the restart, taken; without any of these it is sent again (a second restart
 * rather than none: the user asked for one). Until the call's deadline.
 */
export async function restartOnce(
  client: WorkspaceClient,
  id: string,
  before: WorkloadStatus,
  call: CallOptions & { deadline: number },
  now: () => number,
): Promise<void> {
  for (;;) {
    try {
      await client.restartWorkload(id, call);
      return;
    } catch (err) {
      if (!outcomeUnknown(err) || now() >= call.deadline) throw err;
      const after = await client.getStatus(id, call);
      const restarted =
        num(after.restartCount) > num(before.restartCount) ||
        num(after.generation) > num(before.generation) ||
        after.phase === "Restarting";
      if (restarted) return;
    }
  }
}

/** How far apart the service's clock and ours may be when telling a template saved by our call. */
const CLOCK_SKEW_MS = 60 * 1000; // 1 min

/**
 * Creates the template `body` once. After a failure of unknown outcome it lists the workspace's
 * templates: one with every field of `body`, saved since the call began (clocks may differ by a
 * minute), is the one the call saved, taken; otherwise the create is sent again.
 */
export async function createTemplateOnce(
  client: WorkspaceClient,
  body: TemplateCreate,
  call: CallOptions & { deadline: number },
  now: () => number,
): Promise<SavedTemplate> {
  const since = now() - CLOCK_SKEW_MS;
  for (;;) {
    try {
      return await client.createTemplate(body, call);
    } catch (err) {
      if (!outcomeUnknown(err) || now() >= call.deadline) throw err;
      const saved = (await client.listTemplates(call)).find(
        (t) =>
          t.name === body.name &&
          t.kind === body.kind &&
          (t.description ?? undefined) === (body.description ?? undefined) &&
          sameValue(t.config, body.config) &&
          Date.parse(t.createdAt) >= since,
      );
      if (saved) return saved;
    }
  }
}
