// Lints an OpenAPI document with Redocly's recommended-strict rules; prints the problems as JSON.
// A child process of the test: @redocly/openapi-core is an ES module, which jest's CommonJS cannot load.
// Usage: node lint-openapi.mjs <document.json>
import { readFileSync } from "node:fs";
import { createConfig, lintFromString } from "@redocly/openapi-core";

const config = await createConfig({
  extends: ["recommended-strict"],
  // `/healthz` answers 200 or nothing: it has no 4xx to document.
  rules: { "operation-4xx-response": "warn" },
});
const problems = await lintFromString({
  source: readFileSync(process.argv[2], "utf8"),
  absoluteRef: "/openapi.json",
  config,
});
const rows = problems.map((p) => ({
  severity: p.severity,
  rule: p.ruleId,
  message: p.message,
  at: p.location[0]?.pointer,
}));
process.stdout.write(JSON.stringify(rows));
