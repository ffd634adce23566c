import * as net from "node:net";

type Stream = { on(event: "data", listener: (chunk: Buffer) => void): void };
type StreamListener = (stream: Stream, headers: Record<string, unknown>) => void;

/**
 * Calls `listener` with each RPC stream the engine opens on this process's gRPC servers, beside
 * gRPC's own handler. The dynamic provider host of `@pulumi/pulumi` hands a provider neither the
 * engine's cancellation nor a deleted resource's URN; its gRPC server is an HTTP/2 server of this
 * process, whose `stream` event shows each RPC's path and lets a second reader see its bytes.
 * Only streams opened after the call are seen. Returns false when no such server is found (not in
 * the host).
 */
export function watchEngineRpcs(listener: (path: string, stream: Stream) => void): boolean {
  const handles = (process as unknown as { _getActiveHandles?: () => unknown[] })._getActiveHandles?.() ?? [];
  const servers = handles.filter(
    (h): h is net.Server & { on(event: "stream", l: StreamListener): void } =>
      h instanceof net.Server && h.listenerCount("stream") > 0,
  );
  for (const server of servers) server.on("stream", (stream, headers) => listener(String(headers[":path"]), stream));
  return servers.length > 0;
}

/**
 * The one message of a unary gRPC request, once its bytes have all come: `onMessage` gets the
 * protobuf bytes (a compressed message is skipped: the engine sends none).
 */
export function readUnaryMessage(stream: Stream, onMessage: (bytes: Uint8Array) => void): void {
  let buffered = Buffer.alloc(0);
  let done = false;
  stream.on("data", (chunk) => {
    if (done) return;
    buffered = Buffer.concat([buffered, chunk]);
    if (buffered.length < 5) return;
    const length = buffered.readUInt32BE(1);
    if (buffered.length < 5 + length) return;
    done = true;
    if (buffered[0] === 0) onMessage(buffered.subarray(5, 5 + length));
  });
}
