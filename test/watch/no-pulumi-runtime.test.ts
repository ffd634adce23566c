/**
 * The watch's memory (issue 49): its modules reach stacks by spawning the `pulumi` CLI, so the
 * watch process never loads @pulumi/pulumi (the Automation API brings in the whole runtime, grpc
 * and protobufs: some 70 MB resident). Checked in a fresh node that loads the built CLI's entry,
 * then the watch command, as `pulumi-wws watch` does: the entry once loaded every command's
 * modules (import's and rehearse's @pulumi/pulumi among them), which the command alone did not show.
 */
import { spawnSync } from "node:child_process";
import * as path from "node:path";
import { ROOT, ensureBuilt } from "../support/build";

describe("the watch process", () => {
  beforeAll(() => ensureBuilt(), 240_000);

  it("should load no module of @pulumi/pulumi", () => {
    const probe = [
      `require(${JSON.stringify(path.join(ROOT, "dist/cli/main.js"))});`,
      `require(${JSON.stringify(path.join(ROOT, "dist/cli/watch/run.js"))});`,
      `const loaded = Object.keys(require.cache);`,
      `const pulumi = loaded.filter((f) => f.split(require("node:path").sep).join("/").includes("/@pulumi/pulumi/"));`,
      `console.log(JSON.stringify({ modules: loaded.length, pulumi: pulumi.slice(0, 5) }));`,
    ].join("\n");
    const r = spawnSync(process.execPath, ["-e", probe], { cwd: ROOT, encoding: "utf8", timeout: 60_000 });
    expect(r.stderr).toBe("");
    const seen = JSON.parse(r.stdout) as { modules: number; pulumi: string[] };
    // The probe saw the watch's own modules: an empty cache would prove nothing.
    expect(seen.modules).toBeGreaterThan(20);
    expect(seen.pulumi).toEqual([]);
  });
});
