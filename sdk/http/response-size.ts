import type { Readable } from "node:stream";
import { WwsError } from "../errors";

/**
 * The largest answer read by default. No answer of the contract comes near it: the largest are a
 * workspace's spec and its template list. A spec of 10,000 workloads, each with every field set
 * (about 1 KB as JSON), is about 10 MB; 256 templates at the 64 KB config maximum are 16 MiB. A
 * body past twice that is a misbehaving peer (a proxy's error page on a loop, a wrong URL serving a
 * file), and reading it whole would cost the deployment its memory.
 */
export const DEFAULT_MAX_RESPONSE_BYTES = 32 * 1024 * 1024; // 32 MiB

/** An answer's body was larger than `maxResponseBytes`: it was cut, not read. Final: the same request gets the same body. */
export class ResponseTooLargeError extends WwsError {
  constructor(
    operation: string,
    readonly status: number,
    /** The body's size as far as it was read, or as its Content-Length announced it. */
    readonly bytes: number,
    readonly limitBytes: number,
    announced: boolean,
  ) {
    const size = `${announced ? "" : "more than "}${bytes.toLocaleString("en-US")} bytes`;
    super(
      "response_too_large",
      `${operation} failed: the answer (HTTP ${status}) is ${size}, over the limit of ${limitBytes.toLocaleString("en-US")} bytes, and was not read. ` +
        `No answer of the service should be that large: check that the base URL is the service's. ` +
        `The limit is the client's maxResponseBytes (the provider's wws:maxResponseBytes or WWS_MAX_RESPONSE_BYTES).`,
    );
  }
}

/** The body as text, or a `ResponseTooLargeError` as soon as it is known to pass `limitBytes`. */
export async function readBodyText(
  body: Readable,
  contentLength: string | string[] | undefined,
  limitBytes: number,
  operation: string,
  status: number,
): Promise<string> {
  const announced = Number(Array.isArray(contentLength) ? contentLength[0] : contentLength);
  if (Number.isFinite(announced) && announced > limitBytes) {
    body.destroy();
    throw new ResponseTooLargeError(operation, status, announced, limitBytes, true);
  }
  const chunks: Buffer[] = [];
  let size = 0;
  for await (const chunk of body as AsyncIterable<Buffer>) {
    size += chunk.length;
    if (size > limitBytes) {
      body.destroy();
      throw new ResponseTooLargeError(operation, status, limitBytes, limitBytes, false);
    }
    chunks.push(chunk);
  }
  return Buffer.concat(chunks).toString("utf8");
}
