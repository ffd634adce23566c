/** Which rows are a revert's own update (`watch/own-writes.ts`): never a person's change, never the next change's author. */
import { OwnWrites, type RowFacts } from "../../watch/own-writes";

const updated = (actor: string): RowFacts => ({ actor, action: "workload.updated" });
const phase = (actor: string): RowFacts => ({ actor, action: "workload.phase" });

describe("OwnWrites", () => {
  const own = new OwnWrites();
  afterAll(() => own.stop());

  it.each<[string, Array<"begin" | "end" | RowFacts>, boolean[]]>([
    ["no write under way: every row is a person's", [updated("api"), phase("api")], [false, false]],
    [
      "the write's row and its phase row, then the next change by a person",
      ["begin", updated("api"), phase("api"), updated("ops"), phase("ops")],
      [true, true, false, false],
    ],
    [
      "a phase row by the reconciler is not taken for the write's",
      ["begin", updated("api"), phase("reconciler")],
      [true, false],
    ],
    [
      "one write: one row, the row of a change after it is a person's",
      ["begin", "end", updated("api"), updated("api")],
      [true, false],
    ],
  ])("%s", (_what, steps, expected) => {
    const o = new OwnWrites();
    let end: () => void = () => undefined;
    const seen: boolean[] = [];
    for (const s of steps) {
      if (s === "begin") end = o.begin("k");
      else if (s === "end") end();
      else seen.push(o.isOwn("k", s));
    }
    o.stop();
    expect(seen).toEqual(expected);
  });

  it("once its own rows were seen with an actor, a row by another during a write is a person's", () => {
    own.begin("k")();
    expect(own.isOwn("k", updated("api"))).toBe(true);
    own.begin("k");
    expect(own.isOwn("k", updated("ops-laptop"))).toBe(false);
    expect(own.isOwn("k", phase("ops-laptop"))).toBe(false);
    expect(own.isOwn("k", updated("api"))).toBe(true);
  });

  it("a write whose row never came is forgotten after its grace", () => {
    jest.useFakeTimers();
    try {
      const o = new OwnWrites();
      o.begin("k")();
      jest.advanceTimersByTime(10_001);
      expect(o.isOwn("k", updated("api"))).toBe(false);
    } finally {
      jest.useRealTimers();
    }
  });
});
