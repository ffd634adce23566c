import { normalizedBaseUrl } from "../../../sdk";
import type { ProviderContext } from "../context";
import type { Props } from "../inputs/props";
import { reachService } from "./check-live";
import { connectionOf, resolveConnection, type ResolvedConnection } from "./connection";
import { PREFLIGHT_BUDGET_MS } from "./preflight";
import { sharedSpec } from "./shared-spec";

/**
 * What the stack records and the workspace no longer holds (a local service restarted without
 * `--data-dir`, a workload deleted outside Pulumi). A preview without `--refresh` compares the
 * program with the state only, so it said "no changes", `up` changed nothing, and the outputs kept
 * saying Running. `check` hands each resource's recorded id (its olds) and the workspace's spec (the
 * connection check's read, shared); the missing ones are said once per workspace on the Stack row,
 * with the command that creates them again.
 *
 * The engine tells a provider neither how many resources a deployment checks nor when the last one
 * is checked, and calls `check` and `diff` one resource at a time: the warning goes out once no new
 * missing record has come for `quietMs`, or when the engine closes the provider (a preview ends
 * sooner: `engine/closing.ts`), whichever comes first; one that comes later gets a warning of its own.
 */

/** Past this many, a warning gives the count of the rest instead of their names. */
export const NAMED_AT_MOST = 10;

interface Workspace {
  baseUrl: string;
  workspace: string;
  /** `pod web` by id, in the order found, not said yet. */
  unsaid: Map<string, string>;
  said: Set<string>;
}

/** `a workload`, `2 templates`, `3 workloads and templates`: what `missing` (`pod web`, `template base`) are. */
function countOf(missing: readonly string[]): string {
  const templates = missing.filter((m) => m.startsWith("template ")).length;
  const noun = templates === 0 ? "workload" : templates === missing.length ? "template" : "workloads and templates";
  if (missing.length === 1) return `a ${noun}`;
  return `${missing.length} ${noun.endsWith("templates") ? noun : `${noun}s`}`;
}

/** The Stack row's warning for `missing` (`pod web`, `template base`, …) of `workspace` at `baseUrl`. */
export function missingRecordsWarning(baseUrl: string, workspace: string, missing: readonly string[]): string {
  const n = missing.length;
  const named = missing.slice(0, NAMED_AT_MOST).join(", ");
  const rest = n > NAMED_AT_MOST ? ` and ${n - NAMED_AT_MOST} more` : "";
  const them = n === 1 ? "it" : "them";
  return (
    `warning: workspace ${workspace} at ${baseUrl} no longer holds ${countOf(missing)} this stack records: ${named}${rest} ` +
    `(was the service restarted without --data-dir, or ${n === 1 ? "was it" : "were they"} deleted outside Pulumi?). ` +
    `Without --refresh, preview and up compare the program with the stack's state only: they plan no change for ${them}, and \`pulumi up\` creates nothing. ` +
    `Run \`pulumi up --refresh\`: its refresh drops ${them} from the state and its update creates ${them} again`
  );
}

export class MissingRecords {
  private readonly workspaces = new Map<string, Workspace>();
  /** The template ids of each workspace (by connection key), read once per process when a template is recorded. */
  readonly templateIds = new Map<string, Promise<Set<string> | undefined>>();
  private timer: ReturnType<typeof setTimeout> | undefined;

  constructor(
    /** Where the warning goes: the Stack row (`ProgressReporter.delivered` without a URN); resolves once it is there. */
    private readonly warn: (text: string) => Promise<void>,
    private readonly quietMs = 250,
  ) {}

  /**
   * Records `what` (`pod web`), id `id` recorded in the state for `workspace` at `baseUrl`, as
   * missing when `held` (the workspace's ids now) does not list it.
   */
  consider(baseUrl: string, workspace: string, id: string, what: string, held: ReadonlySet<string>): void {
    if (held.has(id)) return;
    const key = `${normalizedBaseUrl(baseUrl)}\n${workspace}`;
    let w = this.workspaces.get(key);
    if (!w) this.workspaces.set(key, (w = { baseUrl, workspace, unsaid: new Map(), said: new Set() }));
    if (w.said.has(id) || w.unsaid.has(id)) return;
    w.unsaid.set(id, what);
    if (this.timer !== undefined) clearTimeout(this.timer);
    this.timer = setTimeout(() => void this.flush(), this.quietMs);
    // Never keep the provider process alive for it.
    this.timer.unref?.();
  }

  /** Says what is missing and not said yet, one warning per workspace (also on the timer); resolves once said. */
  async flush(): Promise<void> {
    if (this.timer !== undefined) clearTimeout(this.timer);
    this.timer = undefined;
    const said: Promise<void>[] = [];
    for (const w of this.workspaces.values()) {
      if (w.unsaid.size === 0) continue;
      said.push(this.warn(missingRecordsWarning(w.baseUrl, w.workspace, [...w.unsaid.values()])));
      for (const id of w.unsaid.keys()) w.said.add(id);
      w.unsaid.clear();
    }
    await Promise.all(said);
  }
}

/** How old the connection check's read of the spec may be to serve: a long `up` reads it again after this. */
const SPEC_MAX_AGE_MS = 60 * 1000; // 60 s

/**
 * `check`'s part: the workload `olds` records, when the connection `r` reaches
 * the workspace it was recorded in and the workspace's spec does not list it. A base URL or
 * workspace changed since is the diff's (the update creates the workload there); a spec the
 * service does not serve says nothing.
 */
export async function considerRecordedWorkload(
  ctx: ProviderContext,
  olds: Props,
  r: ResolvedConnection,
): Promise<void> {
  const { baseUrl, workspace, workloadId, type } = olds;
  if (typeof baseUrl !== "string" || typeof workspace !== "string" || typeof workloadId !== "string") return;
  const reached = await reachService(ctx, r);
  if (reached === undefined || "failure" in reached) return;
  const { client, conn } = reached;
  if (conn.workspace !== workspace || normalizedBaseUrl(conn.baseUrl) !== normalizedBaseUrl(baseUrl)) return;
  const call = { deadline: ctx.now() + PREFLIGHT_BUDGET_MS, signal: ctx.cancelled };
  const spec = await sharedSpec(client, call, { maxAgeMs: SPEC_MAX_AGE_MS, now: ctx.now }).catch(() => undefined);
  if (spec === undefined) return;
  const what = `${typeof type === "string" ? type : "workload"} ${workloadId}`;
  ctx.missingRecords.consider(baseUrl, workspace, workloadId, what, new Set(spec.workloads.map((w) => w.id)));
}

/**
 * Whether the workspace that `news`' connection reaches holds workload `news.workloadId`, by the
 * spec the check of `news` read (shared: no request of its own while fresh); undefined when it
 * cannot tell (a setting unknown at preview, a spec the service does not serve).
 */
export async function holdsWorkload(ctx: ProviderContext, news: Props): Promise<boolean | undefined> {
  const conn = connectionOf(resolveConnection(news, ctx.sources()));
  const id = news.workloadId;
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
export async function considerRecordedTemplate(
  ctx: ProviderContext,
  olds: Props,
  r: ResolvedConnection,
): Promise<void> {
  const { baseUrl, workspace, templateId, name } = olds;
  if (typeof baseUrl !== "string" || typeof workspace !== "string" || typeof templateId !== "string") return;
  const reached = await reachService(ctx, r);
  if (reached === undefined || "failure" in reached) return;
  const { client, conn } = reached;
  if (conn.workspace !== workspace || normalizedBaseUrl(conn.baseUrl) !== normalizedBaseUrl(baseUrl)) return;
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
