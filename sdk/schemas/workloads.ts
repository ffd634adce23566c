import { z } from "zod";
import { CpuQuantity, Credentials, Name, Port, SizeQuantity } from "./common";

export const VM_TYPES = ["vm-ubuntu", "vm-ubuntu-desktop", "vm-windows"] as const;
export const WORKLOAD_TYPES = [...VM_TYPES, "pod", "browser", "controller", "storage"] as const;
export const WorkloadType = z.enum(WORKLOAD_TYPES);
export type WorkloadType = z.infer<typeof WorkloadType>;

export function isVmType(type: string): type is (typeof VM_TYPES)[number] {
  return (VM_TYPES as readonly string[]).includes(type);
}

/** The key a workload kind's spec lives under in a template `config`: `vm` for every VM kind. */
export function specKeyOf(type: WorkloadType): string {
  return isVmType(type) ? "vm" : type;
}

// ---- Virtual machines (vm-ubuntu, vm-ubuntu-desktop, vm-windows) ----

export const VmPort = z.strictObject({
  name: z.string().min(1).max(63).optional(),
  port: Port,
  protocol: z.enum(["tcp", "udp"]).optional(),
});

/** Omitted means automatic placement. Set one of the two, never both. */
export const Placement = z
  .strictObject({ region: z.string().min(1).optional(), host: z.string().min(1).optional() })
  .superRefine((p, ctx) => {
    if (p.region !== undefined && p.host !== undefined) {
      ctx.addIssue({
        code: "custom",
        path: ["host"],
        message: "set either placement.region or placement.host, not both (a host already implies its region)",
      });
    }
  });

export const AiDaemon = z.strictObject({
  enabled: z.boolean(),
  provider: z.string().min(1).optional(),
  model: z.string().min(1).optional(),
});

export const CreateVm = z.strictObject({
  id: Name,
  cpus: z.number().int().min(1).max(256).optional(),
  memory: SizeQuantity.optional(),
  storageSize: SizeQuantity.optional(),
  credentials: Credentials.optional(),
  ports: z.array(VmPort).max(64).optional(),
  placement: Placement.optional(),
  aiDaemon: AiDaemon.optional(),
});
export type CreateVm = z.infer<typeof CreateVm>;

/** Why a VM request is refused for enabling `aiDaemon` without credentials: only where the daemon is first enabled. */
export const DAEMON_CREDENTIALS_RULE =
  "credentials must be set on the same request that first enables aiDaemon (the agent uses them once to install its SSH key)";

export const daemonEnabled = (spec: { aiDaemon?: unknown } | undefined): boolean =>
  (spec?.aiDaemon as { enabled?: unknown } | undefined)?.enabled === true;

// ---- Container apps (pod) ----

export const PodPort = z.strictObject({ name: z.string().min(1).max(63), port: Port });
export const PodSource = z.strictObject({ repo: z.string().min(1), ref: z.string().min(1).optional() });

export const CreatePod = z
  .strictObject({
    id: Name,
    image: z.string().min(1).optional(),
    command: z.array(z.string()).optional(),
    cpu: CpuQuantity.optional(),
    memory: SizeQuantity.optional(),
    ports: z.array(PodPort).max(64).optional(),
    source: PodSource.optional(),
  })
  .superRefine((pod, ctx) => {
    if (pod.image === undefined && pod.source?.repo === undefined) {
      ctx.addIssue({
        code: "custom",
        path: ["image"],
        message: "set image or source.repo: a pod needs something to run",
      });
    }
  });
export type CreatePod = z.infer<typeof CreatePod>;

// ---- Headless browsers and browser-automation controllers ----

export const CreateBrowser = z.strictObject({ id: Name, cpu: CpuQuantity.optional(), memory: SizeQuantity.optional() });
export type CreateBrowser = z.infer<typeof CreateBrowser>;

export const CreateController = z.strictObject({ id: Name, autodiscover: z.boolean().optional() });
export type CreateController = z.infer<typeof CreateController>;

