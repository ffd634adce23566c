import type { Phase, WorkloadType } from "../../sdk/schemas";

/** A workload as the service keeps it. Credentials never live here: see `SecretStore`. */
export interface WorkloadRecord {
  id: string;
  type: WorkloadType;
  /** The accepted body without `id` and `credentials`: what `GET /spec` shows. */
  spec: Record<string, unknown>;
  phase: Phase;
  message?: string;
  updatedAt: string;
  generation: number;
  observedGeneration: number;
  restartCount: number;
  /** Storage with `adminConsole` only. */
  adminReady?: boolean;
  /** VMs only: the fleet host it was placed on. */
  host?: string;
}

export interface TemplateRecord {
  id: string;
  name: string;
  description?: string;
  kind: WorkloadType;
  config: Record<string, unknown>;
  createdAt: string;
}

export interface SecretRecord {
  username?: string;
  password: string;
  updatedAt: string;
}

export interface AgentRecord {
  busy: boolean;
  sleeping: boolean;
  sessions: number;
  tasks: number;
}

export interface ActivityRecord {
  id: string;
  at: string;
  actor: string;
  action: string;
  target: { type: string; id: string };
  detail: Record<string, unknown>;
}

/** A phase change, for `GET /_control/.../transitions`; `at` is epoch ms with sub-ms precision. */
export interface PhaseTransition {
  phase: Phase | "Gone";
  generation: number;
  at: number;
}

/** Who caused an audit row. */
/** Who caused an audit row: "api" (an unlabelled key), the label of the key, "reconciler" or "control". */
export type Actor = string;
