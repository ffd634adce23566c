import type { ServerResponse } from "node:http";
import { fakeServer, type FakeServer, type Recorded } from "../fake-server";

export interface SseConnection {
  index: number;
  request: Recorded;
  res: ServerResponse;
  write(text: string): void;
}

/** A fake event-stream endpoint; `onConnect` decides what each connection gets. */
export async function sseServer(onConnect: (c: SseConnection) => void): Promise<FakeServer> {
  return fakeServer((_req, res, request, index) => {
    onConnect({ index, request, res, write: (text) => void res.write(text) });
  });
}

export function openStream(res: ServerResponse, first = "retry: 1000\n\n"): void {
  res.writeHead(200, { "content-type": "text/event-stream", "cache-control": "no-cache" });
  res.write(first);
}

export const frame = (id: number, event: string, data: unknown): string =>
  `id: ${id}\nevent: ${event}\ndata: ${JSON.stringify(data)}\n\n`;
