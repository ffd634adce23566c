import * as fs from "node:fs";
import * as os from "node:os";
import * as path from "node:path";
import { projectNameAt, yamlTopLevelName } from "../../automation/place";

describe("yamlTopLevelName", () => {
  it.each([
    ["plain", "name: shop\nruntime: nodejs\n", "shop"],
    ["after other keys", "runtime:\n  name: nodejs\nname: shop\n", "shop"],
    ["double-quoted", 'name: "my shop"\n', "my shop"],
    ["single-quoted, a comment after", "name: 'shop' # the store\n", "shop"],
    ["a comment after", "name: shop # the store\n", "shop"],
    ["CRLF lines", "name: shop\r\nruntime: nodejs\r\n", "shop"],
    ["only an indented name", "runtime:\n  name: nodejs\n", undefined],
    ["an empty name", "name:\nruntime: nodejs\n", undefined],
    ["a commented-out name", "# name: old\n", undefined],
  ])("should read the project's name: %s", (_what, text, expected) => {
    expect(yamlTopLevelName(text)).toBe(expected);
  });
});

describe("projectNameAt", () => {
  let dir: string;
  beforeEach(() => (dir = fs.mkdtempSync(path.join(os.tmpdir(), "project-name-"))));
  afterEach(() => fs.rmSync(dir, { recursive: true, force: true }));

  it("should read Pulumi.yml and Pulumi.json as well", () => {
    fs.writeFileSync(path.join(dir, "Pulumi.yml"), "name: shop\n");
    expect(projectNameAt({ cwd: dir })).toBe("shop");
    fs.rmSync(path.join(dir, "Pulumi.yml"));
    fs.writeFileSync(path.join(dir, "Pulumi.json"), '{"name": "store"}');
    expect(projectNameAt({ cwd: dir })).toBe("store");
  });

  it("should name the directory when there is no project file, and the file when it names no project", () => {
    expect(() => projectNameAt({ cwd: dir })).toThrow(dir);
    fs.writeFileSync(path.join(dir, "Pulumi.yaml"), "runtime: nodejs\n");
    expect(() => projectNameAt({ cwd: dir })).toThrow(/Pulumi\.yaml names no project: add a top-level `name:` line/);
  });
});
