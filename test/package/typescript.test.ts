/**
 * A TypeScript program gets the package's types: the README's TypeScript snippets, and the
 * functions table's examples, compile with `tsc --noEmit` as written, against the packed package
 * installed in a project of its own with `typescript` and `@types/node` as the README's TypeScript
 * path installs them: once with the oldest TypeScript package.json's `peerDependencies` names, once
 * with the current one. Pulumi's bundled TypeScript 3.8 cannot read the declarations (every type
 * becomes `any`), which is why the README has a project install its own; a probe with
 * `@ts-expect-error` lines fails the compile should the types ever be read as `any` again.
 */
import { execFile } from "node:child_process";
import * as fs from "node:fs";
import * as path from "node:path";
import { promisify } from "node:util";
import { ROOT } from "../e2e/harness";
import { npm, packedProject, type PackedProject } from "../support/packed-install";

jest.setTimeout(300_000);
const execFileAsync = promisify(execFile);

/** The oldest TypeScript the package says it supports (`>=5.4` → `5.4`). */
const OLDEST = (
  JSON.parse(fs.readFileSync(path.join(ROOT, "package.json"), "utf8")) as {
    peerDependencies: Record<string, string>;
  }
).peerDependencies.typescript.replace(/^>=/, "");

/** Pulumi's `typescript` template's compiler options, and zod's declarations' one need (see the README). */
const TSCONFIG = {
  compilerOptions: {
    strict: true,
    outDir: "bin",
    target: "es2020",
    module: "commonjs",
    moduleResolution: "node",
    sourceMap: true,
    experimentalDecorators: true,
    noFallthroughCasesInSwitch: true,
    noImplicitReturns: true,
    forceConsistentCasingInFileNames: true,
    esModuleInterop: true,
  },
};

/** Every `ts` block of a markdown file, unindented, with the line it starts at. */
function tsBlocks(file: string): Array<{ line: number; text: string }> {
  const text = fs.readFileSync(path.join(ROOT, file), "utf8");
  return [...text.matchAll(/^( *)```ts\n([\s\S]*?)^ *```$/gm)].map((m) => ({
    line: text.slice(0, m.index).split("\n").length,
    text: m[2].replace(new RegExp(`^${m[1]}`, "gm"), ""),
  }));
}

/** The example column of provider/README.md's functions table, each as the body of an async function. */
function functionExamples(): string[] {
  const text = fs.readFileSync(path.join(ROOT, "provider/README.md"), "utf8");
  const table = text.slice(text.indexOf("| function | what it reads | example |"));
  const rows = table.slice(0, table.indexOf("\n\n")).split("\n").slice(2);
  return rows.map((row) => /\| `([^`]+)` \|$/.exec(row)?.[1] ?? `missing example in: ${row}`);
}

/** A program the declarations must type, not read as `any`: each `@ts-expect-error` must meet an error. */
const PROBE = `import * as pulumi from "@pulumi/pulumi";
import * as wws from "pulumi-wws";

const db = new wws.Database("db", { engine: "postgres", credentials: { password: "p" } });
export const phase: pulumi.Output<string> = wws.getWorkloadStatusOutput({ workloadId: "db" }).phase;
export const engine: pulumi.Output<"postgres" | "redis"> = wws.Database.get("d", "team/d").engine;
// @ts-expect-error: a phase is text
export const wrong: pulumi.Output<number> = db.phase;
// @ts-expect-error: a misspelt argument
new wws.Pod("p", { image: "nginx", memroy: "1Gi" });
// @ts-expect-error: a Promise form takes plain values; getWorkloadOutput takes Outputs
export const plain = wws.getWorkload({ workloadId: db.workloadId });
`;

describe("a TypeScript program using the packed package", () => {
  let project: PackedProject;
  const files: Record<string, string> = {};
  beforeAll(async () => {
    project = await packedProject("wws-typescript-");
    // The README's TypeScript path, at the oldest version it names.
    await npm(["install", "--prefer-offline", "--save-dev", `typescript@${OLDEST}`, "@types/node@22"], project.app);
    for (const file of ["README.md", "provider/README.md"])
      for (const { line, text } of tsBlocks(file)) {
        // Programs only: what imports other packages than these, or starts mid-program, runs elsewhere
        // (test/e2e/readme-snippets.test.ts names each).
        const imports = [...text.matchAll(/ from "([^"]+)";$/gm)].map((m) => m[1]);
        if (imports.length === 0 || imports.some((i) => !/^(@pulumi\/pulumi|pulumi-wws(\/testing)?)$/.test(i)))
          continue;
        files[`${file.replace(/\W/g, "-")}-${line}.ts`] = text;
      }
    files["functions-table.ts"] = [
      'import * as wws from "pulumi-wws";',
      ...functionExamples().map((e, i) => `export async function example${i}() {\n  return ${e};\n}`),
    ].join("\n");
    files["probe.ts"] = PROBE;
    // The README's test snippet runs under jest, whose `it` a project's @types/jest declares.
    files["test-globals.d.ts"] = "declare function it(name: string, fn: () => Promise<void>): void;\n";
    for (const [name, text] of Object.entries(files)) fs.writeFileSync(path.join(project.app, name), text);
    const tsconfig = { ...TSCONFIG, files: Object.keys(files) };
    fs.writeFileSync(path.join(project.app, "tsconfig.json"), JSON.stringify(tsconfig, null, 2));
  });
  afterAll(() => project?.cleanup());

  it("should find README.md's two TypeScript programs and the six functions' examples", () => {
    expect(Object.keys(files).filter((f) => f.startsWith("README-md-"))).toHaveLength(2);
    expect(files["functions-table.ts"]).toContain("getWorkloadStatusOutput");
    expect(files["functions-table.ts"]).not.toContain("missing example");
  });

  it.each([
    [`the oldest TypeScript the package supports (${OLDEST}), as the project installed it`, true],
    ["the current TypeScript (this checkout's)", false],
  ])("should compile them with tsc --noEmit under %s", async (_, oldest) => {
    const modules = oldest ? path.join(project.app, "node_modules") : path.join(ROOT, "node_modules");
    const tsc = path.join(modules, "typescript/bin/tsc");
    const run = await execFileAsync(process.execPath, [tsc, "--noEmit", "--pretty", "false", "-p", "."], {
      cwd: project.app,
    }).catch((err: { stdout: string; stderr: string }) => err);
    expect(`${run.stdout}${run.stderr}`).toBe("");
    if (oldest)
      expect((await execFileAsync(process.execPath, [tsc, "--version"])).stdout).toContain(`Version ${OLDEST}.`);
  });
});
