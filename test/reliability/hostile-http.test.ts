import { connect, type Socket } from "node:net";
import { ControlClient, type RunningService } from "../../server";
import {
  CONTROL_TOKEN,
  KEYS,
  call,
  expectErrorAnswer,
  openStream,
  pushBody,
  raw,
  rawGet,
  start,
  waitFor,
  type RawAnswer,
  type Stream,
} from "./helpers";

const T = "/v1/tenants/alpha";
const POD = "hostile-pod";

let svc: RunningService;
let control: ControlClient;

beforeAll(async () => {
  svc = await start();
  control = new ControlClient(svc.url, CONTROL_TOKEN);
  expect((await call(svc.url, "POST", `${T}/workloads/pod`, { body: { id: POD, image: "nginx" } })).status).toBe(202);
  await waitFor(
    async () => (await call(svc.url, "GET", `${T}/workloads/${POD}/status`)).json?.phase === "Running",
    5000,
    "pod Running",
  );
  await control.resetCounters();
});
afterAll(() => svc.close());

/** The service answers a plain read and a workspace read, promptly. */
async function expectHealthy(): Promise<void> {
  const started = Date.now();
  expect((await call(svc.url, "GET", "/healthz", { key: null })).status).toBe(200);
  expect((await call(svc.url, "GET", `${T}/workloads/${POD}/status`)).json.phase).toBe("Running");
  expect(Date.now() - started).toBeLessThan(2000);
}

function expectRawError(a: RawAnswer, status: number | number[]): void {
  expect(a.raw).toMatch(/^HTTP\/1\.1 \d{3} /);
  expectErrorAnswer(a, status);
}

/** Request head lines joined with CRLF, ended by the blank line. */
function head(lines: string[]): string {
  return [...lines, "", ""].join("\r\n");
}

describe("the service, given malformed bodies", () => {
  it.each([
    ["a truncated object", '{"id": "p1", "image": '],
    ["unquoted keys", "{id: 'p1', image: 'x'}"],
    ["trailing garbage", '{"id":"p1","image":"x"} trailing'],
    ["a byte order mark", '\uFEFF{"id":"p1","image":"x"}'],
    ["NaN", "NaN"],
    ["an empty body", ""],
    ["only whitespace", " \r\n\t "],
    ["null", "null"],
    ["an array", '[{"id":"p1","image":"x"}]'],
    ["a string", '"p1"'],
    ["a NUL byte", "\u0000"],
    ["a lone surrogate escape in the id", '{"id":"\\ud800","image":"x"}'],
    ["a duplicate key smuggling an invalid id", '{"id":"p1","image":"x","id":"P_1"}'],
  ])("should answer %s with 400 and the error body", async (_name, rawBody) => {
    const res = await call(svc.url, "POST", `${T}/workloads/pod`, {
      rawBody,
      headers: { "content-type": "application/json" },
    });
    expectErrorAnswer(res, 400);
    expect(res.json.error.code).toBe("validation_failed");
  });

  it("should answer bytes that are not UTF-8 with 400 and the error body", async () => {
    const body = Buffer.concat([
      Buffer.from('{"id":"'),
      Buffer.from([0xff, 0xfe, 0xc0, 0xaf]),
      Buffer.from('","image":"x"}'),
    ]);
    const a = await raw(
      svc.port,
      Buffer.concat([
        Buffer.from(
          head([
            `POST ${T}/workloads/pod HTTP/1.1`,
            "host: x",
            `x-api-key: ${KEYS.alpha}`,
            "content-type: application/json",
            `content-length: ${body.length}`,
            "connection: close",
          ]),
        ),
        body,
      ]),
    );
    expectRawError(a, 400);
    expect(a.json.error.details.map((d: { path: string }) => d.path)).toEqual(["id"]);
  });

  it.each([
    ["text/plain", "text/plain"],
    ["a form", "application/x-www-form-urlencoded"],
    ["multipart", "multipart/form-data; boundary=x"],
    ["application/jsonx", "application/jsonx"],
    ["text/json", "text/json"],
    ["no content type", undefined],
  ])("should answer %s with 415 and the error body", async (_name, type) => {
    const res = await call(svc.url, "POST", `${T}/templates`, {
      rawBody: '{"name":"t","kind":"pod","config":{"pod":{}}}',
      headers: type ? { "content-type": type } : {},
    });
    expectErrorAnswer(res, 415);
    expect(res.json.error.code).toBe("unsupported_media_type");
  });
});

