import { writeFileSync } from "node:fs";
import { resolve } from "node:path";
import { fieldReference } from "./reference";

// Usage: npm run docs:fields   (node dist/provider/fields/write-reference.js [path], default docs/fields.md)
if (require.main === module) {
  const target = resolve(process.argv[2] ?? "docs/fields.md");
  writeFileSync(target, fieldReference());
  console.log(`wrote ${target}`);
}
