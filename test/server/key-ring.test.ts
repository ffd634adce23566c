/**
 * Unit tests of server/auth.ts: how API keys and other secrets are compared, and where a key is
 * read from. `timingSafeEqual` is wrapped in a spy that still compares for real, to see that every
 * comparison goes through it, on digests of one length. What a client sees of it (every wrong key
 * refused, each workspace isolated) is tested against the real service over HTTP in
 * test/reliability/auth-isolation.test.ts; the set-once storage password in
 * test/server/workloads.test.ts.
 */
import { createHash } from "node:crypto";
import * as crypto from "node:crypto";
import { inspect } from "node:util";
import { KeyRing, presentedKey, secretsEqual } from "../../server/auth";

jest.mock("node:crypto", () => {
  const actual = jest.requireActual<typeof import("node:crypto")>("node:crypto");
  return { ...actual, timingSafeEqual: jest.fn(actual.timingSafeEqual) };
});
const timingSafeEqual = crypto.timingSafeEqual as jest.MockedFunction<typeof crypto.timingSafeEqual>;

describe("KeyRing", () => {
  const sha256 = (s: string): Buffer => createHash("sha256").update(s, "utf8").digest();
  const keys = { one: "k", two: "x".repeat(512), three: "three-key" };

  beforeEach(() => timingSafeEqual.mockClear());

  it("should compare the presented key with every stored key, without an early exit, in constant time", () => {
    const ring = new KeyRing(keys);
    for (const [presented, expected] of [
      ["k", "one"],
      ["three-key", "three"],
      ["nope", undefined],
      ["x".repeat(511), undefined],
    ] as const) {
      timingSafeEqual.mockClear();
      expect(ring.workspaceOf(presented)).toBe(expected);
      expect(timingSafeEqual).toHaveBeenCalledTimes(Object.keys(keys).length);
    }
  });

  it("should compare fixed-length SHA-256 digests whatever the keys' lengths", () => {
    const ring = new KeyRing(keys);
    ring.workspaceOf("k");
    ring.workspaceOf("y".repeat(4096));
    expect(timingSafeEqual.mock.calls.length).toBe(6);
    for (const [a, b] of timingSafeEqual.mock.calls) {
      expect([Buffer.isBuffer(a) && a.length, Buffer.isBuffer(b) && b.length]).toEqual([32, 32]);
    }
    const compared = timingSafeEqual.mock.calls.flat().map((b) => Buffer.from(b as Uint8Array).toString("hex"));
    expect(compared).toEqual(expect.arrayContaining([sha256("k").toString("hex"), sha256(keys.two).toString("hex")]));
  });

  it("should keep no key in plain text", () => {
    const ring = new KeyRing(keys);
    const shown = `${inspect(ring, { depth: 10, showHidden: true })}${JSON.stringify(ring)}`;
    for (const key of [keys.two, keys.three]) expect(shown).not.toContain(key);
  });

  it("should compare other secrets as digests in constant time too", () => {
    expect(secretsEqual("a", "b".repeat(1000))).toBe(false);
    expect(secretsEqual("same", "same")).toBe(true);
    expect(timingSafeEqual).toHaveBeenCalledTimes(2);
    for (const [a, b] of timingSafeEqual.mock.calls)
      expect([(a as Buffer).length, (b as Buffer).length]).toEqual([32, 32]);
  });
});

describe("presentedKey", () => {
  it.each([
    ["x-api-key", { "x-api-key": "k1" }, "k1"],
    ["a bearer token", { authorization: "Bearer k1" }, "k1"],
    ["a bearer token with a lower-case scheme and spaces", { authorization: "bearer   k1  " }, "k1"],
    ["x-api-key over a bearer token", { "x-api-key": "k1", authorization: "Bearer k2" }, "k1"],
    ["a bearer token when x-api-key is empty", { "x-api-key": "", authorization: "Bearer k2" }, "k2"],
    ["nothing for the Basic scheme", { authorization: "Basic azE=" }, undefined],
    ["nothing for a bearer token with a space inside", { authorization: "Bearer k1 k2" }, undefined],
    ["nothing for an empty bearer token", { authorization: "Bearer " }, undefined],
    ["nothing without either header", {}, undefined],
  ])("should take %s", (_name, headers, expected) => {
    expect(presentedKey(headers)).toBe(expected);
  });
});
