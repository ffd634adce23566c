import {
  outcomeUnknown,
  ReadinessTimeoutError,
  WorkloadFailedError,
  type WorkloadStatus,
  type WorkspaceClient,
} from "../../../sdk";
import type { CredentialVault } from "../credentials/digest";
import { ResourceInitError } from "../engine/init-error";
import { clauseOf } from "../inputs/failures";
import type { Props } from "../inputs/props";
import type { DeploymentClock, Operation, OperationKind } from "../operation";
import { requestBodyOf } from "./body";
import { describeWorkload, writeWorkload, type WorkloadModel } from "./model";
import { recorded } from "./recorded-status";
import { awaitWorkload, type WaitAccess } from "./wait";

/** The status a failed wait saw last, when the error carries it. */
function lastStatusOf(err: unknown): WorkloadStatus | undefined {
  if (err instanceof ReadinessTimeoutError) return err.lastStatus;
  if (err instanceof WorkloadFailedError) return err.status;
  return undefined;
}

/**
 * The accepted-create policy: once the service accepted a create (or may have: its answer was
 * lost), the workload exists, and no failure may drop it from the stack. A wait that fails, and a
 * create whose answer was lost, keep the resource with init errors; the next `up` waits again, or
 * sends the create again when the service does not hold it.
 */
export function acceptedCreates(
  ctx: WaitAccess & DeploymentClock,
  credentials: CredentialVault,
  begin: (m: WorkloadModel, kind: OperationKind) => Operation,
) {
  /** Waits for readiness after an accepted request, and gives the outputs; a failed wait keeps the resource, with init errors. */
  async function awaitOutputs(
    client: WorkspaceClient,
    resourceId: string,
    m: WorkloadModel,
    what: string,
    op: Operation,
    since?: { previous?: WorkloadStatus; requestedAt: number },
  ): Promise<Props> {
    const workloadId = m.identity.workloadId;
    try {
      const status = m.options.waitForReady
        ? await awaitWorkload(ctx, client, m, "ready", op, since)
        : await client.getStatus(workloadId, op.call);
      return writeWorkload(recorded(m, status));
    } catch (err) {
      // Cancelled (Ctrl-C): no more requests, the run is ending; the next `up` reads and waits.
      // Past the deadline neither: the operation's budget is spent.
      const cancelled = ctx.cancelled.aborted;
      const last =
        lastStatusOf(err) ??
        (cancelled || ctx.now() >= op.deadline
          ? undefined
          : await client.findStatus(workloadId, op.call).catch(() => undefined));
      const why = cancelled ? "the run was cancelled (Ctrl-C) while it waited" : clauseOf(err);
      // A Failed workload stays Failed until something changes; a slow one may still get there.
      const next =
        err instanceof WorkloadFailedError
          ? "fix the cause, then change its spec or `restartTrigger` and run `pulumi up`"
          : "the next `pulumi up` waits for it again";
      throw new ResourceInitError(
        `${describeWorkload(m.identity)} was ${what} but did not become ready: ${why}. It stays in the stack; ${next}.`,
        resourceId,
        writeWorkload(recorded(m, last)),
      );
    }
  }

  /**
   * Sends the create. When its answer is lost (the deadline cut it, a reset after sending), the
   * service may hold the workload: the resource is kept, with init errors and no status, so that
   * the engine records it as this stack's and the next `up` sends it again (resumeCreateOrWait).
   */
  async function sendCreate(
    client: WorkspaceClient,
    resourceId: string,
    m: WorkloadModel,
    op: Operation,
  ): Promise<void> {
    try {
      await client.upsertWorkload(m.identity.type, requestBodyOf(m, credentials, true), op.call);
    } catch (err) {
      if (!outcomeUnknown(err)) throw err;
      const why = clauseOf(err);
      throw new ResourceInitError(
        `${describeWorkload(m.identity)} may have been created, but the answer was lost: ${why}. It stays in the stack; the next \`pulumi up\` sends it again and waits.`,
        resourceId,
        writeWorkload(recorded(m, undefined)),
      );
    }
  }

  /**
   * The update of a resource whose inputs did not change but whose last wait did not finish: it
   * waits again; a create whose answer was lost (no status ever recorded) and that the service
   * does not hold is sent again first.
   */
  async function resumeCreateOrWait(
    client: WorkspaceClient,
    resourceId: string,
    m: WorkloadModel,
    stored: WorkloadModel,
  ): Promise<Props> {
    const op = begin(m, "update");
    if (stored.status === undefined && (await client.findStatus(m.identity.workloadId, op.call)) === undefined)
      return createAndAwait(client, resourceId, m, op);
    return awaitOutputs(client, resourceId, m, "accepted earlier", op);
  }

  /** Sends the create of `m` and waits for it: "adopted" over the `previous` workload of its id, else "created". */
  async function createAndAwait(
    client: WorkspaceClient,
    resourceId: string,
    m: WorkloadModel,
    op: Operation,
    previous?: WorkloadStatus,
  ): Promise<Props> {
    const requestedAt = ctx.now();
    await sendCreate(client, resourceId, m, op);
    // Accepted: from here on the workload exists, and no failure may drop it from the stack.
    if (previous === undefined) return awaitOutputs(client, resourceId, m, "created", op);
    return awaitOutputs(client, resourceId, m, "adopted", op, { previous, requestedAt });
  }

  return { awaitOutputs, sendCreate, createAndAwait, resumeCreateOrWait };
}
