import type { ServiceContext } from "../context";
import { sendJson } from "../http/respond";
import type { Router } from "../http/router";
import { tenantSpec } from "../workloads/operations";
import { pulseView, rowView } from "../profile";
import { intQuery, workspaceOf } from "./params";

/** Rows of `GET /activity` without `limit`, and the most it may ask for. */
const ACTIVITY_DEFAULT_LIMIT = 100;
const ACTIVITY_MAX_LIMIT = 1000;

export function workspaceRoutes(ctx: ServiceContext, router: Router): void {
  router.add("GET", "/v1/tenants/:name/spec", "workspace", (rc) => {
    sendJson(rc.res, 200, tenantSpec(workspaceOf(ctx, rc)));
  });

  router.add("GET", "/v1/tenants/:name/pulse", "workspace", (rc) => {
    sendJson(rc.res, 200, pulseView(ctx.options.profile, workspaceOf(ctx, rc).pulse()));
  });

  /**
   * Rows in id order. With `after`: the first `limit` rows after that id (paging forward, the
   * same ids as the stream's). Without: the newest `limit` rows.
   */
  router.add("GET", "/v1/tenants/:name/activity", "workspace", (rc) => {
    const ws = workspaceOf(ctx, rc);
    const after = intQuery(rc, "after", 0, Number.MAX_SAFE_INTEGER);
    const limit = intQuery(rc, "limit", 1, ACTIVITY_MAX_LIMIT) ?? ACTIVITY_DEFAULT_LIMIT;
    const rows =
      after === undefined ? ws.activity.slice(-limit) : ws.activity.filter((r) => Number(r.id) > after).slice(0, limit);
    sendJson(rc.res, 200, { rows: rows.map((r) => rowView(ctx.options.profile, r)) });
  });

  router.add("GET", "/v1/tenants/:name/asks", "workspace", (rc) => {
    workspaceOf(ctx, rc);
    sendJson(rc.res, 200, { asks: [] });
  });

  router.add("GET", "/v1/tenants/:name/secrets", "workspace", (rc) => {
    sendJson(rc.res, 200, { secrets: ctx.store.secrets.list(workspaceOf(ctx, rc).name) });
  });

  router.add("GET", "/v1/fleet/hosts", "any-key", (rc) => {
    sendJson(rc.res, 200, ctx.store.fleet.describe(ctx.store.placedVms()));
  });
}
