import type { DeploymentClock } from "../operation";
import type { Declarations } from "./declarations";
import { failureAt, type Failure } from "../inputs/failures";
import { formatId } from "../inputs/ids";
import type { Envelope } from "../inputs/envelope";
import type { Props } from "../inputs/props";
import type { ResolvedConnection } from "../service/connection";
import { containsUnknown } from "../inputs/unknown";
import { PREFLIGHT_BUDGET_MS } from "../service/preflight";
import { reachService, type ServiceReach } from "../service/check-live";
import { planCreate, readCreateFacts, type ImportRefused } from "./create-plan";
import { describeWorkload, parseWorkload, type WorkloadModel } from "../workloads/model";

/**
 * The `import` resource option, as the classes hand it to `check` (resources/import-option.ts):
 * the user's word that the workload the id names is this resource's, as `adopt: true` is, and
 * Pulumi's rule that an import takes the resource as it is. So a new resource with `import` must
 * name its own workspace and workload id; that workload must exist and run the declared type and
 * spec; then `create` records it with nothing sent. Otherwise `check` fails at preview, naming why.
 * A resource that has a state ignores the option, as the engine does once a resource is imported.
 */
export class ImportProofs {
  private readonly proven = new Set<string>();

  add(baseUrl: string, workspace: string, id: string): void {
    this.proven.add(`${baseUrl}\n${workspace}\n${id}`);
  }

  /** Whether `check` found the workload named by an `import` option, running the declared spec. */
  has(baseUrl: string, workspace: string, id: string): boolean {
    return this.proven.has(`${baseUrl}\n${workspace}\n${id}`);
  }
}

/** Why `create` (or `check`, planning it) refuses the import of `m`: the workload is gone, or runs another spec. */
export function importRefusal(m: WorkloadModel, workspace: string, refused: ImportRefused): string {
  const what = `${describeWorkload(m.identity)} of workspace ${workspace}`;
  if (refused.reason === "missing")
    return `the import resource option names ${what}, which does not exist: there is nothing to import. Remove the import option to create it. No change was sent`;
  return (
    `the import resource option takes ${what} as it runs, and it runs another spec than this declaration ` +
    `(it differs in ${refused.differences.join(", ")}). Declare what runs (\`npx pulumi-wws import\` writes it), then change it ` +
    `in a later \`pulumi up\`; or replace the import option with \`adopt: true\`, which upserts this declaration over it. No change was sent`
  );
}

/**
 * `check` of the import option of a new resource: `importing` when it stands (the existing-id
 * refusal then does not apply), with the failures that refuse it. Values not known yet (preview)
 * let it through unchecked; `check` runs again at `up`. `connection`: the settings as `check` resolved them.
 */
export async function checkImportOption(
  ctx: ServiceReach & Pick<DeploymentClock, "now"> & { readonly declarations: Declarations },
  proofs: ImportProofs,
  olds: Props,
  envelope: Envelope,
  inputs: Props,
  connection: ResolvedConnection,
): Promise<{ importing: boolean; failures: Failure[] }> {
  const named = envelope.importId;
  if (named === undefined || olds.workloadId !== undefined) return { importing: false, failures: [] };
  // A replacement is checked again without its state: the engine's rule for an import that stays.
  if (ctx.declarations.exists(envelope.urn, false)) {
    const reason =
      "this resource is being replaced, and its import resource option still names the workload it had: " +
      "remove the import option (it is only needed once, to take the workload over)";
    return { importing: true, failures: [failureAt(["workloadId"], reason)] };
  }
  if (containsUnknown(named) || containsUnknown(inputs.workloadId)) return { importing: true, failures: [] };
  const reached = await reachService(ctx, connection);
  // The connection's own failures are reported by the checks against the service.
  if (reached === undefined || "failure" in reached) return { importing: true, failures: [] };
  const { client, conn } = reached;
  const m = parseWorkload(inputs);
  const expected = formatId(conn.workspace, m.identity.workloadId);
  if (named !== expected) {
    const reason =
      `the import resource option names ${JSON.stringify(named)}, but this resource is ${expected} ` +
      `(<workspace>/<workloadId>): set import to "${expected}", or set workloadId (and workspace) to the workload you mean`;
    return { importing: true, failures: [failureAt(["workloadId"], reason)] };
  }
  const plan = planCreate(await readCreateFacts(client, m, true, { deadline: ctx.now() + PREFLIGHT_BUDGET_MS }));
  if (plan.kind === "import-refused")
    return { importing: true, failures: [failureAt(["workloadId"], importRefusal(m, conn.workspace, plan))] };
  proofs.add(conn.baseUrl, conn.workspace, m.identity.workloadId);
  return { importing: true, failures: [] };
}
