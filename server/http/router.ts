import type { IncomingMessage, ServerResponse } from "node:http";
import { ErrorReply } from "./errors";

/** Who may call a route: a key of the path's workspace, any valid key, nobody needed, or the control token. */
type RouteAuth = "workspace" | "any-key" | "public" | "control";

export interface RequestContext {
  req: IncomingMessage;
  res: ServerResponse;
  params: Record<string, string>;
  query: URLSearchParams;
  requestId: string;
  /** The workspace the API key belongs to (routes with auth `workspace` or `any-key`). */
  keyWorkspace?: string;
  /** Who the activity rows of this request name: the key's label, else "api". */
  actor?: string;
}

export type Handler = (ctx: RequestContext) => void | Promise<void>;

export interface Route {
  method: string;
  /** `/v1/tenants/:name/workloads/:id/status`: also the route's name in logs and counters. */
  pattern: string;
  auth: RouteAuth;
  handler: Handler;
}

interface Compiled extends Route {
  segments: Array<{ literal: string } | { param: string }>;
}

type Match = { route: Route; params: Record<string, string> } | { route: undefined; allow: string[] };

function decodeSegment(raw: string): string {
  try {
    return decodeURIComponent(raw);
  } catch {
    throw new ErrorReply("validation_failed", "malformed percent-encoding in the path", [
      { path: "path", message: "malformed percent-encoding" },
    ]);
  }
}

/**
 * A tiny router over raw path segments. Paths are not normalised: `..`, `.` and `%2F` stay single
 * segments, so they can only reach a parameter (where they fail validation) and never another route.
 */
export class Router {
  private readonly routes: Compiled[] = [];

  add(method: string, pattern: string, auth: RouteAuth, handler: Handler): this {
    const segments = pattern
      .split("/")
      .slice(1)
      .map((s) => (s.startsWith(":") ? { param: s.slice(1) } : { literal: s }));
    this.routes.push({ method, pattern, auth, handler, segments });
    return this;
  }

  /** Method and pattern of every route, in registration order. */
  list(): Array<{ method: string; pattern: string; auth: RouteAuth }> {
    return this.routes.map(({ method, pattern, auth }) => ({ method, pattern, auth }));
  }

  match(method: string, path: string): Match {
    const raw = path.split("/").slice(1);
    const decoded = raw.map(decodeSegment);
    const allow: string[] = [];
    for (const route of this.routes) {
      if (route.segments.length !== decoded.length) continue;
      const params: Record<string, string> = {};
      let ok = true;
      for (let i = 0; i < decoded.length && ok; i++) {
        const seg = route.segments[i];
        if ("literal" in seg) ok = seg.literal === decoded[i];
        else params[seg.param] = decoded[i];
      }
      if (!ok) continue;
      if (route.method === method || (method === "HEAD" && route.method === "GET")) return { route, params };
      allow.push(route.method);
    }
    return { route: undefined, allow };
  }
}
