import { randomBytes } from "node:crypto";
import type { IncomingMessage, ServerResponse } from "node:http";
import { performance } from "node:perf_hooks";
import { DNS_LABEL, DNS_LABEL_RULE } from "../../sdk/schemas";
import { presentedKey, secretsEqual } from "../auth";
import type { ServiceContext } from "../context";
import { ErrorReply } from "./errors";
import { sendError } from "./respond";
import type { RequestContext, Route, Router } from "./router";

const UNMATCHED = "(unmatched)";

// Request ids must be unique, not secret: a random prefix per process and a counter.
// (randomBytes per request was 6% of the service's busy time in a burst of 500 reads.)
const REQUEST_ID_PREFIX = `req_${randomBytes(4).toString("hex")}`;
let requestCount = 0;

export function newRequestId(): string {
  requestCount = (requestCount + 1) % 0x1_0000_0000;
  return `${REQUEST_ID_PREFIX}${requestCount.toString(16).padStart(8, "0")}`;
}

/** 401 / 400 / 403, in that order: who you are, then what you asked for, then whether you may. */
function authorize(ctx: ServiceContext, route: Route, rc: RequestContext): void {
  if (route.auth === "public") return;
  if (route.auth === "control") {
    const token = rc.req.headers["x-control-token"];
    if (
      typeof token !== "string" ||
      ctx.options.controlToken === undefined ||
      !secretsEqual(token, ctx.options.controlToken)
    ) {
      throw new ErrorReply("unauthorized", "missing or wrong x-control-token");
    }
    return;
  }
  const holder = ctx.keys.holderOf(presentedKey(rc.req.headers));
  const keyWorkspace = holder?.workspace;
  if (keyWorkspace === undefined) {
    throw new ErrorReply(
      "unauthorized",
      "missing or unknown API key (send x-api-key or Authorization: Bearer)",
      undefined,
      {
        "www-authenticate": "Bearer",
      },
    );
  }
  rc.keyWorkspace = keyWorkspace;
  rc.actor = holder?.label ?? "api";
  if (route.auth === "any-key") return;
  const name = rc.params.name;
  if (!DNS_LABEL.test(name))
    throw new ErrorReply("validation_failed", "invalid workspace name", [{ path: "name", message: DNS_LABEL_RULE }]);
  if (name !== keyWorkspace) throw new ErrorReply("forbidden", "the API key belongs to another workspace");
}

/**
 * The request pipeline: request id on every answer, counters and one log line when the answer is
 * done, routing, injected faults (`/v1` only, after the route is known so that counters name it,
 * before anything is handled), auth, the handler, and the contract's error body for every
 * failure. A thrown non-ErrorReply becomes a 500 whose message says nothing about the cause.
 */
export function createRequestHandler(
  ctx: ServiceContext,
  router: Router,
): (req: IncomingMessage, res: ServerResponse) => void {
  const log = ctx.options.log;
  return (req, res) => {
    const started = performance.now();
    const requestId = newRequestId();
    res.setHeader("x-request-id", requestId);
    const method = req.method ?? "GET";
    const url = req.url ?? "/";
    const q = url.indexOf("?");
    const path = q === -1 ? url : url.slice(0, q);
    let routeName = UNMATCHED;
    res.once("close", () => {
      // An aborted answer was never sent; 499 is the conventional "client closed" status.
      const status = res.writableFinished || res.headersSent ? res.statusCode : 499;
      if (!path.startsWith("/_control/")) ctx.counters.request(method, routeName, status);
      if (log) log(`${method} ${routeName} ${status} ${(performance.now() - started).toFixed(1)}ms ${requestId}`);
    });
    void handle().catch((err: unknown) => {
      if (err instanceof ErrorReply) {
        sendError(res, err);
        return;
      }
      // Stack frames only: an error message might quote request data.
      const frames = err instanceof Error && err.stack ? err.stack.split("\n").slice(1, 6).join(" | ") : "";
      if (log) log(`internal error ${requestId}: ${err instanceof Error ? err.name : "unknown"} ${frames}`);
      sendError(res, new ErrorReply("internal", "internal error"));
    });

    async function handle(): Promise<void> {
      const match = router.match(method, path);
      if (match.route) routeName = match.route.pattern;
      if (path.startsWith("/v1/") || path === "/v1") {
        const fault = await ctx.faults.apply(path, Math.random, method);
        if (fault === "drop-answer") res.end = (() => res.destroy()) as unknown as typeof res.end;
        else if (fault) throw fault;
      }
      if (!match.route) {
        if (match.allow.length > 0) {
          throw new ErrorReply("not_found", `no ${method} route for this path`, undefined, {
            allow: match.allow.join(", "),
          });
        }
        throw new ErrorReply("not_found", "no such route");
      }
      const rc: RequestContext = {
        req,
        res,
        params: match.params,
        query: new URLSearchParams(q === -1 ? "" : url.slice(q + 1)),
        requestId,
      };
      authorize(ctx, match.route, rc);
      await match.route.handler(rc);
    }
  };
}
