import {
  CREATE_BODY,
  DAEMON_CREDENTIALS_RULE,
  WORKLOAD_TYPES,
  daemonEnabled,
  WorkloadType,
  isVmType,
  issuesToDetails,
  type Credentials,
} from "../../sdk/schemas";
import { secretsEqual } from "../auth";
import type { ServiceContext } from "../context";
import { conflict, notFound, validationFailed } from "../http/errors";
import { credentialsPath } from "../state/secrets";
import type { Actor, WorkloadRecord } from "../state/types";
import type { WorkspaceState } from "../state/workspace-state";

/** Storage logins default to this user name. */
const STORAGE_DEFAULT_USER = "app";

function target(id: string): { type: string; id: string } {
  return { type: "workload", id };
}

export function parseType(type: string): WorkloadType {
  const parsed = WorkloadType.safeParse(type);
  if (!parsed.success)
    throw validationFailed([{ path: "type", message: `unknown workload type; one of ${WORKLOAD_TYPES.join(", ")}` }]);
  return parsed.data;
}

export function getWorkload(ws: WorkspaceState, id: string): WorkloadRecord {
  const w = ws.workloads.get(id);
  if (!w) throw notFound(`workload ${id}`, "id");
  return w;
}

/**
 * `POST /workloads/{type}`: an upsert keyed by `body.id`. Every check runs before the first
 * change, so a rejected request leaves the state as it was.
 */
export function upsertWorkload(
  ctx: ServiceContext,
  ws: WorkspaceState,
  typeParam: string,
  body: unknown,
  actor: Actor = "api",
): void {
  const type = parseType(typeParam);
  const parsed = CREATE_BODY[type].safeParse(body);
  if (!parsed.success) throw validationFailed(issuesToDetails(parsed.error));
  const { id, credentials, ...spec } = parsed.data as { id: string; credentials?: Credentials } & Record<
    string,
    unknown
  >;
  const existing = ws.workloads.get(id);
  if (existing && existing.type !== type) throw conflict(`workload ${id} exists with type ${existing.type}`, "id");
  if (existing?.phase === "Deleting")
    throw conflict(`workload ${id} is being deleted; create it again once its status is 404`, "id");
  if (isVmType(type) && !existing && credentials === undefined) {
    throw validationFailed([{ path: "credentials", message: "required when the VM is new" }]);
  }
  if (isVmType(type) && daemonEnabled(spec) && !daemonEnabled(existing?.spec) && credentials === undefined)
    throw validationFailed([{ path: "credentials", message: DAEMON_CREDENTIALS_RULE }]);
  const path = credentialsPath(id);
  const stored = ctx.store.secrets.get(ws.name, path);
  let storeSecret = credentials !== undefined;
  if (type === "storage" && credentials !== undefined) {
    const username = credentials.username ?? STORAGE_DEFAULT_USER;
    if (stored && !(secretsEqual(stored.password, credentials.password) && stored.username === username)) {
      throw conflict("storage credentials are set once; they cannot change on update", "credentials.password");
    }
    credentials.username = username;
    storeSecret = stored === undefined;
  }
  const placementIssues = isVmType(type)
    ? ctx.store.fleet.checkPlacement(spec.placement as { region?: string; host?: string })
    : [];
  if (placementIssues.length > 0) throw validationFailed(placementIssues);
  if (isVmType(type) && ctx.options.refuseWithoutRoom && growsOrMoves(existing?.spec, spec)) {
    const placement = spec.placement as { region?: string; host?: string } | undefined;
    const demand = { cpus: spec.cpus as number | undefined, memory: spec.memory as string | undefined };
    const why = ctx.store.fleet.noRoom(placement, demand, ctx.store.placedVms(existing));
    if (why) throw conflict(why, "cpus");
  }

  // Accepted: from here on, change state.
  const w: WorkloadRecord = existing ?? {
    id,
    type,
    spec: {},
    phase: "Pending",
    updatedAt: "",
    generation: 0,
    observedGeneration: 0,
    restartCount: 0,
  };
  const daemonBefore = daemonEnabled(existing?.spec);
  // A new VM is placed; a resized or moved one is placed again, its own room counted free (server/fleet.ts).
  if (isVmType(type) && growsOrMoves(existing?.spec, spec)) {
    const placement = spec.placement as { region?: string; host?: string } | undefined;
    const demand = { cpus: spec.cpus as number | undefined, memory: spec.memory as string | undefined };
    w.host = ctx.store.fleet.place(placement, demand, ctx.store.placedVms(existing), existing?.host);
  }
  w.spec = spec;
  w.generation++;
  w.adminReady = type === "storage" && spec.adminConsole === true ? false : undefined;
  if (!existing) {
    ws.workloads.set(id, w);
    ws.transitions.delete(id);
  }
  ws.generation++;
  const inPlace = changesInPlace(ctx, existing);
  ws.audit(actor, existing ? "workload.updated" : "workload.created", target(id), { type, generation: w.generation });
  if (!inPlace) ws.setPhase(w, "Pending", actor);
  ws.fanout.emit("spec-changed", {});
  if (storeSecret && credentials !== undefined) {
    ctx.store.secrets.set(ws.name, path, {
      username: credentials.username,
      password: credentials.password,
      updatedAt: new Date().toISOString(),
    });
    ws.fanout.emit("secret-changed", { path });
  }
  const key = `daemon:${id}`;
  if (daemonEnabled(spec)) ws.setAgent(key, { busy: true, sleeping: false, sessions: 0, tasks: 0 });
  else if (daemonBefore) ws.setAgent(key, undefined);
  ctx.store.changed(storeSecret);
  continueChange(ctx, ws, w, inPlace);
}

