import { readFileSync } from "node:fs";
import { join } from "node:path";
import { argsSource } from "../../../provider/fields/args-source";
import { formatted } from "../../../generate/field-docs";

const ROOT = join(__dirname, "../../..");
const FILE = join(ROOT, "provider/resources/args.ts");

describe("provider/resources/args.ts, the classes' argument interfaces", () => {
  it("should be committed exactly as generated from the declarations and the schemas (npm run docs:fields)", () => {
    expect(readFileSync(FILE, "utf8")).toBe(formatted(argsSource(), FILE));
  });

  it("should say on hover what the declarations say: a database engine's replacement, a pod source's secrecy, a default", () => {
    const source = argsSource();
    expect(source).toMatch(
      /The database engine: one of `postgres`, `redis`\. A change replaces it \(\*\*deleted first\*\*/,
    );
    expect(source).toMatch(
      /Build from source instead of an image.*A Pulumi secret: a repository URL may carry a token/,
    );
    expect(source).toMatch(
      /Wait for readiness\..*\n\s+\* @default true\n\s+\*\/\n\s+waitForReady\?: pulumi\.Input<boolean>;/,
    );
    expect(source).toMatch(/password: pulumi\.Input<string>;/);
  });
});
