import type { WwsError } from "../errors";
import type { WorkspaceEvent } from "../schemas";

/**
 * State of a workspace's event stream as its listeners see it:
 * - `down`: not connected (connecting, or waiting to reconnect): events may be missed, so poll;
 * - `open`: connected: events arrive; whatever happened while down was replayed or resynced;
 * - `closed`: stopped for good (refused with 401/403 or another final status, or closed).
 */
export type StreamState = "down" | "open" | "closed";

/** Callbacks of one subscriber; all optional. A callback that throws affects no one else. */
export interface StreamListener {
  /** A typed event, in stream order. `resync` means events were lost: re-read what you track. */
  onEvent?(event: WorkspaceEvent): void;
  /** Called once at subscription with the current state, then on every change. */
  onState?(state: StreamState): void;
  /**
   * A problem of the stream. `StreamAuthError` (and any other final refusal) comes right before
   * state `closed`; others (a failed connect, an undecodable event) are informational: the stream
   * reconnects by itself.
   */
  onError?(error: WwsError): void;
}

export type Unsubscribe = () => void;