/** Whether an accepted upsert or restart of `w` keeps it Running (transitions `in-place`, see `server/profile.ts`). */
function changesInPlace(ctx: ServiceContext, w: WorkloadRecord | undefined): boolean {
  return ctx.options.transitions === "in-place" && w?.phase === "Running";
}

/** Drives an accepted upsert or restart on, the way the service's `transitions` setting shows it. */
function continueChange(ctx: ServiceContext, ws: WorkspaceState, w: WorkloadRecord, inPlace: boolean): void {
  // In place: still Running; the reconciler observes the new generation after the delay.
  if (inPlace) return ctx.reconciler.kick(ws, w, ctx.options.inPlaceDelayMs);
  if (ctx.options.transitions === "instant") ctx.reconciler.runToRunning(ws, w);
  ctx.reconciler.kick(ws, w);
}

/** `POST /workloads/{id}/restart`. */
export function restartWorkload(ctx: ServiceContext, ws: WorkspaceState, id: string, actor: Actor = "api"): void {
  const w = getWorkload(ws, id);
  if (w.phase === "Deleting") throw conflict(`workload ${id} is being deleted`, "id");
  w.generation++;
  w.restartCount++;
  const inPlace = changesInPlace(ctx, w);
  ws.audit(actor, "workload.restarted", target(id), { generation: w.generation, restartCount: w.restartCount });
  if (!inPlace) ws.setPhase(w, "Restarting", actor);
  if (isVmType(w.type) && daemonEnabled(w.spec))
    ws.setAgent(`daemon:${id}`, { busy: true, sleeping: false, sessions: 0, tasks: 0 });
  ctx.store.changed();
  continueChange(ctx, ws, w, inPlace);
}

/** `DELETE /workloads/{id}`: Deleting now, gone one reconciler step later. Deleting again is a no-op. */
export function deleteWorkload(ctx: ServiceContext, ws: WorkspaceState, id: string, actor: Actor = "api"): void {
  const w = getWorkload(ws, id);
  if (w.phase === "Deleting") return;
  ws.generation++;
  ws.setPhase(w, "Deleting", actor);
  ws.fanout.emit("spec-changed", {});
  ctx.store.changed();
  ctx.reconciler.kick(ws, w);
}

/** Control: sets Failed with `message`, from any phase. */
export function failWorkload(ctx: ServiceContext, ws: WorkspaceState, id: string, message: string): void {
  const w = getWorkload(ws, id);
  ws.setPhase(w, "Failed", "control", message);
  ctx.store.changed();
  ctx.reconciler.kick(ws, w);
}

/** `GET /spec`: the desired state; a workload being deleted is no longer part of it. */
export function tenantSpec(ws: WorkspaceState): {
  name: string;
  generation: number;
  workloads: Array<{ id: string; type: string; spec: Record<string, unknown> }>;
} {
  return {
    name: ws.name,
    generation: ws.generation,
    workloads: [...ws.workloads.values()]
      .filter((w) => w.phase !== "Deleting")
      .map((w) => ({ id: w.id, type: w.type, spec: w.spec })),
  };
}

/** A new VM, or one whose size or placement changes: what is placed (again), and what `refuseWithoutRoom` checks. */
function growsOrMoves(before: Record<string, unknown> | undefined, after: Record<string, unknown>): boolean {
  if (before === undefined) return true;
  return ["cpus", "memory", "placement"].some((k) => JSON.stringify(before[k]) !== JSON.stringify(after[k]));
}
