import type { RunningService } from "../../server";
import { KEYS } from "./helpers";

export interface Frame {
  id?: string;
  event?: string;
  data?: string;
  comment?: string;
  retry?: string;
}

/** Complete SSE blocks of `text` (each ends with a blank line) and the unparsed rest. */
export function parseFrames(text: string): { frames: Frame[]; rest: string } {
  const frames: Frame[] = [];
  const blocks = text.split("\n\n");
  const rest = blocks.pop() ?? "";
  for (const block of blocks) {
    const f: Frame = {};
    for (const line of block.split("\n")) {
      if (line.startsWith(":")) {
        f.comment = line.slice(1);
        continue;
      }
      const i = line.indexOf(":");
      const field = (i === -1 ? line : line.slice(0, i)) as keyof Frame;
      const value = i === -1 ? "" : line.slice(i + 1).replace(/^ /, "");
      f[field] = field === "data" && f.data !== undefined ? `${f.data}\n${value}` : value;
    }
    frames.push(f);
  }
  return { frames, rest };
}

/** An open event stream read from the raw body: every frame, comments and `retry:` included. */
export class StreamReader {
  raw = "";
  frames: Frame[] = [];
  ended = false;
  private rest = "";
  private readonly waiters = new Set<() => void>();

  constructor(
    readonly response: Response,
    private readonly controller: AbortController,
  ) {
    void this.pump();
  }

  get events(): Frame[] {
    return this.frames.filter((f) => f.event !== undefined);
  }

  /** Waits until `check(frames)` holds. */
  async until(check: (frames: Frame[]) => boolean, timeoutMs = 5000): Promise<Frame[]> {
    const deadline = Date.now() + timeoutMs;
    while (!check(this.frames)) {
      if (this.ended) throw new Error(`stream ended before the condition held; frames: ${JSON.stringify(this.frames)}`);
      const left = deadline - Date.now();
      if (left <= 0) throw new Error(`condition not met in time; frames: ${JSON.stringify(this.frames.slice(-10))}`);
      await new Promise<void>((resolve) => {
        const t = setTimeout(done, left);
        function done(): void {
          clearTimeout(t);
          resolve();
        }
        this.waiters.add(done);
      });
    }
    return this.frames;
  }

  async untilEnded(timeoutMs = 5000): Promise<void> {
    const deadline = Date.now() + timeoutMs;
    while (!this.ended) {
      if (Date.now() > deadline) throw new Error("stream did not end in time");
      await new Promise<void>((resolve) => {
        const t = setTimeout(resolve, 20);
        this.waiters.add(() => {
          clearTimeout(t);
          resolve();
        });
      });
    }
  }

  close(): void {
    this.controller.abort();
  }

  private notify(): void {
    const ws = [...this.waiters];
    this.waiters.clear();
    for (const w of ws) w();
  }

  private async pump(): Promise<void> {
    const decoder = new TextDecoder();
    try {
      for await (const chunk of this.response.body as unknown as AsyncIterable<Uint8Array>) {
        const text = decoder.decode(chunk, { stream: true });
        this.raw += text;
        const parsed = parseFrames(this.rest + text);
        this.rest = parsed.rest;
        this.frames.push(...parsed.frames);
        this.notify();
      }
    } catch {
      // aborted or reset: the stream is over either way
    }
    this.ended = true;
    this.notify();
  }
}

export interface OpenOptions {
  workspace?: string;
  key?: string;
  lastEventId?: string;
  query?: string;
}

export async function openStream(svc: RunningService, o: OpenOptions = {}): Promise<StreamReader> {
  const controller = new AbortController();
  const headers: Record<string, string> = { "x-api-key": o.key ?? KEYS.demo };
  if (o.lastEventId !== undefined) headers["last-event-id"] = o.lastEventId;
  const url = `${svc.url}/v1/tenants/${o.workspace ?? "demo"}/events/stream${o.query ?? ""}`;
  const res = await fetch(url, { headers, signal: controller.signal });
  return new StreamReader(res, controller);
}
