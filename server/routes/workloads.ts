import type { ServiceContext } from "../context";
import { readJson } from "../http/body";
import { sendJson } from "../http/respond";
import type { Router } from "../http/router";
import { deleteWorkload, getWorkload, parseType, restartWorkload, upsertWorkload } from "../workloads/operations";
import { statusRecord } from "../workloads/status";
import { restartView, statusView } from "../profile";
import { workloadIdParam, workspaceOf } from "./params";

export function workloadRoutes(ctx: ServiceContext, router: Router): void {
  router.add("POST", "/v1/tenants/:name/workloads/:type", "workspace", async (rc) => {
    const ws = workspaceOf(ctx, rc);
    // The type is checked before the body is read: a wrong type needs no body to be refused.
    parseType(rc.params.type);
    upsertWorkload(ctx, ws, rc.params.type, await readJson(rc.req), rc.actor);
    sendJson(rc.res, 202, { tenant: ws.name, status: "accepted" });
  });

  router.add("GET", "/v1/tenants/:name/workloads/:id/status", "workspace", (rc) => {
    const ws = workspaceOf(ctx, rc);
    const w = getWorkload(ws, workloadIdParam(rc));
    sendJson(rc.res, 200, statusView(ctx.options.profile, statusRecord(w, ws.name, ctx.options.workloadDomain)));
  });

  router.add("POST", "/v1/tenants/:name/workloads/:id/restart", "workspace", (rc) => {
    const ws = workspaceOf(ctx, rc);
    const id = workloadIdParam(rc);
    restartWorkload(ctx, ws, id, rc.actor);
    sendJson(rc.res, 200, restartView(ctx.options.profile, { tenant: ws.name, id, status: "restarting" }));
  });

  router.add("DELETE", "/v1/tenants/:name/workloads/:id", "workspace", (rc) => {
    const ws = workspaceOf(ctx, rc);
    const id = workloadIdParam(rc);
    deleteWorkload(ctx, ws, id, rc.actor);
    sendJson(rc.res, 202, { tenant: ws.name, id, status: "deleting" });
  });
}
