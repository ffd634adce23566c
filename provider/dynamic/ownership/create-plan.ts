import type { CallOptions, WorkloadStatus, WorkspaceClient } from "../../../sdk";
import { liveDifferences } from "./takeover";
import type { WorkloadModel } from "../workloads/model";

/** What `create` knows of the id it is asked to create, read from the service just before. */
interface CreateFacts {
  /** The status the id's workload has; undefined when the id is free. */
  existing?: WorkloadStatus;
  /** The resource says `adopt: true`: an existing id is the user's to take over. */
  adopt: boolean;
  /** `check` in this process proved the resource's `import` option (ownership/import-option.ts). */
  importing: boolean;
  /**
   * Where the live workload's type and spec differ from the declaration (none: it runs it). Read
   * only for an existing id that is imported or adopted; undefined when not read, or gone meanwhile.
   */
  differences?: string[];
}

export type CreatePlan =
  | { kind: "import-accepted" }
  | { kind: "import-refused"; reason: "missing" }
  | { kind: "import-refused"; reason: "differs"; differences: string[] }
  | { kind: "refuse"; existing: WorkloadStatus }
  | { kind: "record" }
  | { kind: "send"; previous?: WorkloadStatus };

export type ImportRefused = Extract<CreatePlan, { kind: "import-refused" }>;

/**
 * What `create` does with the id it is asked to create, from the facts above (`–`: not asked):
 *
 *   import  exists  adopt  runs the declared spec  →
 *   yes     no      –      –                         import-refused  missing: nothing to import, nothing sent
 *   yes     yes     –      gone meanwhile            import-refused  missing
 *   yes     yes     –      no                        import-refused  differs: an import takes it as it runs, nothing sent
 *   yes     yes     –      yes                       import-accepted nothing sent, read its status ("imported")
 *   no      no      –      –                         send            upsert, wait ("created")
 *   no      yes     no     –                         refuse          nothing proves it ours: nothing sent
 *   no      yes     yes    yes                       record          taken as it is: nothing sent, read its status ("adopted")
 *   no      yes     yes    no, or gone meanwhile     send previous   upsert the declared spec over it, wait ("adopted")
 *
 * `check` plans an import the same way before it proves it, so preview refuses what `create`
 * would. A create this stack's killed run left behind is no case here: `pulumi-wws recover` writes
 * it into the state from the engine's pending create, so the engine never calls `create` for it.
 */
export function planCreate(facts: CreateFacts): CreatePlan {
  const { existing, differences } = facts;
  if (facts.importing) {
    if (differences === undefined) return { kind: "import-refused", reason: "missing" };
    if (differences.length > 0) return { kind: "import-refused", reason: "differs", differences };
    return { kind: "import-accepted" };
  }
  if (existing === undefined) return { kind: "send" };
  if (!facts.adopt) return { kind: "refuse", existing };
  return differences?.length === 0 ? { kind: "record" } : { kind: "send", previous: existing };
}

/**
 * The facts of `m`'s create, with the reads its plan needs and no more: the id's own status, read
 * just before the upsert, which would take over whatever holds the id (the shared, older read of
 * the workspace serves the checks of a preview, not this proof); the live spec only for an
 * existing id that is imported or adopted.
 */
export async function readCreateFacts(
  client: WorkspaceClient,
  m: WorkloadModel,
  importing: boolean,
  call: CallOptions,
): Promise<CreateFacts> {
  const adopt = m.options.adopt;
  const existing = await client.findStatus(m.identity.workloadId, call);
  const compared = existing !== undefined && (importing || adopt);
  return { existing, adopt, importing, differences: compared ? await liveDifferences(client, m, call) : undefined };
}