describe("the service, given a 10 MB body", () => {
  const TEN_MB = 10 * 1024 * 1024;
  const CHUNK = Buffer.alloc(64 * 1024, "a");

  it("should answer a declared 10 MB body with 413 before reading it, and keep serving", async () => {
    const h = head([
      `POST ${T}/workloads/pod HTTP/1.1`,
      "host: x",
      `x-api-key: ${KEYS.alpha}`,
      "content-type: application/json",
      `content-length: ${TEN_MB}`,
    ]);
    const { answer, sent } = await pushBody(svc.port, h, TEN_MB, CHUNK);
    expectRawError(answer, 413);
    expect(answer.json.error.code).toBe("payload_too_large");
    expect(answer.headers.connection).toBe("close");
    expect(sent).toBeLessThan(TEN_MB);
    await expectHealthy();
  });

  it("should answer a chunked 10 MB body with 413 once 1 MiB has been read, and keep serving", async () => {
    const h = head([
      `POST ${T}/templates HTTP/1.1`,
      "host: x",
      `x-api-key: ${KEYS.alpha}`,
      "content-type: application/json",
      "transfer-encoding: chunked",
    ]);
    const chunked = (c: Buffer): Buffer =>
      Buffer.concat([Buffer.from(`${c.length.toString(16)}\r\n`), c, Buffer.from("\r\n")]);
    const { answer, sent } = await pushBody(svc.port, h, TEN_MB, CHUNK, chunked);
    expectRawError(answer, 413);
    expect(sent).toBeLessThan(TEN_MB);
    await expectHealthy();
  });
});

describe("the service, given hostile paths", () => {
  it.each([
    ["percent-encoded traversal", `${T}/workloads/..%2F..%2Fetc/status`, 400],
    ["encoded dots", `${T}/workloads/%2e%2e/status`, 400],
    ["an encoded absolute path", `${T}/workloads/%2Fetc%2Fpasswd/status`, 400],
    ["encoded backslashes", `${T}/workloads/..%5C..%5Cwindows/status`, 400],
    ["a NUL byte", `${T}/workloads/${POD}%00/status`, 400],
    ["a lone NUL", `${T}/workloads/%00/status`, 400],
    ["double-encoded traversal", `${T}/workloads/%252e%252e%252fetc%252fpasswd/status`, 400],
    ["overlong UTF-8 dots", `${T}/workloads/%c0%ae%c0%ae/status`, 400],
    ["traversal in the workspace name", "/v1/tenants/..%2Fbeta/spec", 400],
    ["traversal in a template id", `${T}/templates/..%2F..%2Fsecrets`, 400],
    ["a literal ../ into another workspace", `${T}/../beta/spec`, 404],
    ["a literal ../ out of /v1", `${T}/../../../healthz`, 404],
    ["an absolute-form URI", `http://evil.example${T}/spec`, 404],
    ["an asterisk", "*", 404],
  ])("should refuse %s with the error body", async (_name, path, status) => {
    const a = await rawGet(svc.port, path);
    expectRawError(a, status);
    expect(a.body).not.toContain('"workloads"');
  });
});

describe("the service, given odd unicode in names", () => {
  it.each([
    ["a right-to-left override", "rel\u202Eevil"],
    ["an emoji", "pod-\u{1F680}"],
    ["a Cyrillic homoglyph", "h\u043Estile-pod"],
    ["a zero-width space", "hostile\u200B-pod"],
    ["fullwidth letters", "\uFF50\uFF4F\uFF44"],
    ["a combining accent", "pode\u0301"],
  ])("should refuse a workload id with %s, naming id", async (_name, id) => {
    const res = await call(svc.url, "POST", `${T}/workloads/pod`, { body: { id, image: "x" } });
    expectErrorAnswer(res, 400);
    expect(res.json.error.details.map((d: { path: string }) => d.path)).toEqual(["id"]);
  });

  it("should refuse a workspace name with a homoglyph in the path, naming name", async () => {
    const res = await call(svc.url, "GET", `/v1/tenants/${encodeURIComponent("\u0430lpha")}/spec`);
    expectErrorAnswer(res, 400);
    expect(res.json.error.details[0].path).toBe("name");
  });

  it("should refuse raw UTF-8 bytes of a right-to-left override in the path with the error body", async () => {
    const req = Buffer.concat([
      Buffer.from(`GET ${T}/workloads/a`),
      Buffer.from("\u202E", "utf8"),
      Buffer.from(`b/status HTTP/1.1\r\nhost: x\r\nx-api-key: ${KEYS.alpha}\r\nconnection: close\r\n\r\n`),
    ]);
    expectRawError(await raw(svc.port, req), [400, 404]);
  });

  it("should keep a template name with a right-to-left override and an emoji exactly as sent", async () => {
    const name = "deploy \u202Egnp.exe \u{1F680} \u0441\u0435\u0440\u0432\u0435\u0440";
    const created = await call(svc.url, "POST", `${T}/templates`, { body: { name, kind: "pod", config: { pod: {} } } });
    expect(created.status).toBe(201);
    expect(Number(created.headers["content-length"])).toBe(Buffer.byteLength(created.text));
    expect((await call(svc.url, "GET", `${T}/templates/${created.json.id}`)).json.name).toBe(name);
    expect((await call(svc.url, "DELETE", `${T}/templates/${created.json.id}`)).status).toBe(204);
  });
});

