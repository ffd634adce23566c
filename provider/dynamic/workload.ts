import { NotFoundError, ReadinessTimeoutError, WorkloadFailedError, type CallOptions, type WorkloadStatus, type WorkspaceClient } from "../../sdk";
import { requireConnection } from "./connection";
import { checkWorkload } from "./check-workload";
import type { ManagedContext } from "./context";
import { classifyWorkloadChanges, diffOfChanges } from "./diff-workload";
import { guarded, secretsOf } from "./errors";
import { formatId, parseId } from "./ids";
import { ResourceInitError } from "./init-error";
import { CredentialVault } from "./credentials-digest";
import { ownCreateWarning, runsDeclaredSpec } from "./own-create";
import { recordedReady, restartsOutsidePulumi, withStatus } from "./outputs";
import { DRIFT_KEY, OUTPUT_KEYS, describeWorkload, inputsOf, optionsOf, requestBodyOf, specFields, typeOf, workloadIdOf, type Props } from "./props";
import type { TimeoutOperation } from "./timeouts";
import type { ProviderImpl } from "./types";
import { awaitWorkload } from "./wait";

/** The status a failed wait saw last, when the error carries it. */
function lastStatusOf(err: unknown): WorkloadStatus | undefined {
  if (err instanceof ReadinessTimeoutError) return err.lastStatus;
  if (err instanceof WorkloadFailedError) return err.status;
  return undefined;
}

async function statusOrUndefined(client: WorkspaceClient, id: string, call?: CallOptions): Promise<WorkloadStatus | undefined> {
  try {
    return await client.getStatus(id, call);
  } catch (err) {
    if (err instanceof NotFoundError) return undefined;
    throw err;
  }
}

function alreadyExists(workspace: string, id: string, status: WorkloadStatus): Error {
  return new Error(
    `workload ${id} already exists in workspace ${workspace} (${status.type ?? "unknown type"}, phase ${status.phase}); ` +
      `Pulumi takes over a workload it did not create only when asked: set \`adopt: true\` on the resource (its spec then replaces the live one), ` +
      `or use the resource option \`import: "${workspace}/${id}"\` where the engine supports importing dynamic resources (pulumi/pulumi#16175). ` +
      `An interrupted create of this stack is taken over by itself only when the live type and spec equal the requested ones`,
  );
}

/**
 * The dynamic provider of every workload resource (`Workload`, `VirtualMachine`, `Pod`,
 * `Browser`, `Controller`, `Database`). See `diff-workload.ts` for what each change does.
 */
