import { request } from "node:http";
import { connect } from "node:net";
import type { RunningService } from "../../server";
import { KEYS, call, start, statusOf, waitReady } from "./helpers";

let svc: RunningService;
beforeAll(async () => {
  svc = await start();
});
afterAll(() => svc.close());

/** Bytes exactly as given, without the URL normalisation fetch applies. */
function rawRequest(bytes: Buffer | string): Promise<string> {
  return new Promise((resolve, reject) => {
    const socket = connect(svc.port, "127.0.0.1", () => socket.end(bytes));
    let out = "";
    socket.on("data", (d) => (out += d.toString("latin1")));
    socket.on("end", () => resolve(out));
    socket.on("error", reject);
  });
}

function rawGet(path: string): Promise<string> {
  return rawRequest(`GET ${path} HTTP/1.1\r\nhost: x\r\nx-api-key: ${KEYS.demo}\r\nconnection: close\r\n\r\n`);
}

function statusLine(raw: string): number {
  return Number(raw.split(" ")[1]);
}

function bodyOf(raw: string): { error: { code: string; details?: Array<{ path: string }> } } {
  return JSON.parse(raw.slice(raw.indexOf("\r\n\r\n") + 4));
}

const T = "/v1/tenants/demo";

/** Everything a rejected request could have changed. */
async function observable(): Promise<string> {
  const spec = (await call(svc, "GET", `${T}/spec`)).text;
  const templates = (await call(svc, "GET", `${T}/templates`)).text;
  const secrets = (await call(svc, "GET", `${T}/secrets`)).text;
  const lastEventId = (await call(svc, "GET", `${T}/pulse`)).json.lastEventId;
  return JSON.stringify({ spec, templates, secrets, lastEventId });
}