describe("the service, given header injection attempts", () => {
  it.each([
    ["a bare LF in Last-Event-ID", [`x-api-key: ${KEYS.alpha}`, "last-event-id: 1\nid: 99"], `${T}/events/stream`],
    [
      "a bare CR in Last-Event-ID",
      [`x-api-key: ${KEYS.alpha}`, "last-event-id: 1\revent: forged"],
      `${T}/events/stream`,
    ],
    ["a bare LF in x-api-key", [`x-api-key: ${KEYS.alpha}\nx-api-key: ${KEYS.beta}`], `${T}/spec`],
    ["a bare CR in x-api-key", [`x-api-key: ${KEYS.alpha}\rx-admin: 1`], `${T}/spec`],
    ["a bare CR in Authorization", [`authorization: Bearer ${KEYS.alpha}\rx-admin: 1`], `${T}/spec`],
    ["a NUL in x-api-key", [`x-api-key: ${KEYS.alpha}\u0000`], `${T}/spec`],
    ["an obsolete folded x-api-key", ["x-api-key: alpha-", ` ${KEYS.alpha}`], `${T}/spec`],
  ])("should answer %s with 400 and the error body", async (_name, lines, path) => {
    expectRawError(await rawGet(svc.port, path, lines), 400);
  });

  it("should refuse two x-api-key headers with 401, whichever keys they carry", async () => {
    for (const second of [KEYS.alpha, KEYS.beta]) {
      expectRawError(await rawGet(svc.port, `${T}/spec`, [`x-api-key: ${KEYS.alpha}`, `x-api-key: ${second}`]), 401);
    }
  });

  it("should answer a CRLF smuggled into ?lastEventId= with one resync frame and no forged frame", async () => {
    const s = await openStream(svc.url, "alpha", {
      query: `?lastEventId=${encodeURIComponent("1\r\nevent: forged\r\ndata: {}\r\n")}`,
    });
    await s.until(() => s.events.length >= 1);
    s.close();
    expect(s.events.map((f) => f.event)).toEqual(["resync"]);
    expect(s.raw).not.toContain("forged");
  });

  it("should refuse both forms of request smuggling with 400", async () => {
    const base = [
      `POST ${T}/workloads/pod HTTP/1.1`,
      "host: x",
      `x-api-key: ${KEYS.alpha}`,
      "content-type: application/json",
    ];
    expectRawError(
      await raw(svc.port, head([...base, "content-length: 5", "transfer-encoding: chunked"]) + "0\r\n\r\n"),
      400,
    );
    expectRawError(await raw(svc.port, head([...base, "content-length: 2", "content-length: 20"]) + "{}"), 400);
  });
});

describe("the event stream, given a Last-Event-ID that is not a usable number", () => {
  const streams: Array<[string, Stream]> = [];
  afterAll(() => streams.forEach(([, s]) => s.close()));

  it("should send exactly one resync frame with the newest id, then live events", async () => {
    const newest = Number((await call(svc.url, "GET", `${T}/pulse`)).json.lastEventId);
    const values = [
      "abc",
      "-1",
      "1e3",
      "0x10",
      "1.5",
      "\u00B2\u00B3",
      "9".repeat(25),
      "18446744073709551616",
      String(newest + 1000),
    ];
    for (const v of values) streams.push([v, await openStream(svc.url, "alpha", { lastEventId: v })]);
    for (const q of ["abc", encodeURIComponent("\uFF11\uFF12"), "%2D1"]) {
      streams.push([`?lastEventId=${q}`, await openStream(svc.url, "alpha", { query: `?lastEventId=${q}` })]);
    }
    for (const [, s] of streams) await s.until(() => s.events.length >= 1);
    // Something happens: every stream gets it right after its resync, and no second resync.
    expect((await call(svc.url, "POST", `${T}/workloads/${POD}/restart`)).status).toBe(200);
    for (const [v, s] of streams) {
      await s.until(() => s.events.length >= 2);
      const [first, second] = s.events;
      expect([v, first]).toEqual([v, { id: String(newest), event: "resync", data: "{}" }]);
      expect([v, second.id]).toEqual([v, String(newest + 1)]);
      expect([v, s.events.filter((f) => f.event === "resync").length]).toEqual([v, 1]);
    }
    await waitFor(
      async () => (await call(svc.url, "GET", `${T}/workloads/${POD}/status`)).json?.phase === "Running",
      5000,
      "pod Running again",
    );
  });
});