export function createWorkloadProvider(ctx: ManagedContext): ProviderImpl {
  /** Passwords `check` took out of the inputs, for the `create` or `update` that follows it. */
  const credentials = new CredentialVault();
  /**
   * The calls of one operation retry transient failures (429, 503, dropped connections) until the
   * operation's deadline, its timeout (see `timeouts.ts`) from now, honouring `Retry-After`.
   */
  const within = (props: Props, op: TimeoutOperation): CallOptions => ({ deadline: ctx.now() + optionsOf(props).timeoutMs[op] });

  /** Waits for readiness after an accepted request; a failed wait keeps the resource, with init errors. */
  async function settle(
    client: WorkspaceClient,
    resourceId: string,
    props: Props,
    what: string,
    op: "create" | "update",
    since?: { previous?: WorkloadStatus; requestedAt: number },
  ): Promise<Props> {
    try {
      const status = optionsOf(props).waitForReady ? await awaitWorkload(ctx, client, props, "ready", op, since) : await client.getStatus(workloadIdOf(props));
      return withStatus(props, status);
    } catch (err) {
      const last = lastStatusOf(err) ?? (await statusOrUndefined(client, workloadIdOf(props)).catch(() => undefined));
      const why = (err instanceof Error ? err.message : String(err)).replace(/\.+$/, "");
      // A Failed workload stays Failed until something changes; a slow one may still get there.
      const next =
        err instanceof WorkloadFailedError
          ? "fix the cause, then change its spec or `restartTrigger` and run `pulumi up`"
          : "the next `pulumi up` waits for it again";
      throw new ResourceInitError(
        `${describeWorkload(props)} was ${what} but did not become ready: ${why}. It stays in the stack; ${next}.`,
        resourceId,
        withStatus(props, last),
      );
    }
  }

  return {
    async configure(req) {
      ctx.configure(req.config);
    },

    async check(olds, news) {
      return guarded(
        () => secretsOf(news),
        async () => {
          const { inputs, failures } = checkWorkload(olds, news, ctx.sources());
          return { inputs: credentials.seal(inputs), failures };
        },
      );
    },

    async diff(_id, olds, news) {
      // Classified once: comparing credentials may cost a digest (a 0.1.0 state keeps the password).
      const changes = classifyWorkloadChanges(olds, news);
      const result = diffOfChanges(changes, olds);
      // The engine's detailed diff shows `restartTrigger` as an update like any option: say what it does.
      if (result.replaces.length === 0 && changes.restart) {
        ctx.progress.note(`${describeWorkload(news)}: restartTrigger changed, so the update restarts it (one restart call, then a wait)`);
      }
      return result;
    },

    async create(inputs) {
      return guarded(
        () => secretsOf(inputs),
        async () => {
          const conn = requireConnection(inputs, ctx.sources());
          const client = ctx.client(conn);
          const props: Props = { ...inputs, workspace: conn.workspace, baseUrl: conn.baseUrl };
          const id = workloadIdOf(props);
          const resourceId = formatId(conn.workspace, id);
          const call = within(props, "create");
          // Refuse to take over silently: an existing id is somebody's workload, unless it is
          // exactly what this resource asks for (its own create, interrupted; see own-create.ts).
          const previous = await statusOrUndefined(client, id, call);
          const declared = previous !== undefined && (await runsDeclaredSpec(client, props, call));
          if (previous && !optionsOf(props).adopt) {
            if (!declared) throw alreadyExists(conn.workspace, id, previous);
            ctx.progress.note(ownCreateWarning(describeWorkload(props), conn.workspace));
          } else if (declared) {
            // Adopting a workload that already runs the declared spec sends nothing: an upsert
            // would start a new generation and provision it again.
            return { id: resourceId, outs: await settle(client, resourceId, props, "adopted", "create") };
          }
          const requestedAt = ctx.now();
          await client.upsertWorkload(typeOf(props), requestBodyOf(credentials.unseal(props)), call);
          // Accepted: from here on the workload exists, and no failure may drop it from the stack.
          const outs = await settle(client, resourceId, props, previous ? "adopted" : "created", "create", previous ? { previous, requestedAt } : undefined);
          return { id: resourceId, outs };
        },
      );
    },

    async read(id, props = {}) {
      const { workspace, id: workloadId } = parseId(id, "workload");
      const base: Props = { ...props, workspace, workloadId };
      return guarded(
        () => secretsOf(base),
        async () => {
          const conn = requireConnection(base, ctx.sources());
          const client = ctx.client(conn);
          const call = within(base, "update");
          const status = await statusOrUndefined(client, workloadId, call);
          // Gone: an empty id drops the resource from the stack.
          if (status === undefined) return { id: "" };
          const entry = (await client.getSpec(call)).workloads.find((w) => w.id === workloadId);
          const oldSpec = specFields(base);
          const kept: Props = {};
          for (const [k, v] of Object.entries(base)) if (!(k in oldSpec)) kept[k] = v;
          const live: Props = { ...kept, workspace, baseUrl: conn.baseUrl, workloadId, type: entry?.type ?? status.type ?? base.type, ...(entry ? entry.spec : oldSpec) };
          const restarts = restartsOutsidePulumi(base, status);
          if (restarts === undefined) delete live[DRIFT_KEY];
          else live[DRIFT_KEY] = restarts;
          const outs = withStatus(live, status);
          // Live inputs: the next diff compares the program against what runs, not what was last applied.
          return { id, props: outs, inputs: inputsOf(outs) };
        },
      );
    },

    async update(id, olds, news) {
      return guarded(
        () => [...secretsOf(olds), ...secretsOf(news)],
        async () => {
          const changes = classifyWorkloadChanges(olds, news);
          const conn = requireConnection(news, ctx.sources());
          const props: Props = { ...news, workspace: conn.workspace, baseUrl: conn.baseUrl };
          const workloadId = workloadIdOf(props);
          if (changes.updates.length === 0 && !changes.restart) {
            // Options and connection only: nothing is sent. A wait that did not finish last time is resumed.
            if (!optionsOf(props).waitForReady || recordedReady(olds, props)) return { outs: withStatus(props, statusFromOutputs(olds)) };
            return { outs: await settle(ctx.client(conn), id, props, "accepted earlier", "update") };
          }
          const client = ctx.client(conn);
          const call = within(props, "update");
          const previous = await statusOrUndefined(client, workloadId, call);
          if (previous === undefined || previous.phase === "Deleting") {
            const what = previous === undefined ? "no longer exists" : "is being deleted";
            throw new Error(`${describeWorkload(props)} ${what} in workspace ${conn.workspace} (deleted outside Pulumi): run \`pulumi refresh\` to drop it from the stack, then \`pulumi up\` to create it again`);
          }
          const requestedAt = ctx.now();
          if (changes.updates.length > 0) await client.upsertWorkload(typeOf(props), requestBodyOf(credentials.unseal(props)), call);
          if (changes.restart) await client.restartWorkload(workloadId, call);
          return { outs: await settle(client, id, props, changes.updates.length > 0 ? "updated" : "restarted", "update", { previous, requestedAt }) };
        },
      );
    },

    async delete(id, props) {
      const { workspace, id: workloadId } = parseId(id, "workload");
      const base: Props = { ...props, workspace, workloadId };
      await guarded(
        () => secretsOf(base),
        async () => {
          const conn = requireConnection(base, ctx.sources());
          const client = ctx.client(conn);
          try {
            await client.deleteWorkload(workloadId, within(base, "delete"));
          } catch (err) {
            if (err instanceof NotFoundError) return; // already gone
            throw err;
          }
          // Gone means /status answers 404: only then is the id free for a replacement. The user
          // may skip that wait (`waitForDeletion: false`), pulumi-kubernetes' skipAwait for deletes.
          if (optionsOf(base).waitForDeletion) await awaitWorkload(ctx, client, base, "gone", "delete");
        },
      );
    },
  };
}

/** The status record the outputs of a state describe (for an update that sends nothing). */
function statusFromOutputs(olds: Props): WorkloadStatus | undefined {
  if (typeof olds.phase !== "string") return undefined;
  return Object.fromEntries(OUTPUT_KEYS.filter((k) => olds[k] !== undefined && k !== "connectionUri").map((k) => [k, olds[k]])) as WorkloadStatus;
}
