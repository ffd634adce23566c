/**
 * `pulumi-wws`: Pulumi resources for the Workspace Workload Service (`Workspace`,
 * `VirtualMachine`, `Pod`, `Browser`, `Controller`, `Database`, `Workload`, `Template`, and the
 * functions `getWorkload`, `listWorkloads`, `getTemplate`, `listTemplates`, `getFleetHosts`,
 * `getWorkloadStatus`, each with its `…Output` form), plus the typed client SDK as `sdk`.
 */
export * from "./provider";
export * as sdk from "./sdk";
