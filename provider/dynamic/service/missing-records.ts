import { normalizedBaseUrl } from "../../../sdk";

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
    /** Long enough that a template's `diff` (which finds it) on a loaded machine joins its workloads' warning. */
    private readonly quietMs = 1000,
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
