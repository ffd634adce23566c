import { z } from "zod";
import * as s from "../sdk/schemas";

/** Answers that have no schema in the SDK because the client never needs to parse them. */
const DeleteResponse = z.looseObject({ tenant: z.string(), id: z.string(), status: z.string() });
const Health = z.strictObject({ ok: z.literal(true) });

/**
 * The named schemas of the document, all taken from the zod schemas the service validates with
 * (plus the two above). Nested schemas listed here become `$ref`s wherever they are used.
 */
const NAMED: Record<string, z.ZodType> = {
  Credentials: s.Credentials,
  VmPort: s.VmPort,
  Placement: s.Placement,
  AiDaemon: s.AiDaemon,
  PodPort: s.PodPort,
  PodSource: s.PodSource,
  Backup: s.Backup,
  CreateVm: s.CreateVm,
  CreatePod: s.CreatePod,
  CreateBrowser: s.CreateBrowser,
  CreateController: s.CreateController,
  CreateStorage: s.CreateStorage,
  CreateResponse: s.CreateResponse,
  RestartResponse: s.RestartResponse,
  DeleteResponse,
  WorkloadStatus: s.WorkloadStatus,
  TenantSpec: s.TenantSpec,
  TemplateCreate: s.TemplateCreate,
  Template: s.SavedTemplate,
  TemplateList: s.TemplateList,
  AgentState: s.AgentState,
  Pulse: s.Pulse,
  ActivityRow: s.ActivityRow,
  ActivityList: s.ActivityList,
  AskList: s.AskList,
  SecretList: s.SecretList,
  FleetHosts: s.FleetHosts,
  TaskUpdate: s.TaskUpdate,
  AskEvent: s.AskEvent,
  AgentBusy: s.AgentBusy,
  AgentSleepState: s.AgentSleepState,
  SpecChanged: s.SpecChanged,
  SecretChanged: s.SecretChanged,
  Resync: s.Resync,
  ErrorDetail: s.ErrorDetail,
  ErrorBody: s.ErrorBody,
  Health,
};

/** Schema name of each event type's payload. */
export const EVENT_SCHEMAS: Record<s.EventType, string> = {
  activity: "ActivityRow",
  "task-update": "TaskUpdate",
  "ask-opened": "AskEvent",
  "ask-answered": "AskEvent",
  "agent-busy": "AgentBusy",
  "agent-sleep-state": "AgentSleepState",
  "spec-changed": "SpecChanged",
  "secret-changed": "SecretChanged",
  resync: "Resync",
};

export function ref(name: keyof typeof NAMED & string): { $ref: string } {
  return { $ref: `#/components/schemas/${name}` };
}

export function componentSchemas(): Record<string, unknown> {
  const registry = z.registry<{ id: string }>();
  for (const [id, schema] of Object.entries(NAMED)) registry.add(schema, { id });
  const { schemas } = z.toJSONSchema(registry, {
    target: "draft-2020-12",
    io: "input",
    uri: (id) => `#/components/schemas/${id}`,
  });
  // OpenAPI 3.1 components are 2020-12 schemas already; per-schema $schema/$id would only add noise.
  return Object.fromEntries(
    Object.entries(schemas).map(([id, schema]) => {
      const rest: Record<string, unknown> = { ...schema };
      delete rest.$schema;
      delete rest.$id;
      return [id, rest];
    }),
  );
}
