import { NotFoundError, type WorkloadType } from "../../../sdk";
import { acceptedCreates } from "./accepted-create";
import { checkWorkload } from "./check";
import { resolveConnection, type Connection } from "../service/connection";
import { connected, type ServiceAccess } from "../service/connected";
import { settingsOnlyNotes } from "../service/settings-change";
import type { ManagedContext } from "../context";
import { classifyWorkloadChanges, diffOfChanges, notesOf, type WorkloadChanges } from "./diff";
import { guarded, secretsOf } from "../credentials/redacted-errors";
import { formatId, missingForGet, parseId } from "../inputs/ids";
import { CredentialVault, loginOf } from "../credentials/digest";
import { alreadyExistsMessage } from "../ownership/takeover";
import { planCreate, readCreateFacts } from "../ownership/create-plan";
import { checkAgainstService } from "../service/check-live";
import { budgetOf, startOperation, type Operation, type OperationKind } from "../operation";
import { restartOnce } from "../service/read-back";
import { sharedSpec } from "../service/shared-spec";
import { noteCreateSent } from "../service/taken-id";
import { recorded, recordedReady, restartsOutsidePulumi } from "./recorded-status";
import { inputsOf, type Props } from "../inputs/props";
import { sayWhereItStopped } from "../engine/stopped-here";
import { openEnvelope } from "../inputs/envelope";
import { declaredTwice, describeUrn, recordHeld } from "../ownership/declarations";
import { considerRecordedWorkload, holdsWorkload } from "../service/check-recorded";
import { ImportProofs, checkImportOption, importRefusal } from "../ownership/import-option";
import { databaseReplacement } from "./data-loss";
import { checkReplacement, refuseDeclaredDatabaseDelete } from "./replacement";
import { refuseReplacementWithoutRoom } from "./replacement-room";
import type { ProviderImpl } from "../types";
import { awaitWorkload } from "./wait";
import { requestBodyOf } from "./body";
import { describeWorkload, parseWorkload, withSpec, writeWorkload, type WorkloadModel } from "./model";

/** The strings no error may show: the login and the API key the bag holds. */
function secretsOfWorkload(m: WorkloadModel): string[] {
  return secretsOf({ credentials: m.credentials, apiKey: m.connection.apiKey });
}

/** `m` with the workspace and base URL its connection resolved to (never the API key: see workloads/check.ts). */
function connectedTo(m: WorkloadModel, conn: Connection): WorkloadModel {
  return { ...m, connection: { ...m.connection, workspace: conn.workspace, baseUrl: conn.baseUrl } };
}

/** The stored bag of the resource `id`, parsed; its workspace and workload id are the ones the id names. */
function locate(id: string, props: Props): WorkloadModel {
  const { workspace, id: workloadId } = parseId(id, "workload");
  const m = parseWorkload(props);
  return { ...m, identity: { ...m.identity, workloadId }, connection: { ...m.connection, workspace } };
}

/** A live spec in place of the set spec fields of `stored` (a null one is kept: it sets nothing). */
function liveSpec(stored: Props, live: Props): Props {
  const unset = Object.entries(stored).filter(([, v]) => v === null);
  return { ...Object.fromEntries(unset), ...live };
}

/** Why a delete sent nothing: the workload is now `holder`'s; `old` is the deleted resource's URN, when the engine's RPC showed it. */
function heldElsewhereWarning(stored: WorkloadModel, workspace: string, holder: string, old?: string): string {
  const before = old ? `${describeUrn(old)} (${old})` : `the resource that held it before`;
  return (
    `warning: ${describeWorkload(stored.identity)} of workspace ${workspace} is now held by ${describeUrn(holder)} (${holder}), ` +
    `which created or adopted it in this run: ${before} leaves the stack (id ${formatId(workspace, stored.identity.workloadId)}), ` +
    `and its workload is not deleted`
  );
}

/** Whether only settings changed, the base URL among them, and the service it names now does not hold the workload. */
async function createsElsewhere(
  ctx: Parameters<typeof holdsWorkload>[0] & Pick<ServiceAccess, "sources">,
  changes: WorkloadChanges,
  news: Props,
): Promise<boolean> {
  const onlySettings = changes.replaces.length === 0 && changes.updates.length === 0 && !changes.restart;
  if (!onlySettings || !changes.local.includes("baseUrl")) return false;
  return (await holdsWorkload(ctx, resolveConnection(news, ctx.sources()), news.workloadId)) === false;
}

/**
 * The dynamic provider of every workload resource (`Workload`, `VirtualMachine`, `Pod`,
 * `Browser`, `Controller`, `Database`). See `workloads/diff.ts` for what each change does.
 */
