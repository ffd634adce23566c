import type { ServiceContext } from "../context";
import type { SseSink } from "../events";
import type { Router } from "../http/router";
import { workspaceOf } from "./params";

/** Where the client saw last: the header wins, because a browser reconnects to the original URL with its stale `?lastEventId=`. */
function resumeFrom(header: string | string[] | undefined, query: string | null): string | undefined {
  if (typeof header === "string" && header !== "") return header;
  return query !== null && query !== "" ? query : undefined;
}

export function streamRoutes(ctx: ServiceContext, router: Router): void {
  router.add("GET", "/v1/tenants/:name/events/stream", "workspace", (rc) => {
    const ws = workspaceOf(ctx, rc);
    const { req, res } = rc;
    res.writeHead(200, {
      "content-type": "text/event-stream",
      "cache-control": "no-cache",
      "x-accel-buffering": "no",
    });
    if (req.method === "HEAD") {
      res.end();
      return;
    }
    res.socket?.setNoDelay(true);
    const sink: SseSink = {
      write: (chunk) => void res.write(chunk),
      get bufferedBytes() {
        return res.writableLength + (res.socket?.writableLength ?? 0);
      },
      end: () => res.end(),
      destroy: () => res.destroy(),
    };
    ctx.counters.streamOpened(ws.name);
    const unsubscribe = ws.fanout.subscribe(
      sink,
      resumeFrom(req.headers["last-event-id"], rc.query.get("lastEventId")),
    );
    res.once("close", () => {
      unsubscribe();
      ctx.counters.streamClosed(ws.name);
    });
  });
}
