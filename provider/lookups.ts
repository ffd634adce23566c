import * as pulumi from "@pulumi/pulumi";
import {
  NotFoundError,
  WorkloadType,
  specKeyOf,
  type SavedTemplate,
  type WorkloadStatus,
  type WorkspaceClient,
} from "../sdk";
import { WORKLOAD_RULES } from "./fields/workload-rules";
import { readOutput, readPromise } from "./functions";
import type { ConnectionArgs } from "./resources/inputs";

/** A workload as the service holds it: its desired spec (`GET /spec`) and its `/status`, read now. */
export interface WorkloadInfo {
  workloadId: string;
  type: WorkloadType;
  /** The spec fields the service holds (never a password: the service keeps none it would show). */
  spec: Record<string, unknown>;
  status: WorkloadStatus;
}

export interface GetWorkloadArgs extends ConnectionArgs {
  /** The workload id in its workspace. */
  workloadId: pulumi.Input<string>;
}

export interface ListWorkloadsArgs extends ConnectionArgs {
  /** Only workloads of this type (`pod`, `storage`, `browser`, `vm-ubuntu`, …). @default every type */
  kind?: pulumi.Input<WorkloadType>;
}

export interface GetTemplateArgs extends ConnectionArgs {
  /** The template's id (`tpl_<hex>`). Set this or `name`. */
  templateId?: pulumi.Input<string>;
  /** The template's name; two templates of that name fail, naming both ids. Set this or `templateId`. */
  name?: pulumi.Input<string>;
}

/**
 * A spec as shown: without `credentials`, should a service ever answer with them, and each field the
 * classes keep secret (a pod's `source`, which may carry a token) as a secret `Output` where it sits:
 * exported or passed on, it stays secret in the reading stack's state and outputs.
 */
function shownSpec(spec: Record<string, unknown>): Record<string, unknown> {
  return Object.fromEntries(
    Object.entries(spec)
      .filter(([k]) => k !== "credentials")
      .map(([k, v]) => [k, WORKLOAD_RULES.secretSpecKeys.includes(k) ? pulumi.secret(v) : v]),
  );
}

/** A template as shown: its spec object (`config.pod`) as `shownSpec` shows a workload's. */
function shownTemplate(t: SavedTemplate): SavedTemplate {
  const key = WorkloadType.safeParse(t.kind).success ? specKeyOf(t.kind as WorkloadType) : undefined;
  const spec = key === undefined ? undefined : t.config[key];
  if (typeof spec !== "object" || spec === null || Array.isArray(spec)) return t;
  return { ...t, config: { ...t.config, [key as string]: shownSpec(spec as Record<string, unknown>) } };
}

/**
 * `/status` reads a lookup keeps in flight at once. The service offers no read of many statuses
 * (the spec names `/status` per workload only): a workspace of 3,000 workloads sent 3,001 requests
 * at once, more than the client's pool has connections (32) and a burst a rate limit answers with 429s.
 */
export const STATUS_READS_AT_ONCE = 16;

/** `f` of each item, at most `limit` at once, results in the items' order; the first failure rejects. */
export async function mapBounded<T, R>(items: readonly T[], limit: number, f: (item: T) => Promise<R>): Promise<R[]> {
  const results = new Array<R>(items.length);
  let next = 0;
  const worker = async (): Promise<void> => {
    while (next < items.length) {
      const i = next++;
      results[i] = await f(items[i]);
    }
  };
  await Promise.all(Array.from({ length: Math.min(limit, items.length) }, worker));
  return results;
}

async function workloadsOf(client: WorkspaceClient, only?: (w: { id: string; type: string }) => boolean) {
  const spec = await client.getSpec();
  const chosen = spec.workloads.filter((w) => !only || only(w));
  return mapBounded(chosen, STATUS_READS_AT_ONCE, async (w): Promise<WorkloadInfo> => ({
    workloadId: w.id,
    type: w.type as WorkloadType,
    spec: shownSpec(w.spec),
    status: await client.getStatus(w.id),
  }));
}

