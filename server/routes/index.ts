import type { ServiceContext } from "../context";
import { Router } from "../http/router";
import { controlRoutes } from "./control";
import { metaRoutes } from "./meta";
import { streamRoutes } from "./stream";
import { templateRoutes } from "./templates";
import { workloadRoutes } from "./workloads";
import { workspaceRoutes } from "./workspace";

export function buildRouter(ctx: ServiceContext): Router {
  const router = new Router();
  metaRoutes(ctx, router);
  workloadRoutes(ctx, router);
  templateRoutes(ctx, router);
  workspaceRoutes(ctx, router);
  streamRoutes(ctx, router);
  if (ctx.options.controlToken !== undefined) controlRoutes(ctx, router);
  return router;
}
