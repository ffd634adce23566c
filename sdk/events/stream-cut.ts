import { ConnectionError } from "../errors";

/**
 * The event stream had been open (the service answered 200) when its connection was cut: a
 * proxy's read timeout, a reset. Not a failure to reach the service: it reconnects from the last
 * event it saw. `openMs`: how long it had been open.
 */
export class StreamCutError extends ConnectionError {
  override readonly code = "stream_cut";
  constructor(
    operation: string,
    readonly openMs: number,
    /** The service's heartbeat interval, which a proxy's read timeout must exceed. */
    heartbeatMs: number,
    cause: unknown,
  ) {
    super(operation, false, cause);
    const why = cause instanceof Error ? cause.message : String(cause);
    this.message =
      `${operation} was cut after ${(openMs / 1000).toFixed(1)} s open (${why}); it reconnects and resumes after the last event. ` +
      `Cut again and again after the same time, it is a proxy's read timeout shorter than the service's heartbeat interval ` +
      `(${Math.round(heartbeatMs / 1000)} s): raise that timeout above it (nginx: proxy_read_timeout).`;
  }
}
