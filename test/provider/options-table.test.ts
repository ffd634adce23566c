import { existsSync, readFileSync } from "node:fs";
import { join } from "node:path";

const ROOT = join(__dirname, "../..");

/** provider/README.md's "Pulumi's resource options and commands": its table rows and its list of tests. */
function optionsSection(): { rows: string[][]; tests: Map<string, { file: string; title: string }> } {
  const readme = readFileSync(join(ROOT, "provider/README.md"), "utf8");
  const start = readme.indexOf("## Pulumi's resource options and commands");
  const section = readme.slice(start, readme.indexOf("\n## ", start + 1));
  const rows = section
    .split("\n")
    .filter((l) => l.startsWith("| `"))
    .map((l) => l.split(" | ").map((c) => c.replace(/^\| |\s*\|$/g, "")));
  const tests = new Map<string, { file: string; title: string }>();
  for (const m of section.matchAll(/^- \*\*(\w+)\*\*: `([^`]+)`, "(.+?)"(?: \(.*\))?[;.]$/gm))
    tests.set(m[1], { file: m[2], title: m[3] });
  return { rows, tests };
}

describe("provider/README.md's table of Pulumi's options and commands", () => {
  const { rows, tests } = optionsSection();

  it("should name, on every row, tests the section lists (or a TODO for the lead)", () => {
    expect(rows.length).toBeGreaterThan(30);
    const unknown = rows.flatMap((cells) =>
      (cells[cells.length - 1] ?? "")
        .split(", ")
        .filter((label) => label !== "TODO(lead)" && !tests.has(label))
        .map((label) => `${cells[0]}: ${label}`),
    );
    expect(unknown).toEqual([]);
  });

  it("should list only tests that exist, under their titles", () => {
    expect(tests.size).toBeGreaterThan(5);
    const missing = [...tests].filter(([, t]) => {
      const file = join(ROOT, t.file);
      return !existsSync(file) || !readFileSync(file, "utf8").includes(`"${t.title}"`);
    });
    expect(missing).toEqual([]);
  });
});
