import Ajv2020 from "ajv/dist/2020";
import addFormats from "ajv-formats";
import { buildOpenApi } from "../../server/openapi";

type Obj = Record<string, any>; // eslint-disable-line @typescript-eslint/no-explicit-any

const doc = buildOpenApi() as Obj;
const DOC_ID = "https://wws.local/openapi.json";
const ajv = new Ajv2020({ strict: false, allErrors: true });
addFormats(ajv);
ajv.addSchema({ ...doc, $id: DOC_ID });

/** Each documented path as a pattern, concrete paths before templated ones (as OpenAPI matches them). */
const routes = Object.keys(doc.paths as Obj)
  .map((path) => ({
    path,
    templated: path.includes("{"),
    pattern: new RegExp(`^${path.replace(/\./g, "\\.").replace(/\{[^}]+\}/g, "[^/]+")}$`),
  }))
  .sort((a, b) => Number(a.templated) - Number(b.templated));

const resolve = (node: Obj): Obj =>
  typeof node.$ref === "string"
    ? resolve(
        node.$ref
          .slice(2)
          .split("/")
          .reduce((o: Obj, k: string) => o[k], doc),
      )
    : node;

/**
 * What is wrong with an answer of the service by its OpenAPI document, or undefined when it
 * agrees: the status must be documented for the operation, and a JSON body must match its schema.
 * Answers to undocumented paths or methods (tests of 404 and 405) are not the document's to judge.
 */
export function responseProblem(method: string, url: string, status: number, text: string): string | undefined {
  const path = new URL(url).pathname;
  const route = routes.find((r) => r.pattern.test(path));
  const operation = route && (doc.paths[route.path] as Obj)[method.toLowerCase()];
  if (!operation) return undefined;
  const what = `${method} ${path} → ${status}`;
  const documented = operation.responses[String(status)];
  if (!documented) return `${what}: status not documented for ${route.path}`;
  const content = resolve(documented).content as Obj | undefined;
  const schema = content?.["application/json"]?.schema;
  if (!schema || text === "") return undefined;
  const validate = ajv.getSchema(`${DOC_ID}${schema.$ref ?? ""}`) ?? ajv.compile(schema);
  if (validate(JSON.parse(text))) return undefined;
  return `${what}: the body does not match ${schema.$ref ?? "its schema"}: ${ajv.errorsText(validate.errors)}`;
}

/** Whether `value` matches the named component schema of the document (a request body, a parameter). */
export function matchesSchema(schema: Obj, value: unknown): boolean {
  const validate = schema.$ref ? ajv.getSchema(`${DOC_ID}${schema.$ref}`) : ajv.compile(schema);
  if (!validate) throw new Error(`no schema ${schema.$ref}`);
  return validate(value) as boolean;
}

/** The operation the document gives for `method` on the documented `path` (as written in the document). */
export function operationOf(method: string, path: string): Obj {
  return (doc.paths[path] as Obj)[method.toLowerCase()] as Obj;
}

/** The schema of an operation's JSON request body. */
export const requestSchemaOf = (method: string, path: string): Obj =>
  operationOf(method, path).requestBody.content["application/json"].schema as Obj;

/** The schema of an operation's parameter. */
export const parameterSchemaOf = (method: string, path: string, name: string): Obj =>
  (operationOf(method, path).parameters as Obj[]).find((p) => p.name === name)!.schema as Obj;
