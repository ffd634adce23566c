import { WorkspaceClient, waitForWorkload, type StreamListener } from "../../sdk";
import { fakeServer, freePort, json, type FakeServer } from "./fake-server";
import { expectNoSecret } from "./secrets";

const KEY = "sk-live-SECRET-key-42";
const PASSWORD = "Pa55-word-SECRET";

describe("credential redaction", () => {
  let server: FakeServer;
  let client: WorkspaceClient;

  beforeAll(async () => {
    // A hostile service: echoes the request's headers and body in its error.
    server = await fakeServer((req, res, rec) => {
      const echo = `headers ${JSON.stringify(rec.headers)} body ${rec.body}`;
      const status = Number(/status=(\d+)/.exec(rec.url)?.[1] ?? (req.url?.includes("/events/stream") ? 401 : 409));
      json(res, status, {
        error: {
          code: "conflict",
          message: echo,
          details: [{ path: "credentials.password", message: echo, value: PASSWORD }],
        },
      });
    });
    client = new WorkspaceClient({
      baseUrl: server.url,
      workspace: "demo",
      apiKey: KEY,
      retry: { maxAttempts: 2, initialDelayMs: 1, maxDelayMs: 1 },
    });
  });

  afterAll(async () => {
    await client.close();
    await server.close();
  });

  it("should keep the key and request credentials out of every HTTP error", async () => {
    const errors = await Promise.all([
      client
        .upsertWorkload("storage", { id: "db", engine: "postgres", credentials: { password: PASSWORD } })
        .catch((e: unknown) => e),
      client
        .upsertWorkload("vm-ubuntu", { id: "vm", credentials: { username: "root", password: PASSWORD } })
        .catch((e: unknown) => e),
      client
        .createTemplate({ name: "t", kind: "pod", config: { pod: {}, password: PASSWORD } })
        .catch((e: unknown) => e),
      client.getStatus("web").catch((e: unknown) => e),
      client.listActivity({}).catch((e: unknown) => e),
    ]);
    for (const err of errors) {
      expectNoSecret(err, [KEY, PASSWORD]);
      expect((err as Error).message).toContain("[redacted]");
    }
  });

  it("should hide the password but not the user name, nor a text that contains it", async () => {
    const err = await client
      .upsertWorkload("vm-ubuntu", { id: "build-vm-2", credentials: { username: "ubuntu", password: PASSWORD } })
      .catch((e: unknown) => e as Error);
    expectNoSecret(err, [KEY, PASSWORD]);
    expect(err.message).toContain("upsert vm-ubuntu build-vm-2");
    expect(err.message).toContain('"username":"ubuntu"');
  });

  it("should keep the key out of connection errors and timeouts", async () => {
    const port = await freePort();
    const refused = new WorkspaceClient({
      baseUrl: `http://127.0.0.1:${port}`,
      workspace: "demo",
      apiKey: KEY,
      retry: { maxAttempts: 1 },
    });
    try {
      expectNoSecret(await refused.getSpec().catch((e: unknown) => e), [KEY]);
      const silent = await fakeServer(() => undefined);
      const slow = new WorkspaceClient({
        baseUrl: silent.url,
        workspace: "demo",
        apiKey: KEY,
        timeoutMs: 30,
        retry: { maxAttempts: 1 },
      });
      expectNoSecret(
        await slow
          .upsertWorkload("storage", { id: "db", engine: "postgres", credentials: { password: PASSWORD } })
          .catch((e: unknown) => e),
        [KEY, PASSWORD],
      );
      await slow.close();
      await silent.close();
    } finally {
      await refused.close();
    }
  });

  it("should keep the key out of the stream's auth error", async () => {
    let unsubscribe = (): void => undefined;
    const error = await new Promise<unknown>((resolve) => {
      const listener: StreamListener = { onError: (e) => resolve(e) };
      unsubscribe = client.subscribe(listener);
    });
    unsubscribe();
    expect((error as Error).name).toBe("StreamAuthError");
    expectNoSecret(error, [KEY]);
  });

  it("should keep the key out of a waiter's errors", async () => {
    const err = await waitForWorkload(client, "web", { until: "ready", timeoutMs: 2000, mode: "poll" }).catch(
      (e: unknown) => e,
    );
    expectNoSecret(err, [KEY]);
  });

  it("should not show the key when the client itself is inspected", () => {
    expectNoSecret(Object.assign(new Error("client"), { client }), [KEY]);
  });
});
