import type { WorkloadType } from "../sdk";
import { WorkloadResource } from "./resources/workload";

/** A resource as a policy pack's `validateResource` sees it (`@pulumi/policy`'s args): its type token and inputs. */
export interface PolicyResource {
  type: string;
  props: Record<string, unknown>;
}

/**
 * The service type (`pod`, `storage`, `vm-ubuntu`, …) of a workload resource as a policy sees it,
 * whichever class declared it: a `Pod` and a `Workload` of kind `pod` both give `pod`; undefined for
 * any other resource. `validateResourceOfType(Pod, …)` matches the `Pod` class's type token only,
 * so a `Workload` of kind `pod` would slip past a rule keyed on it. Every workload resource carries
 * its service type in its inputs as `type`, which `check` validates.
 */
export function workloadTypeOf(resource: PolicyResource): WorkloadType | undefined {
  if (!WorkloadResource.isInstance({ __pulumiType: resource.type })) return undefined;
  return resource.props.type as WorkloadType;
}
