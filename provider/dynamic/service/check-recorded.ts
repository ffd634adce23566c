import { normalizedBaseUrl } from "../../../sdk";
import type { DeploymentClock } from "../operation";
import type { MissingRecords } from "./missing-records";
import type { Props } from "../inputs/props";
import { reachService, type ServiceReach } from "./check-live";
import { connectionOf, type ResolvedConnection } from "./connection";
import { PREFLIGHT_BUDGET_MS } from "./preflight";
import { sharedSpec } from "./shared-spec";

/*
 * The look of `check` (and of a template's `diff`) for what the stack records and the workspace no
 * longer holds; `MissingRecords` (missing-records.ts) says it, once per workspace.
 */

/** How old the connection check's read of the spec may be to serve: a long `up` reads it again after this. */
const SPEC_MAX_AGE_MS = 60 * 1000; // 60 s

/** What the look for missing records takes of the provider's context. */
interface RecordChecks extends ServiceReach, DeploymentClock {
  readonly missingRecords: MissingRecords;
}

/**
 * The record of `olds` (its place and its id at `idKey`), with the client and connection `r`
 * reaches, when that is the workspace the record names; undefined otherwise (a setting changed
 * since is the diff's; a service not reached says nothing).
 */
async function reachedAsRecorded(ctx: ServiceReach, r: ResolvedConnection, olds: Props, idKey: string) {
  const { baseUrl, workspace, [idKey]: id } = olds;
  if (typeof baseUrl !== "string" || typeof workspace !== "string" || typeof id !== "string") return undefined;
  const reached = await reachService(ctx, r);
  if (reached === undefined || "failure" in reached) return undefined;
  const { client, conn } = reached;
  if (conn.workspace !== workspace || normalizedBaseUrl(conn.baseUrl) !== normalizedBaseUrl(baseUrl)) return undefined;
  return { client, conn, baseUrl, workspace, id };
}

/**
 * `check`'s part: the workload `olds` records, when the connection `r` reaches
 * the workspace it was recorded in and the workspace's spec does not list it. A base URL or
 * workspace changed since is the diff's (the update creates the workload there); a spec the
 * service does not serve says nothing.
 */
export async function considerRecordedWorkload(ctx: RecordChecks, olds: Props, r: ResolvedConnection): Promise<void> {
  const reached = await reachedAsRecorded(ctx, r, olds, "workloadId");
  if (reached === undefined) return;
  const { client, baseUrl, workspace, id: workloadId } = reached;
  const type = olds.type;
  const call = { deadline: ctx.now() + PREFLIGHT_BUDGET_MS, signal: ctx.cancelled };
  const spec = await sharedSpec(client, call, { maxAgeMs: SPEC_MAX_AGE_MS, now: ctx.now }).catch(() => undefined);
  if (spec === undefined) return;
  const what = `${typeof type === "string" ? type : "workload"} ${workloadId}`;
  ctx.missingRecords.consider(baseUrl, workspace, workloadId, what, new Set(spec.workloads.map((w) => w.id)));
}

/**
 * Whether the workspace that the connection `r` reaches holds workload `id`, by the spec the check
 * of its resource read (shared: no request of its own while fresh); undefined when it cannot tell
 * (a setting unknown at preview, a spec the service does not serve).
 */
export async function holdsWorkload(
  ctx: DeploymentClock & Pick<ServiceReach, "client">,
  r: ResolvedConnection,
  id: unknown,
): Promise<boolean | undefined> {
  const conn = connectionOf(r);
  if (conn === undefined || typeof id !== "string") return undefined;
  const call = { deadline: ctx.now() + PREFLIGHT_BUDGET_MS, signal: ctx.cancelled };
  const spec = await sharedSpec(ctx.client(conn), call, { maxAgeMs: SPEC_MAX_AGE_MS, now: ctx.now }).catch(
    () => undefined,
  );
  return spec && spec.workloads.some((w) => w.id === id);
}

/**
 * `diff`'s part for a template (its id is an output, which `check`'s olds lack): the one `olds` records, when the connection `r` reaches the
 * workspace it was recorded in and its templates (one `GET …/templates` per workspace and process,
 * only when a template is recorded: the spec does not list templates) do not include it.
 */
export async function considerRecordedTemplate(ctx: RecordChecks, olds: Props, r: ResolvedConnection): Promise<void> {
  const reached = await reachedAsRecorded(ctx, r, olds, "templateId");
  if (reached === undefined) return;
  const { client, conn, baseUrl, workspace, id: templateId } = reached;
  const name = olds.name;
  const key = conn.connection.key;
  let ids = ctx.missingRecords.templateIds.get(key);
  if (ids === undefined) {
    const call = { deadline: ctx.now() + PREFLIGHT_BUDGET_MS, signal: ctx.cancelled };
    ids = client.listTemplates(call).then(
      (all) => new Set(all.map((t) => t.id)),
      () => undefined,
    );
    ctx.missingRecords.templateIds.set(key, ids);
  }
  const held = await ids;
  if (held === undefined) return;
  const what = `template ${typeof name === "string" ? name : templateId} (${templateId})`;
  ctx.missingRecords.consider(baseUrl, workspace, templateId, what, held);
}
