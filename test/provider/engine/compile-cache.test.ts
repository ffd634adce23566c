import { enableCompileCacheInHost } from "../../../provider/dynamic/engine/compile-cache";

describe("compile cache", () => {
  it("should be left off in a process that is not the dynamic provider host (a program, a test)", () => {
    expect(enableCompileCacheInHost(["node", "/x/node_modules/.bin/jest"])).toBe(false);
    expect(enableCompileCacheInHost(process.argv)).toBe(false);
  });
});
