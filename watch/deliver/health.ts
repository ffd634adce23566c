import type { StreamSight } from "../streams";

export interface Health {
  ok: boolean;
  /** One short line: what is watched, or which workspace is not seen and why. */
  text: string;
}

/**
 * `/healthz`: healthy while every stream is open or reconnecting within its bound (a stream not
 * open within the bound makes its workspace blind, `streams.ts`); not before the watch has started.
 */
export function healthOf(started: boolean, streams: StreamSight[]): Health {
  if (!started) return { ok: false, text: "starting: learning the stacks' state" };
  const blind = streams.filter((s) => s.blindness !== undefined);
  if (blind.length > 0)
    return {
      ok: false,
      text: `not watching ${blind.map((s) => `workspace ${s.workspace}: ${s.blindness}`).join("; ")}`,
    };
  const down = streams.filter((s) => s.state !== "open").length;
  const workspaces = new Set(streams.map((s) => s.workspace)).size;
  const reconnecting = down > 0 ? `, ${down} reconnecting within their bound` : "";
  return {
    ok: true,
    text: `ok: ${workspaces} workspace(s) watched, ${streams.length - down} stream(s) open${reconnecting}`,
  };
}
