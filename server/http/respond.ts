import type { ServerResponse } from "node:http";
import { ErrorReply, errorBody } from "./errors";

export function sendJson(
  res: ServerResponse,
  status: number,
  body: unknown,
  headers: Record<string, string> = {},
): void {
  const text = JSON.stringify(body);
  res.writeHead(status, {
    ...headers,
    "content-type": "application/json; charset=utf-8",
    "content-length": Buffer.byteLength(text),
  });
  res.end(text);
}

export function sendEmpty(res: ServerResponse, status: number): void {
  res.writeHead(status);
  res.end();
}

export function sendError(res: ServerResponse, err: ErrorReply): void {
  if (res.headersSent) {
    // Too late for a status: the only honest signal left is a broken connection.
    res.destroy();
    return;
  }
  const text = errorBody(err.code, err.message, err.details);
  res.writeHead(err.status, {
    ...err.headers,
    "content-type": "application/json; charset=utf-8",
    "content-length": Buffer.byteLength(text),
  });
  res.end(text);
}
