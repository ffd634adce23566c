/**
 * What a failed read says it was: a request that never left this machine (a TLS handshake that
 * never completes), one that was sent and got no answer (a plain stall), an answer cut mid-body,
 * and an answer over the size cap. Real sockets on 127.0.0.1, each peer misbehaving in one way.
 */
import { createServer as createNetServer, type Server, type Socket } from "node:net";
import type { AddressInfo } from "node:net";
import { ConnectionError, RequestTimeoutError, ResponseTooLargeError, WorkspaceClient } from "../../sdk";
import { provablyNotProcessed } from "../../sdk/retry/rules";

const KEY = "true-failures-Key-5e1c0a";

/** A TCP server on 127.0.0.1 whose every connection `onConnection` plays; its sockets are destroyed on close. */
async function rawServer(onConnection: (socket: Socket) => void): Promise<{ port: number; close(): void }> {
  const sockets = new Set<Socket>();
  const server: Server = createNetServer((socket) => {
    sockets.add(socket);
    socket.on("error", () => undefined);
    onConnection(socket);
  });
  await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
  return {
    port: (server.address() as AddressInfo).port,
    close: () => {
      for (const s of sockets) s.destroy();
      server.close();
    },
  };
}

const clients: WorkspaceClient[] = [];
afterAll(async () => Promise.all(clients.map((c) => c.close())));

/** The error one attempt of `GET /spec` at `baseUrl` ends with. */
async function specFailure(baseUrl: string, timeoutMs = 400, maxResponseBytes?: number): Promise<unknown> {
  const client = new WorkspaceClient({
    baseUrl,
    workspace: "demo",
    apiKey: KEY,
    timeoutMs,
    retry: { maxAttempts: 1 },
    ...(maxResponseBytes ? { maxResponseBytes } : {}),
  });
  clients.push(client);
  return client.getSpec().then(
    () => new Error("expected a failure"),
    (e: unknown) => e,
  );
}

describe("a request that never left this machine", () => {
  it("should say nothing was sent when the TLS handshake never completes, and count as not processed", async () => {
    const seen: Buffer[] = [];
    const peer = await rawServer((s) => s.on("data", (d: Buffer) => seen.push(d))); // takes the ClientHello, answers nothing
    try {
      const err = await specFailure(`https://127.0.0.1:${peer.port}`);
      expect(err).toBeInstanceOf(ConnectionError);
      expect((err as ConnectionError).beforeSend).toBe(true);
      expect((err as Error).message).toMatch(
        /could not reach the service \(timed out after 400 ms before the request was sent: the connection, its TLS handshake or a proxy's tunnel did not complete\)/,
      );
      expect(provablyNotProcessed(err)).toBe(true);
      // What reached the peer is a TLS ClientHello (record type 22), never the request or its key.
      expect(seen.length).toBeGreaterThan(0);
      expect(seen[0][0]).toBe(22);
      expect(Buffer.concat(seen).toString("latin1")).not.toContain(KEY);
    } finally {
      peer.close();
    }
  });

  it("should still say a request was sent when a plain HTTP peer takes it and never answers", async () => {
    const peer = await rawServer((s) => s.on("data", () => undefined));
    try {
      const err = await specFailure(`http://127.0.0.1:${peer.port}`);
      expect(err).toBeInstanceOf(RequestTimeoutError);
      expect(provablyNotProcessed(err)).toBe(false);
    } finally {
      peer.close();
    }
  });
});

describe("an answer cut mid-body", () => {
  it("should say the answer was cut after 20 bytes of those announced, not that it failed before an answer", async () => {
    const body = '{"name":"demo","workloads":[]}'.padEnd(100, " ");
    const peer = await rawServer((s) =>
      s.once("data", () => {
        s.write(`HTTP/1.1 200 OK\r\ncontent-type: application/json\r\ncontent-length: ${body.length}\r\n\r\n`);
        s.write(body.slice(0, 20), () => s.destroy());
      }),
    );
    try {
      const err = await specFailure(`http://127.0.0.1:${peer.port}`, 5000);
      expect(err).toBeInstanceOf(ConnectionError);
      expect((err as ConnectionError).cut).toEqual({ status: 200, bytes: 20, announced: 100 });
      expect((err as Error).message).toMatch(
        /the answer \(HTTP 200\) was cut mid-body, after 20 bytes of the 100 announced \(.+\)\. Check the network between here and the service/,
      );
      expect((err as Error).message).not.toContain("before an answer");
    } finally {
      peer.close();
    }
  });
});

describe("an answer over the size cap", () => {
  it("should name its size, the cap and the setting that raises it", async () => {
    const size = 35 * 1000 * 1000; // 35 MB, announced; never sent
    const peer = await rawServer((s) =>
      s.once("data", () =>
        s.write(`HTTP/1.1 200 OK\r\ncontent-type: application/json\r\ncontent-length: ${size}\r\n\r\n{"name":"demo",`),
      ),
    );
    try {
      const err = await specFailure(`http://127.0.0.1:${peer.port}`, 5000);
      expect(err).toBeInstanceOf(ResponseTooLargeError);
      expect((err as Error).message).toContain(
        "the answer (HTTP 200) is 35,000,000 bytes (33.4 MiB), over the answer-size cap of 33,554,432 bytes (32 MiB), and was not read. " +
          "To read it, raise the cap above its size: pulumi config set wws:maxResponseBytes <bytes> (or WWS_MAX_RESPONSE_BYTES; the SDK client's maxResponseBytes option).",
      );
    } finally {
      peer.close();
    }
  });
});
