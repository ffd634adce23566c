/**
 * Pulumi resources for the Workspace Workload Service. See `provider/README.md` for the
 * connection settings, the diff each change makes, secrets, adoption and known engine limits.
 */
export { Workspace, type WorkspaceArgs } from "./resources/workspace";
export { WorkloadResource, Workload, type WorkloadArgs, type WorkloadCommonArgs } from "./resources/workload";
export {
  VirtualMachine,
  type VirtualMachineArgs,
  type VmOs,
  type VmPortArgs,
  type PlacementArgs,
  type AiDaemonArgs,
} from "./resources/virtual-machine";
export { Pod, type PodArgs, type PodPortArgs, type PodSourceArgs } from "./resources/pod";
export { Browser, type BrowserArgs } from "./resources/browser";
export { Controller, type ControllerArgs } from "./resources/controller";
export { Database, type DatabaseArgs, type BackupArgs } from "./resources/database";
export { Template, type TemplateArgs } from "./resources/template";
export type { ConnectionArgs, CredentialsArgs, WaitArgs } from "./resources/inputs";
// The functions, each in its two forms, and their argument and result types.
export * from "./functions";
export { workloadTypeOf, type PolicyResource } from "./policy-targets";
