import type { Readable } from "node:stream";
import { ConnectionError, WwsError } from "../errors";

/**
 * The largest answer read by default. No answer of the contract comes near it: the largest are a
 * workspace's spec and its template list. A spec of 10,000 workloads, each with every field set
 * (about 1 KB as JSON), is about 10 MB; 256 templates at the 64 KB config maximum are 16 MiB. A
 * body past twice that is a misbehaving peer (a proxy's error page on a loop, a wrong URL serving a
 * file), and reading it whole would cost the deployment its memory.
 */
export const DEFAULT_MAX_RESPONSE_BYTES = 32 * 1024 * 1024; // 32 MiB

/** `33,554,432 bytes (32 MiB)` */
function formatBytes(bytes: number): string {
  const mib = bytes / (1024 * 1024);
  const short = mib >= 1 ? ` (${Number.isInteger(mib) ? mib : mib.toFixed(1)} MiB)` : "";
  return `${bytes.toLocaleString("en-US")} bytes${short}`;
}

/** What raises the cap, in each place it is set. */
const MAX_RESPONSE_BYTES_SETTING =
  "pulumi config set wws:maxResponseBytes <bytes> (or WWS_MAX_RESPONSE_BYTES; the SDK client's maxResponseBytes option)";

/**
 * An answer's body was larger than `maxResponseBytes`: it was cut, not read. Final: the same
 * request gets the same body. A workspace's spec grows with its workloads (other key holders' too),
 * so the message leads with the sizes and the setting, and only then doubts the base URL.
 */
export class ResponseTooLargeError extends WwsError {
  constructor(
    operation: string,
    readonly status: number,
    /** The body's size as far as it was read, or as its Content-Length announced it. */
    readonly bytes: number,
    readonly limitBytes: number,
    /** Whether `bytes` is the announced size (else the body is larger than `bytes`). */
    readonly announced: boolean,
  ) {
    const size = `${announced ? "" : "more than "}${formatBytes(bytes)}`;
    super(
      "response_too_large",
      `${operation} failed: the answer (HTTP ${status}) is ${size}, over the answer-size cap of ${formatBytes(limitBytes)}, and was not read. ` +
        `To read it, raise the cap above its size: ${MAX_RESPONSE_BYTES_SETTING}. ` +
        `A workspace's spec grows with its workloads; an answer this large from anything else means the base URL is not the service's.`,
    );
  }
}

/**
 * An answer's body kept up to `limitBytes`: the one cap rule of every read, the size its
 * Content-Length announces and the size read so far each checked against it.
 */
export class CappedBody {
  private readonly chunks: Buffer[] = [];
  /** Bytes read so far. */
  size = 0;
  /** The size Content-Length announced, when it gave a number. */
  readonly announced: number | undefined;

  constructor(
    contentLength: string | string[] | undefined,
    private readonly limitBytes: number,
    private readonly operation: string,
    private readonly status: number,
  ) {
    const n = Number(Array.isArray(contentLength) ? contentLength[0] : contentLength);
    this.announced = Number.isFinite(n) ? n : undefined;
  }

  /** The error when the announced size is over the cap: nothing of the body need be read. */
  announcedTooLarge(): ResponseTooLargeError | undefined {
    return this.announced !== undefined && this.announced > this.limitBytes
      ? new ResponseTooLargeError(this.operation, this.status, this.announced, this.limitBytes, true)
      : undefined;
  }

  /** Keeps `chunk`; the error instead once the body passes the cap. */
  add(chunk: Buffer): ResponseTooLargeError | undefined {
    this.size += chunk.length;
    if (this.size > this.limitBytes)
      return new ResponseTooLargeError(this.operation, this.status, this.limitBytes, this.limitBytes, false);
    this.chunks.push(chunk);
    return undefined;
  }

  text(): string {
    return Buffer.concat(this.chunks).toString("utf8");
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
  const capped = new CappedBody(contentLength, limitBytes, operation, status);
  const early = capped.announcedTooLarge();
  if (early) {
    body.destroy();
    throw early;
  }
  try {
    for await (const chunk of body as AsyncIterable<Buffer>) {
      const tooLarge = capped.add(chunk);
      if (tooLarge) {
        body.destroy();
        throw tooLarge;
      }
    }
  } catch (err) {
    if (err instanceof WwsError) throw err;
    // The answer began: what failed is its body, cut after `size` bytes.
    throw new ConnectionError(operation, false, err, { status, bytes: capped.size, announced: capped.announced });
  }
  return capped.text();
}
