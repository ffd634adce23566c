import { readFileSync } from "node:fs";
import { join } from "node:path";
import { ERROR_CODES } from "../../sdk/schemas";
import type { ServiceContext } from "../../server/context";
import { buildOpenApi } from "../../server/openapi";
import { resolveOptions } from "../../server/options";
import { buildRouter } from "../../server/routes";
import { openApiText } from "../../server/write-openapi";

type Doc = {
  paths: Record<string, Record<string, { responses: Record<string, unknown> }>>;
  components: Record<string, Record<string, unknown>>;
};
const doc = buildOpenApi() as unknown as Doc;

describe("openapi", () => {
  it("should be committed as openapi/openapi.json exactly as generated (node dist/server/write-openapi.js)", () => {
    const committed = readFileSync(join(__dirname, "../../openapi/openapi.json"), "utf8");
    expect(committed).toBe(openApiText());
  });

  it("should describe every route the service serves, and no other", () => {
    const ctx = { options: resolveOptions({}) } as ServiceContext;
    const served = buildRouter(ctx)
      .list()
      .map((r) => `${r.method} ${r.pattern.replace(/:([a-z]+)/g, "{$1}")}`)
      .sort();
    const documented = Object.entries(doc.paths)
      .flatMap(([path, ops]) => Object.keys(ops).map((m) => `${m.toUpperCase()} ${path}`))
      .sort();
    expect(documented).toEqual(served);
  });

  it("should document every error code of the catalogue as a response with the error body", () => {
    for (const status of Object.values(ERROR_CODES)) {
      expect(doc.components.responses[`Error${status}`]).toMatchObject({
        content: { "application/json": { schema: { $ref: "#/components/schemas/ErrorBody" } } },
      });
    }
  });

  it("should resolve every $ref", () => {
    const text = JSON.stringify(doc);
    const refs = new Set(
      [...text.matchAll(/"\$ref":"#\/components\/([A-Za-z]+)\/([A-Za-z0-9]+)"/g)].map((m) => [m[1], m[2]].join("/")),
    );
    expect(refs.size).toBeGreaterThan(10);
    for (const ref of refs) {
      const [section, name] = ref.split("/");
      expect(doc.components[section]?.[name]).toBeDefined();
    }
  });

  it("should derive the request schemas from the zod schemas (unknown fields refused, patterns kept)", () => {
    const vm = doc.components.schemas.CreateVm as {
      additionalProperties: boolean;
      properties: { id: { pattern: string } };
    };
    expect(vm.additionalProperties).toBe(false);
    expect(vm.properties.id.pattern).toBe("^[a-z0-9]([a-z0-9-]{0,61}[a-z0-9])?$");
  });
});
