import type { ResourceValidationPolicy } from "@pulumi/policy";
import * as wws from "pulumi-wws";

/**
 * The pack's rules. Each reaches its workloads by service type (`workloadTypeOf`), so that a
 * `Workload` of kind `pod` or `storage` is held to the same rule as a `Pod` or a `Database`:
 * `validateResourceOfType(wws.Pod, …)` would match the `Pod` class only.
 */
export const policies: ResourceValidationPolicy[] = [
  {
    name: "wws-pod-cpu-limit",
    description: "Every pod sets a cpu limit, so that one pod cannot starve the others of its workspace.",
    enforcementLevel: "mandatory",
    validateResource: (args, reportViolation) => {
      if (wws.workloadTypeOf(args) === "pod" && args.props.cpu === undefined)
        reportViolation('Set cpu on the pod: millicores such as "500m", or whole cores such as "2".');
    },
  },
  {
    name: "wws-database-tls",
    description: "Every database encrypts its connections with TLS.",
    enforcementLevel: "mandatory",
    validateResource: (args, reportViolation) => {
      if (wws.workloadTypeOf(args) === "storage" && args.props.tls !== true)
        reportViolation("Set tls: true on the database.");
    },
  },
];
