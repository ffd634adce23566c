import { execFileSync } from "node:child_process";
import { writeFileSync } from "node:fs";
import { resolve } from "node:path";
import { argsSource } from "../provider/fields/args-source";
import { fieldReference } from "../provider/fields/reference";

/**
 * `source` as prettier formats the repository's TypeScript at `path`: its command line, a
 * devDependency resolved only when this runs (its API loads plugins by dynamic import, which jest refuses).
 */
export function formatted(source: string, path: string): string {
  const prettier = require.resolve("prettier/bin/prettier.cjs");
  return execFileSync(process.execPath, [prettier, "--stdin-filepath", path], { input: source, encoding: "utf8" });
}

// Usage: npm run docs:fields   (node dist/generate/field-docs.js): writes docs/fields.md
// and provider/resources/args.ts, the classes' argument interfaces, from the declarations.
if (require.main === module) {
  for (const [file, text] of [
    ["docs/fields.md", fieldReference()],
    ["provider/resources/args.ts", formatted(argsSource(), resolve("provider/resources/args.ts"))],
  ]) {
    writeFileSync(resolve(file), text);
    console.log(`wrote ${resolve(file)}`);
  }
}