describe("the service, given oversized headers", () => {
  it("should answer a 64 KB header with the error body", async () => {
    expectRawError(
      await rawGet(svc.port, `${T}/spec`, [`x-api-key: ${KEYS.alpha}`, `x-big: ${"a".repeat(64 * 1024)}`]),
      [400, 431],
    );
  });

  it("should answer a 64 KB x-api-key with 400 or 401 and the error body", async () => {
    expectRawError(await rawGet(svc.port, `${T}/spec`, [`x-api-key: ${"k".repeat(64 * 1024)}`]), [400, 401, 431]);
  });

  it("should answer 300 headers of 1 KB each with the error body", async () => {
    const lines = Array.from({ length: 300 }, (_, i) => `x-h${i}: ${"v".repeat(1024)}`);
    expectRawError(await rawGet(svc.port, `${T}/spec`, [`x-api-key: ${KEYS.alpha}`, ...lines]), [400, 431]);
  });

  it("should keep serving", expectHealthy);
});

describe("the service, given slow partial requests", () => {
  it("should serve others promptly while 40 connections trickle their request heads and bodies", async () => {
    const sockets: Socket[] = [];
    const TRICKLE_MS = 1500;
    for (let i = 0; i < 40; i++) {
      const s = connect(svc.port, "127.0.0.1");
      s.on("error", () => undefined);
      // Half never finish their head; half declare a body and send a tenth of it.
      s.write(
        i % 2 === 0
          ? `GET ${T}/spec HTTP/1.1\r\nhost: x\r\n`
          : head([
              `POST ${T}/workloads/pod HTTP/1.1`,
              "host: x",
              `x-api-key: ${KEYS.alpha}`,
              "content-type: application/json",
              "content-length: 1000",
            ]) + '{"id":"slow',
      );
      sockets.push(s);
    }
    const trickle = setInterval(() => sockets.forEach((s, i) => i % 2 === 0 && s.write("x-slow: 1\r\n")), 100);
    try {
      const deadline = Date.now() + TRICKLE_MS;
      let served = 0;
      while (Date.now() < deadline) {
        await expectHealthy();
        served++;
      }
      expect(served).toBeGreaterThan(5);
      expect(sockets.every((s) => !s.destroyed)).toBe(true);
    } finally {
      clearInterval(trickle);
      sockets.forEach((s) => s.destroy());
    }
    await expectHealthy();
  });
});

describe("the service, given methods it does not serve", () => {
  it.each([
    ["PUT", `${T}/spec`, "GET"],
    ["PATCH", `${T}/workloads/${POD}`, "POST, DELETE"],
    ["GET", `${T}/workloads/pod`, "POST, DELETE"],
    ["PUT", `${T}/templates`, "POST, GET"],
    ["DELETE", `${T}/events/stream`, "GET"],
    ["TRACE", "/healthz", "GET"],
    ["OPTIONS", `${T}/spec`, "GET"],
  ])("should answer %s %s with 404, an allow header and the error body", async (method, path, allow) => {
    const a = await raw(
      svc.port,
      head([`${method} ${path} HTTP/1.1`, "host: x", `x-api-key: ${KEYS.alpha}`, "connection: close"]),
    );
    expectRawError(a, 404);
    expect(a.headers.allow).toBe(allow);
  });

  it("should answer CONNECT with 404 and the error body", async () => {
    expectRawError(await raw(svc.port, head(["CONNECT 127.0.0.1:22 HTTP/1.1", "host: 127.0.0.1:22"])), 404);
  });

  it("should answer a method the parser does not know with 400 and the error body", async () => {
    expectRawError(await raw(svc.port, head(["BREW /healthz HTTP/1.1", "host: x", "connection: close"])), 400);
  });
});

describe("the service, after all of the above", () => {
  it("should keep serving and never have answered with a 5xx", async () => {
    await expectHealthy();
    const c = await control.counters();
    expect(Object.keys(c.requests.byStatus).filter((s) => s.startsWith("5"))).toEqual([]);
    expect(c.requests.total).toBeGreaterThan(50);
  });
});
