/** The classes whose resources are workloads, each registered as `pulumi-nodejs:dynamic/wws:<class>`. */
export const WORKLOAD_CLASSES = Object.freeze([
  "VirtualMachine",
  "Pod",
  "Browser",
  "Controller",
  "Database",
  "Workload",
]);

/**
 * The type token of a resource class of the dynamic provider host: what `pulumi.dynamic.Resource`
 * would register it as, and what the engine, the state and a policy pack know it by.
 */
export function dynamicType(className: string): string {
  return `pulumi-nodejs:dynamic/wws:${className}`;
}

/**
 * Whether `obj` is a resource of one of `types`: a resource object, or what `@pulumi/policy` hands a
 * class's `isInstance` (`{__pulumiType: <the policy's resource type>}`). By token, not by
 * prototype, so that a resource of another copy of this package counts too.
 */
export function isOfType(obj: unknown, types: readonly string[]): boolean {
  if (typeof obj !== "object" || obj === null) return false;
  const type = (obj as { __pulumiType?: unknown }).__pulumiType;
  return typeof type === "string" && types.includes(type);
}
