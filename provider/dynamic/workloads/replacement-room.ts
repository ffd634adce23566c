import { HttpError, type FleetHosts, type WorkspaceClient } from "../../../sdk";
import type { DeleteUrns } from "../engine/deletes";
import type { DeploymentClock } from "../operation";
import {
  type CapacityPlan,
  declaredFigures,
  freeFigures,
  noRoomIn,
  planVmOf,
  roomsOf,
  scopeOf,
  shown,
} from "../service/capacity";
import type { Connection } from "../service/connection";
import { PREFLIGHT_BUDGET_MS } from "../service/preflight";
import { fitTogether } from "../service/placement";
import { parseId } from "../inputs/ids";
import type { Props } from "../inputs/props";

/**
 * Throws before a VM is deleted as the first half of a replacement (every workload replacement
 * deletes first) when the VM that replaces it could not be placed once it is gone: deleting it
 * would leave neither. The fleet is read again here, not taken from the deployment's first read:
 * the run may have placed other VMs since. The old VM's room is given back on whichever host may
 * hold it (the service does not say which); the replacement must fit for every one of them. A
 * replacement the deployment's plan cannot place (preview's warning: other VMs of the run claim the
 * room first) is refused too, unless that verdict was first-fit decreasing's heuristic.
 * `resourceId` and `stored` are the deleted resource's, `client` its connection's; a resource this run did not check (a
 * removal, `pulumi destroy`) is deleted as asked.
 */
export async function refuseReplacementWithoutRoom(
  ctx: DeploymentClock & { readonly deleteUrns: DeleteUrns; readonly capacity: CapacityPlan },
  client: WorkspaceClient,
  conn: Connection,
  resourceId: string,
  stored: Props,
): Promise<void> {
  if (typeof stored.type !== "string" || !stored.type.startsWith("vm-")) return;
  const workloadId = parseId(resourceId, "workload").id;
  const urn =
    ctx.deleteUrns.urnOf(resourceId) ?? ctx.capacity.holderOf(conn.baseUrl, `${conn.workspace}/${workloadId}`);
  const planned = urn === undefined ? undefined : ctx.capacity.plannedFor(urn);
  // Its replacement goes to another service: this delete gives nothing back there.
  if (urn === undefined || planned === undefined || planned.serviceKey !== conn.baseUrl) return;
  // Under another id, the replacement may have been created first (`deleteBeforeReplace: false`): it has its host.
  const call = { deadline: ctx.now() + PREFLIGHT_BUDGET_MS, signal: ctx.cancelled };
  if (planned.vm.workloadId !== workloadId && (await client.findStatus(planned.vm.workloadId, call)) !== undefined)
    return;
  const fleet = await freshFleet(client, call);
  if (fleet === undefined) return;
  const old = { placement: stored.placement, figures: declaredFigures(stored) };
  const vm = { ...planned.vm, old };
  const alone = fitTogether(roomsOf(fleet), [planVmOf(fleet, urn, vm)]);
  const inPlan = planned.unplaced && !planned.unplaced.fit.heuristic ? planned.unplaced : undefined;
  if (alone.fits && !inPlan) return;
  const scope = scopeOf(fleet, vm.placement);
  const others = inPlan?.placedBefore.join(", ") || "the VMs before it";
  let why: string;
  if (!alone.fits && !alone.dependsOnOldHost) why = noRoomIn(scope.where, true);
  else if (alone.dependsOnOldHost || inPlan?.fit.dependsOnOldHost)
    why = "it would fit only if this VM is on the right host, and the service does not say which host holds it";
  else
    why = `the deployment's plan cannot place it once ${others} ${inPlan?.placedBefore.length === 1 ? "is" : "are"} placed (as preview warned)`;
  throw new Error(
    `${stored.type} ${workloadId} was not deleted: its replacement, ${vm.name}, needs ${shown(vm.demand)} in ${scope.where}, and ${why} once this VM is gone. ` +
      `Free now: ${freeFigures(scope.hosts)}; this VM gives back ${shown(old.figures)} on its host (GET /v1/fleet/hosts; ` +
      `a host must have both the CPUs and the memory). Nothing was deleted. Free capacity there, keep the VM's size, ` +
      `or place it where a host has room; then run \`pulumi up\` again`,
  );
}

/** The fleet now; undefined when the service has no fleet endpoint. */
async function freshFleet(
  client: WorkspaceClient,
  call: { deadline: number; signal: AbortSignal },
): Promise<FleetHosts | undefined> {
  return client.getFleetHosts(call).catch((err: unknown) => {
    if (err instanceof HttpError && (err.status === 404 || err.status === 501)) return undefined;
    throw err;
  });
}