export function createWorkloadProvider(ctx: ManagedContext): ProviderImpl {
  /** Passwords `check` took out of the inputs, for the `create` or `update` that follows it. */
  const credentials = new CredentialVault();
  /** Workloads `check` found named by an `import` option and running the declared spec, for the `create` that follows. */
  const imports = new ImportProofs();
  /**
   * The operation `kind` of the workload of `m`: its calls retry transient failures (429, 503,
   * dropped connections) and its wait runs until one deadline, its timeout (inputs/timeouts.ts) from now.
   */
  const begin = (m: WorkloadModel, kind: OperationKind): Operation =>
    startOperation(ctx, `${kind} of ${describeWorkload(m.identity)}`, m.options.timeoutMs[budgetOf(kind)], urnOf(m));
  /** The URN `check` saw for the workload of `m`, for progress on its row. */
  const urnOf = (m: WorkloadModel): string | undefined =>
    ctx.declarations.urnOf(String(m.connection.baseUrl), String(m.connection.workspace), m.identity.workloadId);

  const accepted = acceptedCreates(ctx, credentials, begin);

  return {
    configure: async (req) => ctx.configure(req.config),

    async check(olds, news) {
      return guarded(
        () => secretsOf(news),
        async () => {
          // What the class filled in as check defaults it, settled here (messages name each setting's source).
          const { envelope, given } = openEnvelope(olds, news);
          const sources = ctx.sources();
          const connection = resolveConnection(given, sources);
          const { urn, importId } = envelope;
          const { inputs, failures } = checkWorkload(olds, given, sources, { connection, importId });
          recordHeld(ctx.declarations, urn, olds);
          failures.push(...checkReplacement(ctx, olds, envelope, inputs));
          const twice = declaredTwice(ctx.declarations, urn, inputs);
          if (twice) failures.push(twice);
          if (failures.length === 0) {
            const imported = await checkImportOption(ctx, imports, olds, envelope, inputs, connection);
            failures.push(...imported.failures);
            // An import is the user's word, as `adopt` is: an existing id is what it asks for.
            const asked = imported.importing ? { ...inputs, adopt: true } : inputs;
            if (failures.length === 0) failures.push(...(await checkAgainstService(ctx, olds, urn, asked, connection)));
            if (failures.length === 0) await considerRecordedWorkload(ctx, olds, connection);
          }
          sayWhereItStopped(ctx.progress, failures, urn);
          const stored = loginOf(olds.credentials)?.digest;
          return { inputs: await credentials.seal(inputs, envelope.credentialsDigest, stored), failures };
        },
      );
    },

    async diff(_id, olds, news) {
      // Classified once: comparing credentials may cost a digest (a 0.1.0 state keeps the password).
      const changes = classifyWorkloadChanges(olds, news);
      const declared = parseWorkload(news);
      const replacement = databaseReplacement(changes, olds, news);
      if (replacement && !replacement.allowed) throw replacement.error;
      if (replacement?.allowed) ctx.progress.note(replacement.warning, urnOf(declared));
      // A base URL changed to a service that does not hold the workload: the update creates it there.
      const createsAt = (await createsElsewhere(ctx, changes, news)) ? declared.connection : undefined;
      const where = createsAt && { workspace: String(createsAt.workspace), baseUrl: String(createsAt.baseUrl) };
      // The engine's detailed diff shows such a change as an update like any other: its rule says what it does.
      for (const note of [...notesOf(changes), ...settingsOnlyNotes(changes, where)])
        ctx.progress.note(`${describeWorkload(declared.identity)}: ${note}`, urnOf(declared));
      return diffOfChanges(changes, olds);
    },

    async create(inputs) {
      const declared = parseWorkload(inputs);
      return connected(ctx, declared.connection, secretsOfWorkload(declared), async ({ conn, client }) => {
        const m = connectedTo(declared, conn);
        const id = m.identity.workloadId;
        const resourceId = formatId(conn.workspace, id);
        const op = begin(m, "create");
        // An existing id is taken over only on the user's word (`adopt`, `import`): see ownership/create-plan.ts.
        const importing = imports.has(conn.baseUrl, conn.workspace, id);
        const plan = planCreate(await readCreateFacts(client, m, importing, op.call));
        if (plan.kind === "import-refused") throw new Error(importRefusal(m, conn.workspace, plan));
        if (plan.kind === "refuse") throw new Error(alreadyExistsMessage(conn.workspace, id, plan.existing, urnOf(m)));
        // Recorded as it runs: an upsert would start a new generation and provision it again.
        if (plan.kind !== "send") {
          const what = plan.kind === "record" ? "adopted" : "imported";
          return { id: resourceId, outs: await accepted.awaitOutputs(client, resourceId, m, what, op) };
        }
        noteCreateSent(client, id);
        return { id: resourceId, outs: await accepted.createAndAwait(client, resourceId, m, op, plan.previous) };
      });
    },

    async read(id, props = {}) {
      const stored = locate(id, props);
      return connected(ctx, stored.connection, secretsOfWorkload(stored), async (reached) => {
        const { conn, client } = reached;
        const workloadId = stored.identity.workloadId;
        const call = begin(stored, "read").call;
        reached.sayKeyInUse();
        // Side by side: far from the service, one round trip per resource instead of two in a row.
        const [status, spec] = await Promise.all([client.findStatus(workloadId, call), sharedSpec(client, call)]);
        if (status === undefined) {
          // A `get` (its first read: only a declared or read resource's state has a type) names what is missing.
          if (stored.identity.type === undefined)
            throw new Error(missingForGet("workload", conn.workspace, workloadId));
          // Gone: an empty id drops the resource from the stack.
          return { id: "" };
        }
        const entry = spec.workloads.find((w) => w.id === workloadId);
        const type = (entry?.type ?? status.type ?? stored.identity.type) as WorkloadType;
        const found = withSpec(stored, type, entry ? liveSpec(stored.spec, entry.spec) : stored.spec);
        const restarts = restartsOutsidePulumi(stored, status);
        const live: WorkloadModel = {
          ...found,
          connection: { ...found.connection, baseUrl: conn.baseUrl },
          restartsOutsidePulumi: restarts,
        };
        const outs = writeWorkload(recorded(live, status));
        // Live inputs: the next diff compares the program against what runs, not what was last applied.
        return { id, props: outs, inputs: inputsOf(outs) };
      });
    },

    async update(id, olds, news) {
      const stored = parseWorkload(olds);
      const declared = parseWorkload(news);
      const secrets = [...secretsOfWorkload(stored), ...secretsOfWorkload(declared)];
      return connected(ctx, declared.connection, secrets, async (reached) => {
        const { conn } = reached;
        const changes = classifyWorkloadChanges(olds, news);
        const m = connectedTo(declared, conn);
        const workloadId = m.identity.workloadId;
        if (changes.updates.length === 0 && !changes.restart) {
          // Another base URL, whose service does not hold the workload (its preview said so): created
          // there, as declared. Its own status, read now: a spec read at check may be minutes old.
          if (changes.local.includes("baseUrl")) {
            const client = reached.client;
            const op = begin(m, "update");
            if ((await client.findStatus(workloadId, op.call)) === undefined) {
              noteCreateSent(client, workloadId);
              return { outs: await accepted.createAndAwait(client, id, m, op) };
            }
          }
          // Options and connection only: nothing is sent. A wait that did not finish last time is resumed.
          if (!m.options.waitForReady || recordedReady(stored.status, m.options))
            return { outs: writeWorkload(recorded(m, stored.status)) };
          return { outs: await accepted.resumeCreateOrWait(reached.client, id, m, stored) };
        }
        const client = reached.client;
        const op = begin(m, "update");
        const call = op.call;
        const previous = await client.findStatus(workloadId, call);
        // A create whose answer was lost, and which never reached the service: sent now, as declared.
        if (previous === undefined && stored.status === undefined) {
          await accepted.sendCreate(client, id, m, op);
          return { outs: await accepted.awaitOutputs(client, id, m, "created", op) };
        }
        if (previous === undefined || previous.phase === "Deleting") {
          const what = previous === undefined ? "no longer exists" : "is being deleted";
          throw new Error(
            `${describeWorkload(m.identity)} ${what} in workspace ${conn.workspace} (deleted outside Pulumi): run \`pulumi refresh\` to drop it from the stack, then \`pulumi up\` to create it again`,
          );
        }
        const requestedAt = ctx.now();
        if (changes.updates.length > 0)
          await client.upsertWorkload(
            m.identity.type,
            requestBodyOf(m, credentials, changes.updates.includes("credentials")),
            call,
          );
        if (changes.restart) await restartOnce(ctx, client, workloadId, previous, op);
        return {
          outs: await accepted.awaitOutputs(client, id, m, changes.updates.length > 0 ? "updated" : "restarted", op, {
            previous,
            requestedAt,
          }),
        };
      });
    },

    async delete(id, props) {
      const stored = locate(id, props);
      await connected(ctx, stored.connection, secretsOfWorkload(stored), async (reached) => {
        const { conn } = reached;
        const workloadId = stored.identity.workloadId;
        refuseDeclaredDatabaseDelete(ctx, id, { ...props, workspace: conn.workspace, workloadId });
        // Another resource of this deployment took this workload over (an adopt after a move):
        // deleting it would delete theirs. Only this resource leaves the state.
        const holder = ctx.declarations.newHolderOf(conn.baseUrl, conn.workspace, workloadId);
        if (holder !== undefined) {
          const old = ctx.deleteUrns.urnOf(id);
          ctx.progress.note(heldElsewhereWarning(stored, conn.workspace, holder, old), old ?? holder);
          return;
        }
        const client = reached.client;
        await refuseReplacementWithoutRoom(ctx, client, conn, id, props);
        reached.sayKeyInUse();
        const op = begin(stored, "delete");
        const alreadyGone = await client.deleteWorkload(workloadId, op.call).then(
          () => false,
          (err: unknown) => {
            if (err instanceof NotFoundError) return true;
            throw err;
          },
        );
        // Gone means /status answers 404: only then is the id free for a replacement. The user
        // may skip that wait (`waitForDeletion: false`), pulumi-kubernetes' skipAwait for deletes.
        if (!alreadyGone && stored.options.waitForDeletion) await awaitWorkload(ctx, client, stored, "gone", op);
      });
    },
  };
}
