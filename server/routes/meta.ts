import type { ServiceContext } from "../context";
import { sendJson } from "../http/respond";
import type { Router } from "../http/router";
import { buildOpenApi } from "../openapi";

export function metaRoutes(_ctx: ServiceContext, router: Router): void {
  router.add("GET", "/healthz", "public", (rc) => {
    sendJson(rc.res, 200, { ok: true });
  });

  // Public like /healthz: it describes the interface and holds no workspace data.
  let document: unknown;
  router.add("GET", "/v1/openapi.json", "public", (rc) => {
    document ??= buildOpenApi();
    sendJson(rc.res, 200, document);
  });
}
