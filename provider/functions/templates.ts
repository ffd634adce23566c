import type * as pulumi from "@pulumi/pulumi";
import { NotFoundError, type SavedTemplate, type WorkspaceClient } from "../../sdk";
import type { ConnectionArgs } from "../resources/inputs";
import { readOutput, readPromise, type DeclaredFields, type PlainConnectionArgs } from "./call";
import { shownTemplate } from "./shown";

/** Which template `getTemplate` reads. */
interface WhichTemplate {
  templateId?: string;
  name?: string;
}

export interface GetTemplateArgs extends PlainConnectionArgs {
  /** The template's id (`tpl_<hex>`). Set this or `name`. */
  templateId?: string;
  /** The template's name; two templates of that name fail, naming both ids. Set this or `templateId`. */
  name?: string;
}

export interface GetTemplateOutputArgs extends ConnectionArgs {
  /** The template's id (`tpl_<hex>`). Set this or `name`. */
  templateId?: pulumi.Input<string>;
  /** The template's name; two templates of that name fail, naming both ids. Set this or `templateId`. */
  name?: pulumi.Input<string>;
}

type WhichTemplateOutput = Pick<GetTemplateOutputArgs, "templateId" | "name">;

const templates = async (client: WorkspaceClient): Promise<SavedTemplate[]> =>
  (await client.listTemplates()).map(shownTemplate);

async function findSavedTemplate(client: WorkspaceClient, { templateId, name }: WhichTemplate): Promise<SavedTemplate> {
  const where = `workspace ${client.workspace}`;
  if ((templateId === undefined) === (name === undefined))
    throw new Error(`getTemplate: set exactly one of templateId and name`);
  if (templateId !== undefined) {
    try {
      return await client.getTemplate(templateId);
    } catch (err) {
      if (err instanceof NotFoundError) throw new Error(`getTemplate: ${where} has no template ${templateId}`);
      throw err;
    }
  }
  const named = (await client.listTemplates()).filter((t) => t.name === name);
  if (named.length === 0) throw new Error(`getTemplate: ${where} has no template named "${name}"`);
  if (named.length > 1)
    throw new Error(
      `getTemplate: ${where} has ${named.length} templates named "${name}": ${named.map((t) => t.id).join(", ")}; ask for one by templateId`,
    );
  return named[0];
}

const findTemplate = async (client: WorkspaceClient, which: WhichTemplate) =>
  shownTemplate(await findSavedTemplate(client, which));

/** The saved template of `templateId`, or the one named `name` (two of that name fail, naming both ids). */
export function getTemplate(args: GetTemplateArgs): Promise<SavedTemplate> {
  return readPromise("getTemplate", args, { templateId: args.templateId, name: args.name }, findTemplate);
}

/** `getTemplate` as an `Output`: its arguments may be outputs of other resources. */
export function getTemplateOutput(args: GetTemplateOutputArgs): pulumi.Output<DeclaredFields<SavedTemplate>> {
  return readOutput<WhichTemplateOutput, DeclaredFields<SavedTemplate>>(
    "getTemplate",
    args,
    { templateId: args.templateId, name: args.name },
    findTemplate,
  );
}

/** Every saved template of the workspace. */
export function listTemplates(args: PlainConnectionArgs = {}): Promise<SavedTemplate[]> {
  return readPromise("listTemplates", args, null, templates);
}

/** `listTemplates` as an `Output`: its arguments may be outputs of other resources. */
export function listTemplatesOutput(args: ConnectionArgs = {}): pulumi.Output<DeclaredFields<SavedTemplate>[]> {
  return readOutput<null, DeclaredFields<SavedTemplate>[]>("listTemplates", args, null, templates);
}
