import type { CallOptions } from "../../sdk";
import type { ProgressReporter } from "./engine/progress";
import type { TimeoutOperation } from "./inputs/timeouts";
import { noteRetries } from "./service/retry-notes";

/**
 * One provider method's operation (a create, an update, a delete, a read): its one deadline, the
 * run's cancel signal, and the row its progress and retry notes go on. Every call and
 * the wait of the method take their time from it, so an operation never runs past its timeout
 * (`customTimeouts`, `readyTimeoutSeconds`): one budget, as pulumi-kubernetes' awaiter has no
 * timer of its own and the operation's context carries the deadline.
 */
export interface Operation {
  /** What it does, for messages: `create of pod web`. */
  readonly what: string;
  /** Its whole budget, ms: what a row shows a wait's time against. */
  readonly timeoutMs: number;
  /** Epoch ms: when it began plus its timeout. */
  readonly deadline: number;
  /** The resource's row, when known. */
  readonly urn: string | undefined;
  /** The options of each call it makes: its deadline and signal, retries told on its row. */
  readonly call: CallOptions & { deadline: number };
}

/** What an operation does: a `customTimeouts` operation, or the read of a refresh or an import. */
export type OperationKind = TimeoutOperation | "read";

/** The `customTimeouts` operation whose budget `kind` spends: Pulumi has none for a read, which takes update's. */
export function budgetOf(kind: OperationKind): TimeoutOperation {
  return kind === "read" ? "update" : kind;
}

/** The deployment's clock and cancel signal (the first Ctrl-C): every operation and read-only check is bounded by them. */
export interface DeploymentClock {
  now(): number;
  readonly cancelled: AbortSignal;
}

/** What an operation takes of the provider's context: the deployment's clock, and the rows its retries are told on. */
export interface OperationAccess extends DeploymentClock {
  readonly progress: ProgressReporter;
}

export function startOperation(ctx: OperationAccess, what: string, timeoutMs: number, urn?: string): Operation {
  const deadline = ctx.now() + timeoutMs;
  return {
    what,
    timeoutMs,
    deadline,
    urn,
    call: { deadline, signal: ctx.cancelled, onRetry: noteRetries(ctx, what, urn) },
  };
}
