import { takeover, type Takeover } from "../../../provider/dynamic/ownership/takeover";

describe("takeover", () => {
  it.each<[boolean, boolean, boolean, Takeover]>([
    [false, false, false, "create"],
    [false, true, false, "create"],
    [true, false, false, "refuse"],
    [true, false, true, "refuse"],
    [true, true, true, "record"],
    [true, true, false, "adopt"],
  ])(
    "should, for exists %s, adopt %s and the declared spec running %s, %s",
    (exists, adopt, runsDeclaredSpec, want) => {
      expect(takeover({ exists, adopt, runsDeclaredSpec })).toBe(want);
    },
  );
});
