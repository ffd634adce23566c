import { z } from "zod";

/** An audit row, as `GET /activity` returns it and as the `activity` event carries it. */
export const ActivityRow = z.looseObject({
  id: z.union([z.string(), z.number()]).optional(),
  at: z.string().optional(),
  actor: z.string().optional(),
  action: z.string().optional(),
  target: z.looseObject({ type: z.string().optional(), id: z.string().optional() }).optional(),
  detail: z.unknown().optional(),
});
export type ActivityRow = z.infer<typeof ActivityRow>;

export const TaskUpdate = z.looseObject({ taskId: z.string(), status: z.string() });
export const AskEvent = z.looseObject({ taskId: z.string(), workloadId: z.string() });
export const AgentBusy = z.looseObject({
  key: z.string(),
  busy: z.boolean(),
  sessions: z.number().int().optional(),
  tasks: z.number().int().optional(),
});
export const AgentSleepState = z.looseObject({ key: z.string(), sleeping: z.boolean() });
export const SpecChanged = z.looseObject({});
export const SecretChanged = z.looseObject({ path: z.string() });
export const Resync = z.looseObject({});

/** The data payload of each event type of the stream. */
export const EVENT_PAYLOADS = {
  activity: ActivityRow,
  "task-update": TaskUpdate,
  "ask-opened": AskEvent,
  "ask-answered": AskEvent,
  "agent-busy": AgentBusy,
  "agent-sleep-state": AgentSleepState,
  "spec-changed": SpecChanged,
  "secret-changed": SecretChanged,
  resync: Resync,
} as const;
export type EventType = keyof typeof EVENT_PAYLOADS;
export const EVENT_TYPES = Object.keys(EVENT_PAYLOADS) as EventType[];

export type WorkspaceEvent = {
  [K in EventType]: { id?: string; type: K; data: z.infer<(typeof EVENT_PAYLOADS)[K]> };
}[EventType];

export const AgentState = z.looseObject({
  busy: z.boolean(),
  sleeping: z.boolean(),
  sessions: z.number().int().optional(),
  tasks: z.number().int().optional(),
});

/** `GET /pulse`: the snapshot a client loads before it opens the stream. */
export const Pulse = z.looseObject({
  lastEventId: z.string().optional(),
  workloads: z.array(z.looseObject({ id: z.string(), type: z.string(), phase: z.string() })).optional(),
  agents: z.record(z.string(), AgentState),
});
export type Pulse = z.infer<typeof Pulse>;

export const ActivityList = z.looseObject({ rows: z.array(ActivityRow) });
export const AskList = z.looseObject({ asks: z.array(z.unknown()) });
export const SecretList = z.looseObject({
  secrets: z.array(z.looseObject({ path: z.string(), updatedAt: z.string().optional() })),
});
export type SecretList = z.infer<typeof SecretList>;

const Resources = z.looseObject({ cpus: z.number(), memory: z.string() });
export const FleetHosts = z.looseObject({
  regions: z.array(
    z.looseObject({
      name: z.string(),
      hosts: z.array(z.looseObject({ name: z.string(), capacity: Resources, free: Resources })),
    }),
  ),
});
export type FleetHosts = z.infer<typeof FleetHosts>;
