export { type DeclaredFields, type PlainConnectionArgs } from "./call";
export {
  getWorkload,
  getWorkloadOutput,
  listWorkloads,
  listWorkloadsOutput,
  getWorkloadStatus,
  getWorkloadStatusOutput,
  type WorkloadInfo,
  type GetWorkloadArgs,
  type GetWorkloadOutputArgs,
  type ListWorkloadsArgs,
  type ListWorkloadsOutputArgs,
  type GetWorkloadStatusArgs,
  type GetWorkloadStatusOutputArgs,
} from "./workloads";
export {
  getTemplate,
  getTemplateOutput,
  listTemplates,
  listTemplatesOutput,
  type GetTemplateArgs,
  type GetTemplateOutputArgs,
} from "./templates";
export { getFleetHosts, getFleetHostsOutput } from "./fleet";
