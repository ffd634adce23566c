import type { WorkspaceClient } from "../../../sdk";
import { connectionOf, type Connection, type ResolvedConnection } from "./connection";
import type { Declarations } from "../ownership/declarations";
import type { ProgressReporter } from "../engine/progress";
import type { DeploymentClock } from "../operation";
import type { CapacityPlan } from "./capacity";
import { failureAt, type Failure } from "../inputs/failures";
import { alreadyExistsMessage } from "../ownership/takeover";
import { planCreate } from "../ownership/create-plan";
import { PREFLIGHT_BUDGET_MS, type Preflight } from "./preflight";
import type { Props } from "../inputs/props";
import { containsUnknown } from "../inputs/unknown";
import { statusIfTaken } from "./taken-id";
import { sharedSpec } from "./shared-spec";

/** What reaching the service at `check` takes of the provider's context: its clients and the checks made once per connection. */
export interface ServiceReach {
  client(connection: Connection): WorkspaceClient;
  readonly preflight: Preflight;
}

/** What the checks against the service take of the provider's context. */
export interface ServiceChecks extends ServiceReach, DeploymentClock {
  readonly declarations: Declarations;
  readonly capacity: CapacityPlan;
  readonly progress: ProgressReporter;
}

/**
 * The client of the connection `r` makes (the settings as `check` resolved them), once the service
 * answered a read with it; or the failure that says why not; undefined while a setting is not
 * known or not valid (`check` reports those itself).
 */
export async function reachService(
  ctx: ServiceReach,
  r: ResolvedConnection,
): Promise<{ client: WorkspaceClient; conn: Connection } | { failure: Failure } | undefined> {
  const conn = r.conflict ? undefined : connectionOf(r);
  if (conn === undefined) return undefined;
  const client = ctx.client(conn);
  const failure = await ctx.preflight.connection(client, conn, r);
  return failure ? { failure } : { client, conn };
}

/**
 * What `check` learns from the service with reads only, after the inputs passed every local
 * rule: the connection works (base URL, key, workspace), a placement's region or host exists,
 * and a new workload's id is not somebody else's. Skipped while a setting is not known (preview).
 * `urn`: the resource's, from the class's envelope.
 */
export async function checkAgainstService(
  ctx: ServiceChecks,
  olds: Props,
  urn: string | undefined,
  inputs: Props,
  r: ResolvedConnection,
): Promise<Failure[]> {
  // A replacement's create is checked without olds, but replaces a resource that exists.
  const isNew = !ctx.declarations.exists(urn, olds.workloadId !== undefined);
  const reached = await reachService(ctx, r);
  if (reached === undefined || "failure" in reached) return reached ? [reached.failure] : [];
  const { client, conn } = reached;
  const failures: Failure[] = [];
  if (!containsUnknown(inputs.placement)) {
    const placement = await ctx.preflight.placement(client, conn, inputs.placement);
    if (placement) failures.push(placement);
    else failures.push(...(await checkCapacity(ctx, client, conn, olds, inputs, isNew, urn)));
  }
  const id = inputs.workloadId;
  if (!isNew || inputs.adopt === true || containsUnknown(inputs.adopt) || typeof id !== "string") return failures;
  // One read of the workspace's ids serves every check of the deployment (taken-id.ts).
  const live = await statusIfTaken(client, id, { deadline: ctx.now() + PREFLIGHT_BUDGET_MS }, ctx.now).catch(
    () => undefined,
  );
  // The create's own rule (ownership/create-plan.ts): preview refuses what `create` would.
  const plan = planCreate({ existing: live, adopt: false, importing: false });
  if (plan.kind === "refuse")
    failures.push(failureAt(["workloadId"], alreadyExistsMessage(conn.workspace, id, plan.existing, urn)));
  return failures;
}

/**
 * A new or grown VM against the fleet (read once per deployment): a failure when no host of its
 * scope could ever hold it, a warning on its row when the plan cannot place it (service/capacity.ts).
 */
async function checkCapacity(
  ctx: Omit<ServiceChecks, "client" | "declarations">,
  client: WorkspaceClient,
  conn: Connection,
  olds: Props,
  inputs: Props,
  isNew: boolean,
  urn: string | undefined,
): Promise<Failure[]> {
  const type = inputs.type;
  if (
    typeof type !== "string" ||
    !type.startsWith("vm-") ||
    containsUnknown(inputs.cpus) ||
    containsUnknown(inputs.memory)
  )
    return [];
  const fleet = await ctx.preflight.fleet(client, conn).catch(() => undefined);
  if (fleet === undefined) return [];
  const vm = `${type} ${String(inputs.workloadId)}`;
  // A replacement is checked twice: with its state, then without it as the VM that replaces it.
  const as = olds.workloadId !== undefined ? "with-state" : isNew ? "new" : "replacing";
  const key = urn ?? `${conn.workspace}/${String(inputs.workloadId)}`;
  // `--replace` and `replaceWith` check it only without its state: the VM it replaces is the live one.
  const before =
    as === "with-state"
      ? olds
      : as === "replacing" && !ctx.capacity.knowsOld(key)
        ? await liveVm(ctx, client, inputs)
        : undefined;
  if (as === "with-state") ctx.capacity.holds(key, conn.baseUrl, `${conn.workspace}/${String(olds.workloadId)}`);
  const { failure, warning } = ctx.capacity.check(conn.baseUrl, fleet, key, vm, as, inputs, before);
  if (warning) ctx.progress.note(warning, urn);
  return failure ? [failure] : [];
}

/** The live spec of the workload `inputs` names (one read of the workspace shared by the deployment's checks). */
async function liveVm(ctx: DeploymentClock, client: WorkspaceClient, inputs: Props): Promise<Props | undefined> {
  const call = { deadline: ctx.now() + PREFLIGHT_BUDGET_MS, signal: ctx.cancelled };
  const spec = await sharedSpec(client, call, { maxAgeMs: PREFLIGHT_BUDGET_MS, now: ctx.now }).catch(() => undefined);
  return spec?.workloads.find((w) => w.id === inputs.workloadId)?.spec;
}