describe("request validation", () => {
  let before: string;
  beforeAll(async () => {
    await call(svc, "POST", `${T}/workloads/pod`, { body: { id: "existing", image: "x" } });
    await call(svc, "POST", `${T}/workloads/storage`, {
      body: { id: "db", engine: "postgres", credentials: { password: "pw-1" } },
    });
    // Settled first, so that only a refused request could still change anything.
    await waitReady(svc, "existing");
    await waitReady(svc, "db");
    before = await observable();
  });
  afterAll(async () => {
    // Every request above was refused: nothing observable may have changed.
    expect(await observable()).toBe(before);
  });

  it("should answer 400 for malformed JSON", async () => {
    const res = await call(svc, "POST", `${T}/workloads/pod`, {
      rawBody: '{"id": "x",',
      headers: { "content-type": "application/json" },
    });
    expect(res.status).toBe(400);
    expect(res.json.error.code).toBe("validation_failed");
  });

  it("should answer 400 for an empty body and for a JSON value that is not an object", async () => {
    for (const rawBody of ["", "[]", "42", "null"]) {
      const res = await call(svc, "POST", `${T}/templates`, {
        rawBody,
        headers: { "content-type": "application/json" },
      });
      expect(res.status).toBe(400);
    }
  });

  it("should answer 415 for a body that is not declared application/json", async () => {
    for (const type of ["text/plain", "application/x-www-form-urlencoded"]) {
      const res = await call(svc, "POST", `${T}/workloads/pod`, {
        rawBody: '{"id":"a","image":"x"}',
        headers: { "content-type": type },
      });
      expect(res.status).toBe(415);
      expect(res.json.error.code).toBe("unsupported_media_type");
    }
    const none = await call(svc, "POST", `${T}/templates`, { rawBody: "{}" });
    expect(none.status).toBe(415);
  });

  it("should answer 413 for a declared body over 1 MiB", async () => {
    const res = await call(svc, "POST", `${T}/workloads/pod`, { body: { id: "big", image: "x".repeat(1024 * 1024) } });
    expect(res.status).toBe(413);
    expect(res.json.error.code).toBe("payload_too_large");
  });

  it("should answer 413 to a chunked body once it passes 1 MiB, without waiting for its end", async () => {
    const res = await new Promise<{ status: number; body: string }>((resolve, reject) => {
      const req = request(`${svc.url}${T}/workloads/pod`, {
        method: "POST",
        headers: { "content-type": "application/json", "x-api-key": KEYS.demo, "transfer-encoding": "chunked" },
      });
      req.on("response", (r) => {
        let body = "";
        r.on("data", (d) => (body += d));
        r.on("end", () => resolve({ status: r.statusCode ?? 0, body }));
      });
      req.on("error", reject);
      req.write('{"id":"chunky","image":"');
      req.write("x".repeat(1100 * 1024)); // the body is never ended
    });
    expect(res.status).toBe(413);
    expect(JSON.parse(res.body).error.code).toBe("payload_too_large");
  });

  it("should answer 400 naming an unknown field, nested ones too", async () => {
    const res = await call(svc, "POST", `${T}/workloads/storage`, {
      body: { id: "db2", engine: "postgres", credentials: { password: "p", token: "t" }, colour: "red" },
    });
    expect(res.status).toBe(400);
    const paths = res.json.error.details.map((d: { path: string }) => d.path);
    expect(paths).toEqual(expect.arrayContaining(["colour", "credentials.token"]));
  });

  it("should answer 400 naming each invalid field", async () => {
    const res = await call(svc, "POST", `${T}/workloads/vm-ubuntu`, {
      body: { id: "vm", cpus: "two", memory: "4GB", credentials: { password: "p" }, ports: [{ port: 70000 }] },
    });
    expect(res.status).toBe(400);
    const paths = res.json.error.details.map((d: { path: string }) => d.path);
    expect(paths).toEqual(expect.arrayContaining(["cpus", "memory", "ports[0].port"]));
  });

  it("should answer 400 naming id when the body's id is not a DNS label", async () => {
    for (const id of ["UPPER", "-lead", "trail-", "a_b", "a".repeat(64), "ü", "a.b", ""]) {
      const res = await call(svc, "POST", `${T}/workloads/pod`, { body: { id, image: "x" } });
      expect(res.status).toBe(400);
      expect(res.json.error.details[0].path).toBe("id");
    }
  });

  it("should answer 400 naming type for an unknown workload type", async () => {
    const res = await call(svc, "POST", `${T}/workloads/mainframe`, { body: { id: "m" } });
    expect(res.status).toBe(400);
    expect(res.json.error.details[0].path).toBe("type");
  });

  it.each([
    ["percent-encoded traversal", `${T}/workloads/..%2F..%2Fetc/status`],
    ["unicode", `${T}/workloads/%E2%98%83/status`],
    ["a lone surrogate", `${T}/workloads/%ED%A0%80/status`],
    ["a NUL byte", `${T}/workloads/a%00b/status`],
    ["malformed percent-encoding", `${T}/workloads/%zz/status`],
    ["an upper-case id", `${T}/workloads/ABC/status`],
  ])("should answer 400 with the error body for a path id with %s", async (_name, path) => {
    const raw = await rawGet(path);
    expect(statusLine(raw)).toBe(400);
    expect(bodyOf(raw).error.code).toBe("validation_failed");
    expect(raw).toMatch(/x-request-id: req_/);
  });

  it.each([
    ["a literal ../ segment", `${T}/workloads/../../../etc/passwd`],
    ["a double slash", `/v1/tenants//demo/spec`],
    ["a trailing slash", `${T}/spec/`],
    ["an unknown route", `/v1/nothing`],
  ])("should answer 404 with the error body for %s", async (_name, path) => {
    const raw = await rawGet(path);
    expect(statusLine(raw)).toBe(404);
    expect(bodyOf(raw).error.code).toBe("not_found");
  });

  it("should answer raw non-ASCII bytes in the path with 400 or 404 and the error body", async () => {
    const raw = await rawRequest(
      Buffer.concat([
        Buffer.from(`GET ${T}/workloads/`),
        Buffer.from("☃", "utf8"),
        Buffer.from(`/status HTTP/1.1\r\nhost: x\r\nx-api-key: ${KEYS.demo}\r\nconnection: close\r\n\r\n`),
      ]),
    );
    // Node's HTTP parser refuses the bytes (400, as for any malformed request); a parser that let
    // them through would route them to a workload that does not exist (404). Either way, the code
    // that goes with the status.
    expect([
      [400, "validation_failed"],
      [404, "not_found"],
    ]).toContainEqual([statusLine(raw), bodyOf(raw).error.code]);
  });

  it("should answer a request the HTTP parser refuses with 400, the error body and a request id", async () => {
    const raw = await rawRequest("GARBAGE\r\n\r\n");
    expect(statusLine(raw)).toBe(400);
    expect(bodyOf(raw).error.code).toBe("validation_failed");
    expect(raw).toMatch(/x-request-id: req_/);
  });

  it("should answer a wrong method with 404 and an allow header", async () => {
    const res = await call(svc, "PUT", `${T}/spec`);
    expect(res.status).toBe(404);
    expect(res.headers.get("allow")).toBe("GET");
  });

  it("should keep serving after all of the above", async () => {
    expect((await statusOf(svc, "existing")).status).toBe(200);
  });
});
