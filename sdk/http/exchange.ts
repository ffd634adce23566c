import type { IncomingHttpHeaders } from "node:http";
import type { Dispatcher } from "undici";
import { ConnectionError } from "../errors";
import { CappedBody, type ResponseTooLargeError } from "./response-size";

export interface ExchangeRequest {
  origin: string;
  method: string;
  /** Path and query, already encoded. */
  path: string;
  headers: Record<string, string>;
  body?: string;
  /** For messages: `get status of workload web in workspace demo`. */
  operation: string;
  /** A body larger than this is cut and the exchange fails (`ResponseTooLargeError`). */
  maxResponseBytes: number;
}

export interface Exchange {
  /** The answer, its body read in full; rejects with undici's error, a `ResponseTooLargeError` or a `ConnectionError` for a body cut. */
  answer: Promise<{ status: number; headers: IncomingHttpHeaders; text: string }>;
  /** Whether undici began writing the request on a connection (after the TCP connection, TLS handshake and a proxy's tunnel). */
  written(): boolean;
  /** Ends the request now, or as soon as undici hands it a connection. */
  abandon(reason: Error): void;
}

/**
 * One request through undici's `dispatch`, its body collected by the handler as it comes. Cheaper
 * than `request()`, which wraps every answer in a stream read back through an async iterator, and
 * than composing a dispatcher per request to see when it is written: a refresh reads one status
 * per resource, each in a process that has just started (bench scenario 12).
 *
 * undici aborts a request only once it has a connection: `abandon` before then ends it when one
 * comes (`onRequestStart`), before anything is written.
 */
export function startExchange(dispatcher: Dispatcher, req: ExchangeRequest): Exchange {
  let started = false;
  let abandoned: Error | undefined;
  let controller: Dispatcher.DispatchController | undefined;
  const answer = new Promise<{ status: number; headers: IncomingHttpHeaders; text: string }>((resolve, reject) => {
    let settled = false;
    const settle = (err: unknown, value?: { status: number; headers: IncomingHttpHeaders; text: string }): void => {
      if (settled) return;
      settled = true;
      if (err === undefined) resolve(value!);
      else reject(err);
    };
    let status = 0;
    let headers: IncomingHttpHeaders = {};
    /** From the answer's start. */
    let body: CappedBody | undefined;
    const tooLarge = (c: Dispatcher.DispatchController, err: ResponseTooLargeError): void => {
      settle(err);
      c.abort(err);
    };
    const handler: Dispatcher.DispatchHandler = {
      onRequestStart(c) {
        controller = c;
        if (abandoned) return c.abort(abandoned);
        started = true;
      },
      onResponseStart(c, statusCode, responseHeaders) {
        status = statusCode;
        headers = responseHeaders;
        body = new CappedBody(responseHeaders["content-length"], req.maxResponseBytes, req.operation, status);
        const early = body.announcedTooLarge();
        if (early) tooLarge(c, early);
      },
      onResponseData(c, chunk) {
        const past = body!.add(chunk);
        if (past) tooLarge(c, past);
      },
      onResponseEnd() {
        settle(undefined, { status, headers, text: body!.text() });
      },
      onResponseError(_c, err) {
        // Once the answer began, what failed is its body, cut after `size` bytes.
        settle(
          body === undefined
            ? err
            : new ConnectionError(req.operation, false, err, { status, bytes: body.size, announced: body.announced }),
        );
      },
    };
    try {
      dispatcher.dispatch(
        {
          origin: req.origin,
          method: req.method as Dispatcher.HttpMethod,
          path: req.path,
          headers: req.headers,
          body: req.body,
        },
        handler,
      );
    } catch (err) {
      settle(err);
    }
  });
  return {
    answer,
    written: () => started,
    abandon(reason) {
      abandoned ??= reason;
      controller?.abort(reason);
    },
  };
}
