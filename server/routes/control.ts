import { z } from "zod";
import { issuesToDetails } from "../../sdk/schemas";
import type { ServiceContext } from "../context";
import { readJson } from "../http/body";
import { ErrorReply, validationFailed } from "../http/errors";
import { FaultConfig } from "../http/faults";
import { sendEmpty, sendJson } from "../http/respond";
import type { RequestContext, Router } from "../http/router";
import { preciseNow } from "../state/workspace-state";
import { failWorkload, getWorkload } from "../workloads/operations";
import { statusRecord } from "../workloads/status";
import { emitSynthetic, SyntheticEvents } from "./synthetic";

const FailBody = z.strictObject({ message: z.string().min(1).max(2000) });
const KeyBody = z.strictObject({ key: z.string().min(1).max(512) });

async function parseBody<T>(rc: RequestContext, schema: z.ZodType<T>): Promise<T> {
  const parsed = schema.safeParse(await readJson(rc.req));
  if (!parsed.success) throw validationFailed(issuesToDetails(parsed.error));
  return parsed.data;
}

function controlWorkspace(
  ctx: ServiceContext,
  name: string,
): NonNullable<ReturnType<ServiceContext["store"]["workspace"]>> {
  const ws = ctx.store.workspace(name);
  if (!ws) throw new ErrorReply("not_found", "workspace not found", [{ path: "ws", message: "not found" }]);
  return ws;
}

/** Test and benchmark hooks; registered only when a control token is configured. */
export function controlRoutes(ctx: ServiceContext, router: Router): void {
  router.add("POST", "/_control/workloads/:ws/:id/fail", "control", async (rc) => {
    const ws = controlWorkspace(ctx, rc.params.ws);
    const { message } = await parseBody(rc, FailBody);
    failWorkload(ctx, ws, rc.params.id, message);
    sendJson(rc.res, 200, { ok: true });
  });

  // The service's own record, whatever the profile shows: what tests check a wait's result against.
  router.add("GET", "/_control/workloads/:ws/:id", "control", (rc) => {
    const ws = controlWorkspace(ctx, rc.params.ws);
    const w = getWorkload(ws, rc.params.id);
    sendJson(rc.res, 200, { ...statusRecord(w, ws.name, ctx.options.workloadDomain), spec: w.spec });
  });

  router.add("GET", "/_control/workloads/:ws/:id/transitions", "control", (rc) => {
    const ws = controlWorkspace(ctx, rc.params.ws);
    sendJson(rc.res, 200, { transitions: ws.transitions.get(rc.params.id) ?? [], now: preciseNow() });
  });

  // A key rotation: the workspace's old key is revoked at once.
  router.add("PUT", "/_control/workspaces/:ws/key", "control", async (rc) => {
    const { key } = await parseBody(rc, KeyBody);
    if (!ctx.keys.replace(rc.params.ws, key))
      throw new ErrorReply("not_found", "workspace not found", [{ path: "ws", message: "not found" }]);
    sendEmpty(rc.res, 204);
  });

  router.add("POST", "/_control/reconciler/pause", "control", (rc) => {
    ctx.reconciler.pause();
    sendJson(rc.res, 200, { paused: true });
  });

  router.add("POST", "/_control/reconciler/resume", "control", (rc) => {
    ctx.reconciler.resume();
    sendJson(rc.res, 200, { paused: false });
  });

  router.add("POST", "/_control/streams/drop", "control", (rc) => {
    let dropped = 0;
    for (const ws of ctx.store.workspaces.values()) {
      dropped += ws.fanout.subscriberCount;
      ws.fanout.dropAll();
    }
    sendJson(rc.res, 200, { dropped });
  });

  router.add("PUT", "/_control/faults", "control", async (rc) => {
    const faults = await parseBody(rc, FaultConfig);
    ctx.faults.set(faults);
    sendJson(rc.res, 200, { faults });
  });

  router.add("DELETE", "/_control/faults", "control", (rc) => {
    ctx.faults.clear();
    sendEmpty(rc.res, 204);
  });

  router.add("GET", "/_control/counters", "control", (rc) => {
    sendJson(rc.res, 200, ctx.counters.snapshot());
  });

  router.add("POST", "/_control/counters/reset", "control", (rc) => {
    ctx.counters.reset();
    sendEmpty(rc.res, 204);
  });

  router.add("POST", "/_control/events/emit", "control", async (rc) => {
    const body = await parseBody(rc, SyntheticEvents);
    const result = await emitSynthetic(controlWorkspace(ctx, body.workspace), body);
    sendJson(rc.res, 200, result);
  });
}