async function oneWorkload(client: WorkspaceClient, id: string): Promise<WorkloadInfo> {
  const [found] = await workloadsOf(client, (w) => w.id === id);
  if (!found) throw new Error(`getWorkload: workspace ${client.workspace} has no workload ${id}`);
  return found;
}

const ofKind = (client: WorkspaceClient, kind: WorkloadType | undefined): Promise<WorkloadInfo[]> =>
  workloadsOf(client, (w) => kind === undefined || w.type === kind);

const templates = async (client: WorkspaceClient): Promise<SavedTemplate[]> =>
  (await client.listTemplates()).map(shownTemplate);

async function findSavedTemplate(
  client: WorkspaceClient,
  { templateId, name }: { templateId?: string; name?: string },
): Promise<SavedTemplate> {
  const where = `workspace ${client.workspace}`;
  if ((templateId === undefined) === (name === undefined))
    throw new Error(`getTemplate: set exactly one of templateId and name`);
  if (templateId !== undefined) {
    try {
      return await client.getTemplate(templateId);
    } catch (err) {
      if (err instanceof NotFoundError) throw new Error(`getTemplate: ${where} has no template ${templateId}`);
      throw err;
    }
  }
  const named = (await client.listTemplates()).filter((t) => t.name === name);
  if (named.length === 0) throw new Error(`getTemplate: ${where} has no template named "${name}"`);
  if (named.length > 1)
    throw new Error(
      `getTemplate: ${where} has ${named.length} templates named "${name}": ${named.map((t) => t.id).join(", ")}; ask for one by templateId`,
    );
  return named[0];
}

const findTemplate = async (client: WorkspaceClient, which: { templateId?: string; name?: string }) =>
  shownTemplate(await findSavedTemplate(client, which));

/** The spec and status of the workload `workloadId`; fails naming the workspace and the id when there is none. */
export function getWorkload(args: GetWorkloadArgs): Promise<WorkloadInfo> {
  return readPromise("getWorkload", args, args.workloadId, oneWorkload, "workloadId");
}

/** `getWorkload` as an `Output`. */
export function getWorkloadOutput(args: GetWorkloadArgs): pulumi.Output<WorkloadInfo> {
  return readOutput("getWorkload", args, args.workloadId, oneWorkload);
}

/** Every workload of the workspace (of one type with `kind`), with spec and status, in the service's order. */
export function listWorkloads(args: ListWorkloadsArgs = {}): Promise<WorkloadInfo[]> {
  return readPromise("listWorkloads", args, args.kind, ofKind, "kind");
}

/** `listWorkloads` as an `Output`. */
export function listWorkloadsOutput(args: ListWorkloadsArgs = {}): pulumi.Output<WorkloadInfo[]> {
  return readOutput("listWorkloads", args, args.kind, ofKind);
}

/** Every saved template of the workspace. */
export function listTemplates(args: ConnectionArgs = {}): Promise<SavedTemplate[]> {
  return readPromise("listTemplates", args, null, templates);
}

/** `listTemplates` as an `Output`. */
export function listTemplatesOutput(args: ConnectionArgs = {}): pulumi.Output<SavedTemplate[]> {
  return readOutput("listTemplates", args, null, templates);
}

/** The saved template of `templateId`, or the one named `name` (two of that name fail, naming both ids). */
export function getTemplate(args: GetTemplateArgs): Promise<SavedTemplate> {
  return readPromise("getTemplate", args, { templateId: args.templateId, name: args.name }, findTemplate);
}

/** `getTemplate` as an `Output`. */
export function getTemplateOutput(args: GetTemplateArgs): pulumi.Output<SavedTemplate> {
  return readOutput("getTemplate", args, { templateId: args.templateId, name: args.name }, findTemplate);
}
