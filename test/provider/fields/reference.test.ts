import { readFileSync } from "node:fs";
import { join } from "node:path";
import * as ts from "typescript";
import { CREATE_BODY, TemplateCreate, createBodyFields, type WorkloadType } from "../../../sdk/schemas";
import { replaces, type FieldTable } from "../../../provider/fields/declaration";
import { CONFIG_EXAMPLES, fieldReference } from "../../../provider/fields/reference";
import { TEMPLATE_FIELDS } from "../../../provider/fields/template-fields";
import { WORKLOAD_FIELDS } from "../../../provider/fields/workload-fields";

const ROOT = join(__dirname, "../../..");
const page = readFileSync(join(ROOT, "docs/fields.md"), "utf8");

/** The rows of a `## <title>` section's first table, by field: [type, required, default, secret, change]. */
function rowsOf(title: string): Map<string, string[]> {
  const start = page.indexOf(`\n## ${title}\n`);
  const end = page.indexOf("\n## ", start + 1);
  const section = page.slice(start + 1, end === -1 ? undefined : end);
  const rows = section.split("\n").filter((l) => /^\| `[^`]+` \|/.test(l));
  return new Map(
    rows
      .map((l) => l.split(" | ").map((c) => c.replace(/^\| |\s*\|$/g, "")))
      .map((c) => [c[0].slice(1, -1), c.slice(1)]),
  );
}

/** Each property of an interface of `file` with its doc comment, the interfaces it extends included. */
function argsDocs(file: string, name: string): Map<string, string> {
  const source = ts.createSourceFile(file, readFileSync(join(ROOT, file), "utf8"), ts.ScriptTarget.ES2022, true);
  const docs = new Map<string, string>();
  source.forEachChild((node) => {
    if (!ts.isInterfaceDeclaration(node) || node.name.text !== name) return;
    for (const member of node.members) {
      if (!ts.isPropertySignature(member)) continue;
      const jsDoc = (member as unknown as { jsDoc?: ts.JSDoc[] }).jsDoc ?? [];
      docs.set(
        member.name.getText(source),
        `${jsDoc.map((d) => d.getText(source)).join("\n")} ${member.type?.getText(source)}`,
      );
    }
  });
  return docs;
}

/** The classes' argument interfaces, generated from the declarations (test/provider/fields/args.test.ts). */
const ARGS = "provider/resources/args.ts";
const COMMON = new Map([...argsDocs(ARGS, "ConnectionArgs"), ...argsDocs(ARGS, "WaitArgs")]);
const CLASSES: Array<[title: string, type: WorkloadType, file: string, args: string]> = [
  ["VirtualMachine", "vm-ubuntu", "provider/resources/virtual-machine.ts", "VirtualMachineArgs"],
  ["Pod", "pod", "provider/resources/pod.ts", "PodArgs"],
  ["Browser", "browser", "provider/resources/browser.ts", "BrowserArgs"],
  ["Controller", "controller", "provider/resources/controller.ts", "ControllerArgs"],
  ["Database", "storage", "provider/resources/database.ts", "DatabaseArgs"],
];

describe("docs/fields.md, the field reference", () => {
  it("should be committed exactly as generated from the declarations (npm run docs:fields)", () => {
    expect(page).toBe(fieldReference());
  });

  it.each(CLASSES)("should list every field of a %s's create body, nested ones included", (title, type) => {
    const rows = rowsOf(title);
    for (const field of createBodyFields(type)) expect([...rows.keys()]).toContain(field);
    expect(rows.get("credentials.password")?.[0] ?? "1 to 1024").toMatch(/1 to 1024/);
  });

  it("should say what a change of each declared argument does, every workload's and a template's", () => {
    const effect = { replace: /created first/, "replace-delete-first": /deleted first/, local: /nothing sent/ };
    const check = (rows: Map<string, string[]>, fields: FieldTable): void => {
      for (const [key, d] of Object.entries(fields)) {
        if (d.argument === false || d.role === "output" || d.role === "drift" || d.role === "credential") continue;
        expect(`${key}: ${rows.get(key)?.[4]}`).toMatch(
          d.changeIf ? /restart call/ : effect[d.change as keyof typeof effect],
        );
        if (d.default !== undefined) expect(rows.get(key)?.[2]).toBe(`\`${d.default}\``);
        if (d.secret) expect(rows.get(key)?.[3]).toMatch(/secret/);
      }
    };
    check(rowsOf("Every workload"), WORKLOAD_FIELDS);
    check(rowsOf("Template"), TEMPLATE_FIELDS);
    expect(rowsOf("Database").get("credentials")?.[4]).toMatch(/deleted first.*allowDataLoss: true/);
    expect(rowsOf("Database").get("engine")?.[4]).toMatch(/deleted first/);
  });

  it.each(Object.entries(CONFIG_EXAMPLES))("should give a %s template a config the schemas accept", (kind, config) => {
    expect(TemplateCreate.safeParse({ name: "t", kind, config }).error?.issues).toBeUndefined();
    const [spec] = Object.values(config) as Array<Record<string, unknown>>;
    const login = kind === "storage" ? { credentials: { password: "p" } } : {};
    expect(CREATE_BODY[kind as WorkloadType].safeParse({ id: "x", ...spec, ...login }).error?.issues).toBeUndefined();
    expect(page).toContain(JSON.stringify(config));
  });
});

describe("the classes' doc comments", () => {
  it.each(CLASSES)("should say what the reference says of each %s argument", (title, _type, file, args) => {
    const docs = new Map([...COMMON, ...argsDocs(ARGS, args)]);
    for (const [field, [type, , , , change]] of rowsOf(title)) {
      if (field.includes(".")) continue;
      const doc = docs.get(field);
      expect(`${field}: ${doc}`).not.toMatch(/undefined$/);
      for (const value of type.match(/`[^`<]+`/g) ?? [])
        if (/^one of/.test(type)) expect(`${field}: ${doc}`).toContain(value.slice(1, -1));
      for (const n of type.match(/\d+ to \d+/g) ?? [])
        expect(`${field}: ${doc}`).toMatch(new RegExp(n.replace(" to ", "[- ].*")));
      if (/`<N>Mi`/.test(type)) expect(`${field}: ${doc}`).toContain("`<N>Mi`");
      if (/millicores/.test(type)) expect(`${field}: ${doc}`).toContain("millicores");
      if (/^replaces it/.test(change)) expect(`${field}: ${doc}`).toMatch(/replac/i);
    }
    expect(readFileSync(join(ROOT, file), "utf8")).toContain(`@see pulumi-wws/docs/fields.md#${title.toLowerCase()}`);
  });

  it("should give every option its declared default and say which changes replace", () => {
    for (const [key, d] of Object.entries(WORKLOAD_FIELDS as FieldTable)) {
      const doc = COMMON.get(key);
      if (doc === undefined) continue;
      if (typeof d.default === "boolean") expect(`${key}: ${doc}`).toContain(`@default ${d.default}`);
      if (replaces(d.change)) expect(`${key}: ${doc}`).toMatch(/replaces/);
    }
  });
});
