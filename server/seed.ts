import { mkdirSync, readFileSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { formatMemoryMi, parseMemoryMi } from "../sdk/schemas";
import { fleetProblem, type FleetConfig } from "./fleet";
import type { TemplateRecord, WorkloadRecord } from "./state/types";

/**
 * A workspace as a snapshot gives it, to start a service from (`wws-local --seed FILE`, or a
 * rehearsal's copy): each workload with its id, type, spec and phase, each template with its id.
 * Ids are kept, so that a stack's recorded ids name the same workloads in the copy.
 */
export interface SeedWorkspace {
  workloads: Array<{ id: string; type: WorkloadRecord["type"]; spec: Record<string, unknown>; phase?: string }>;
  templates: Array<Omit<TemplateRecord, "createdAt"> & { createdAt?: string }>;
}

/**
 * The seed file: workspaces by name, and what other tenants hold on each host (`held`), so that a
 * copy's free capacity is the real fleet's free capacity now. Credentials are never part of it.
 */
export interface SeedSnapshot {
  version: 1;
  workspaces: Record<string, SeedWorkspace>;
  held?: Array<{ host: string; cpus: number; memory: string }>;
}

/** The workspace that holds `held`: no key reaches it, so nothing but capacity sees it. */
const HELD_WORKSPACE = "held-by-others";

/** Phases a seeded workload may start in; any other starts Pending (the reconciler drives it on). */
const SEEDED_PHASES = new Set(["Pending", "Provisioning", "Running", "Restarting", "Failed"]);

/** A message naming what is wrong with `seed`, or undefined when it is valid. */
export function seedProblem(seed: unknown): string | undefined {
  const s = seed as SeedSnapshot;
  if (typeof s !== "object" || s === null || s.version !== 1) return "must be {version: 1, workspaces: {...}}";
  if (typeof s.workspaces !== "object" || s.workspaces === null) return "workspaces: must be an object";
  for (const [name, ws] of Object.entries(s.workspaces)) {
    if (!Array.isArray(ws.workloads) || !Array.isArray(ws.templates))
      return `workspaces.${name}: needs workloads and templates arrays`;
    const bad = ws.workloads.find((w) => typeof w.id !== "string" || typeof w.type !== "string");
    if (bad) return `workspaces.${name}.workloads: each needs an id and a type`;
  }
  for (const h of s.held ?? [])
    if (!Number.isInteger(h.cpus) || parseMemoryMi(String(h.memory)) === undefined)
      return `held: each needs {host, cpus: integer, memory: "<N>Mi"}`;
  return undefined;
}

/** Reads and checks a JSON file of the local service's command line (`--seed`, `--fleet`). */
export function readJsonOption<T>(flag: string, file: string, problem: (v: unknown) => string | undefined): T {
  let value: unknown;
  try {
    value = JSON.parse(readFileSync(file, "utf8"));
  } catch (err) {
    throw new Error(`${flag} ${file}: ${err instanceof Error ? err.message : String(err)}`);
  }
  const issue = problem(value);
  if (issue) throw new Error(`${flag} ${file}: ${issue}`);
  return value as T;
}

export const fleetFileProblem = (v: unknown): string | undefined => fleetProblem(v as FleetConfig);

function workloadRecord(w: SeedWorkspace["workloads"][number], now: string): WorkloadRecord {
  const phase = (SEEDED_PHASES.has(w.phase ?? "") ? w.phase : "Pending") as WorkloadRecord["phase"];
  // Running and reconciled: the copy's workload is as ready as the real one was.
  return {
    id: w.id,
    type: w.type,
    spec: w.spec,
    phase,
    updatedAt: now,
    generation: 1,
    observedGeneration: phase === "Running" ? 1 : 0,
    restartCount: 0,
  };
}

/**
 * Writes `seed` as a data dir the service loads at start (`--data-dir`): the service's own
 * persistence format, so that seeding adds no second way into its state.
 */
export function writeSeedDataDir(dir: string, seed: SeedSnapshot): void {
  const now = new Date().toISOString();
  const workspaces: Record<string, unknown> = {};
  for (const [name, ws] of Object.entries(seed.workspaces)) {
    workspaces[name] = {
      generation: 1,
      lastEventId: "0",
      workloads: ws.workloads.map((w) => workloadRecord(w, now)),
      templates: ws.templates.map((t) => ({ ...t, createdAt: t.createdAt ?? now })),
    };
  }
  if (seed.held && seed.held.length > 0) {
    const held: WorkloadRecord[] = seed.held.map((h, i) => ({
      ...workloadRecord(
        {
          id: `held-${i + 1}`,
          type: "vm-ubuntu",
          spec: { cpus: h.cpus, memory: formatMemoryMi(parseMemoryMi(h.memory)!) },
          phase: "Running",
        },
        now,
      ),
      host: h.host,
    }));
    workspaces[HELD_WORKSPACE] = { generation: 1, lastEventId: "0", workloads: held, templates: [] };
  }
  mkdirSync(dir, { recursive: true, mode: 0o700 });
  writeFileSync(join(dir, "state.json"), JSON.stringify({ version: 1, workspaces }), { mode: 0o644 });
}
