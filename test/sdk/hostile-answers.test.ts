import { Readable } from "node:stream";
import { ConnectionError, ProxyError, ResponseTooLargeError } from "../../sdk";
import { readBodyText } from "../../sdk/http/response-size";
import { proxyErrorOf } from "../../sdk/http/proxy";
import { MAX_EVENT_BYTES, NO_OPEN_EVENT, openEventAfter, overLimitError } from "../../sdk/events/line-limit";
import { isNoAnswer, isTransientFailure, provablyNotProcessed } from "../../sdk/retry/rules";

const PROXY = { url: "http://127.0.0.1:3128", setting: "HTTPS_PROXY" };
const op = "get the spec of workspace demo";

describe("a proxy's failures", () => {
  it("should name the proxy, its setting and its answer, and never count as reaching the service", () => {
    const denied = proxyErrorOf(op, new Error("Proxy response (407) !== 200 when HTTP Tunneling"), PROXY)!;
    expect(denied).toBeInstanceOf(ProxyError);
    expect(denied.message).toBe(
      `${op} failed: the proxy http://127.0.0.1:3128 (from HTTPS_PROXY) answered 407 Proxy Authentication Required to the tunnel (CONNECT) to the service. ` +
        "The proxy wants credentials: give them in the proxy URL (http://user:password@proxy:port).",
    );
    const cut = proxyErrorOf(
      op,
      Object.assign(new Error("Proxy Connection failed"), {
        code: "UND_ERR_PRX_CONN",
        cause: new Error("other side closed"),
      }),
      PROXY,
    )!;
    expect(cut.message).toContain("failed before the tunnel (CONNECT) to the service was open (other side closed)");
    const refused = proxyErrorOf(
      op,
      Object.assign(new Error("connect ECONNREFUSED"), { code: "ECONNREFUSED", port: 3128 }),
      PROXY,
    )!;
    expect(refused.message).toContain("(from HTTPS_PROXY) could not be reached (connect ECONNREFUSED)");
    for (const e of [denied, cut, refused]) expect(provablyNotProcessed(e)).toBe(true);
  });

  it("should take 407 and 403 as final, a 502 or a cut tunnel as worth another try", () => {
    const answered = (status: number) =>
      proxyErrorOf(op, new Error(`Proxy response (${status}) !== 200 when HTTP Tunneling`), PROXY)!;
    expect([407, 403, 502].map((s) => isTransientFailure(answered(s)))).toEqual([false, false, true]);
    expect([407, 502].map((s) => isNoAnswer(answered(s)))).toEqual([false, true]);
    const cut = proxyErrorOf(op, Object.assign(new Error("x"), { code: "UND_ERR_PRX_CONN" }), PROXY)!;
    expect([isTransientFailure(cut), isNoAnswer(cut)]).toEqual([true, true]);
  });

  it("should leave a failure that is not the proxy's as it is", () => {
    expect(proxyErrorOf(op, Object.assign(new Error("reset"), { code: "ECONNRESET" }), PROXY)).toBeUndefined();
    expect(proxyErrorOf(op, new Error("Proxy response (407) !== 200"), undefined)).toBeUndefined();
    expect(new ProxyError(op, PROXY, undefined, new Error("x"))).toBeInstanceOf(ConnectionError);
  });
});

describe("readBodyText", () => {
  const body = (chunks: string[]) => Readable.from(chunks.map((c) => Buffer.from(c)));

  it("should read a body up to the limit, and refuse one announced or read past it, naming both sizes", async () => {
    await expect(readBodyText(body(["{", "}"]), "2", 1024, op, 200)).resolves.toBe("{}");
    await expect(readBodyText(body(["x"]), "52428800", 1024, op, 200)).rejects.toThrow(
      "the answer (HTTP 200) is 52,428,800 bytes (50 MiB), over the answer-size cap of 1,024 bytes",
    );
    const err = await readBodyText(body(Array(3).fill("x".repeat(600))), undefined, 1024, op, 200).catch((e) => e);
    expect(err).toBeInstanceOf(ResponseTooLargeError);
    expect(err.message).toContain("is more than 1,024 bytes, over the answer-size cap of 1,024 bytes");
    expect(isTransientFailure(err)).toBe(false);
  });
});

describe("openEventAfter", () => {
  const after = (...chunks: string[]) =>
    chunks.reduce((open, c) => openEventAfter(open, Buffer.from(c)), NO_OPEN_EVENT);

  it.each([
    ["a whole event", ["data: {}\n\n"], { line: 0, event: 0 }],
    ["an open line across chunks", ["data: {}\n\ndata: ab", "cd"], { line: 10, event: 0 }],
    ["the lines of an event not yet ended", ["data: ab\ndata: cd\n"], { line: 0, event: 16 }],
    ["an event ended by CRLF CRLF, split between the CR and the LF", ["data: ab\r", "\n\r\n"], { line: 0, event: 0 }],
    ["an event ended by CR CR", ["data: ab\r\r"], { line: 0, event: 0 }],
    ["a comment between events", [":heartbeat\n\ndata: x"], { line: 7, event: 0 }],
  ])("should count %s", (_what, chunks, expected) => {
    expect(after(...chunks)).toMatchObject(expected);
  });

  it("should pass the event limit with endless data lines and no blank line, as one endless line does", () => {
    const line = `data: ${"x".repeat(1000)}\n`;
    let open = NO_OPEN_EVENT;
    let chunks = 0;
    while (!overLimitError(open, "event stream") && chunks < 10_000) {
      open = openEventAfter(open, Buffer.from(line.repeat(64)));
      chunks++;
    }
    expect(open.event).toBeGreaterThan(MAX_EVENT_BYTES);
    expect(open.event).toBeLessThan(MAX_EVENT_BYTES + 65 * line.length);
    expect(overLimitError(open, "event stream")?.message).toContain("an event of more than 1048576 bytes");
  });
});
