import { execFileSync } from "node:child_process";
import * as path from "node:path";

const root = path.join(__dirname, "..", "..");

/** The modules a fresh `node` holds once it has loaded `files` (TypeScript, through ts-node), by package. */
function packagesLoadedBy(files: string[]): string[] {
  const script = `${files.map((f) => `require(${JSON.stringify(path.join(root, f))});`).join("\n")}
process.stdout.write(JSON.stringify(Object.keys(require.cache)));`;
  const out = execFileSync(process.execPath, ["-r", "ts-node/register/transpile-only", "-e", script], {
    cwd: root,
    encoding: "utf8",
  });
  const names = (JSON.parse(out) as string[]).flatMap((f) => {
    const m = /node_modules\/((?:@[^/]+\/)?[^/]+)\//.exec(f);
    return m ? [m[1]] : [];
  });
  return [...new Set(names)].sort();
}

// A watch runs for weeks: Pulumi's language SDK (gRPC, protobufs: some 65 MB resident) is never
// held by it. The CLI's entry once loaded every command's modules, and the watch held it all.
describe("pulumi-wws watch's modules", () => {
  it("should load neither Pulumi's language SDK nor gRPC, from the CLI's entry to the watch command", () => {
    const loaded = packagesLoadedBy(["cli/main.ts", "cli/watch/run.ts"]);
    expect(loaded).toContain("prom-client");
    expect(loaded.filter((p) => p === "@pulumi/pulumi" || p.startsWith("@grpc/"))).toEqual([]);
  });
});
