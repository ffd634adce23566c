import { mkdirSync, writeFileSync } from "node:fs";
import { dirname, resolve } from "node:path";
import { buildOpenApi } from "./openapi";

/** The committed document's exact text; a test checks the file against it. */
export function openApiText(): string {
  return `${JSON.stringify(buildOpenApi(), null, 2)}\n`;
}

// Usage: node dist/server/write-openapi.js [path]   (default: openapi/openapi.json)
if (require.main === module) {
  const target = resolve(process.argv[2] ?? "openapi/openapi.json");
  mkdirSync(dirname(target), { recursive: true });
  writeFileSync(target, openApiText());
  console.log(`wrote ${target}`);
}
