import type { IncomingMessage } from "node:http";
import { ErrorReply } from "./errors";

/** Request bodies above this are refused with 413 before they are read to the end. */
const MAX_BODY_BYTES = 1024 * 1024; // 1 MiB

function isJsonContentType(header: string | undefined): boolean {
  if (header === undefined) return false;
  const type = header.split(";", 1)[0].trim().toLowerCase();
  return type === "application/json" || (type.startsWith("application/") && type.endsWith("+json"));
}

function tooLarge(): ErrorReply {
  // The connection is closed after the answer: the rest of the body is never read.
  return new ErrorReply("payload_too_large", `request body exceeds ${MAX_BODY_BYTES} bytes`, undefined, {
    connection: "close",
  });
}

/**
 * Reads and parses a JSON body. Order of checks: content type (415), declared length (413 without
 * reading), streamed length (413 as soon as the limit is passed), then JSON syntax (400).
 */
export async function readJson(req: IncomingMessage): Promise<unknown> {
  if (!isJsonContentType(req.headers["content-type"])) {
    throw new ErrorReply("unsupported_media_type", "request body must be application/json", [
      { path: "content-type", message: "expected application/json" },
    ]);
  }
  const declared = req.headers["content-length"];
  if (declared !== undefined && Number(declared) > MAX_BODY_BYTES) throw tooLarge();
  const chunks: Buffer[] = [];
  let size = 0;
  await new Promise<void>((resolve, reject) => {
    const onData = (chunk: Buffer): void => {
      size += chunk.length;
      if (size > MAX_BODY_BYTES) {
        cleanup();
        req.pause();
        reject(tooLarge());
        return;
      }
      chunks.push(chunk);
    };
    const onEnd = (): void => {
      cleanup();
      resolve();
    };
    const onError = (err: Error): void => {
      cleanup();
      reject(err);
    };
    const cleanup = (): void => {
      req.off("data", onData);
      req.off("end", onEnd);
      req.off("error", onError);
    };
    req.on("data", onData);
    req.on("end", onEnd);
    req.on("error", onError);
  });
  const text = Buffer.concat(chunks).toString("utf8");
  if (text.trim() === "") {
    throw new ErrorReply("validation_failed", "request body must be a JSON object", [
      { path: "", message: "empty body" },
    ]);
  }
  try {
    return JSON.parse(text) as unknown;
  } catch {
    throw new ErrorReply("validation_failed", "request body is not valid JSON", [
      { path: "", message: "malformed JSON" },
    ]);
  }
}