// ---- Managed databases (storage) ----

export const StorageEngine = z.enum(["postgres", "redis"]);
export const Backup = z.strictObject({
  enabled: z.boolean(),
  schedule: z.string().min(1).optional(),
  retentionDays: z.number().int().min(1).max(3650).optional(),
});

export const CreateStorage = z
  .strictObject({
    id: Name,
    engine: StorageEngine,
    version: z.string().min(1).optional(),
    instances: z.union([z.literal(1), z.literal(2), z.literal(3)], { error: "must be 1, 2 or 3" }).optional(),
    storageSize: SizeQuantity.optional(),
    cpu: CpuQuantity.optional(),
    memory: SizeQuantity.optional(),
    tls: z.boolean().optional(),
    adminConsole: z.boolean().optional(),
    network: z.strictObject({ exposed: z.boolean() }).optional(),
    credentials: Credentials,
    backup: Backup.optional(),
  })
  .superRefine((db, ctx) => {
    if (db.backup !== undefined && db.engine !== "postgres") {
      ctx.addIssue({ code: "custom", path: ["backup"], message: "backup is only available for engine postgres" });
    }
  });
export type CreateStorage = z.infer<typeof CreateStorage>;

/** The create (upsert) body of each workload type. */
export const CREATE_BODY = {
  "vm-ubuntu": CreateVm,
  "vm-ubuntu-desktop": CreateVm,
  "vm-windows": CreateVm,
  pod: CreatePod,
  browser: CreateBrowser,
  controller: CreateController,
  storage: CreateStorage,
} as const satisfies Record<WorkloadType, z.ZodType>;

/** The fields of the create body of `type` but its `id`: the spec fields, and `credentials` where it takes them. */
export function createBodyFields(type: WorkloadType): string[] {
  return Object.keys(CREATE_BODY[type].shape).filter((k) => k !== "id");
}

export type CreateBody = CreateVm | CreatePod | CreateBrowser | CreateController | CreateStorage;

/** `202` answer to a create. */
export const CreateResponse = z.looseObject({ tenant: z.string(), status: z.string() });
export type CreateResponse = z.infer<typeof CreateResponse>;

/** `200` answer to a restart; the spec names no fields, so all are optional. */
export const RestartResponse = z.looseObject({
  tenant: z.string().optional(),
  id: z.string().optional(),
  status: z.string().optional(),
});
export type RestartResponse = z.infer<typeof RestartResponse>;

// ---- Status ----

export const PHASES = ["Pending", "Provisioning", "Running", "Restarting", "Failed", "Deleting"] as const;
export type Phase = (typeof PHASES)[number];

/**
 * The `/status` record. The spec guarantees only `adminUrl`/`adminReady`; everything else is the
 * contract's, and `generation`, `observedGeneration`, `restartCount` and `endpoint` are our
 * extensions: optional here so a hosted service without them still parses. `phase` stays a
 * plain string so a phase we do not know yet is kept rather than rejected.
 */
export const WorkloadStatus = z.looseObject({
  id: z.string().optional(),
  type: z.string().optional(),
  phase: z.string(),
  message: z.string().optional(),
  updatedAt: z.string().optional(),
  generation: z.number().int().optional(),
  observedGeneration: z.number().int().optional(),
  restartCount: z.number().int().optional(),
  endpoint: z.string().optional(),
  adminUrl: z.string().optional(),
  adminReady: z.boolean().optional(),
});
export type WorkloadStatus = z.infer<typeof WorkloadStatus>;

/** `GET /spec`: the workspace's desired state, credentials never present. */
export const TenantSpec = z.looseObject({
  name: z.string(),
  generation: z.number().int().optional(),
  workloads: z.array(z.looseObject({ id: z.string(), type: z.string(), spec: z.record(z.string(), z.unknown()) })),
});
export type TenantSpec = z.infer<typeof TenantSpec>;
