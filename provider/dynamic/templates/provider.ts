import { sayWhereItStopped } from "../engine/stopped-here";
import {
  NotFoundError,
  type CallOptions,
  type SavedTemplate,
  type TemplateCreate,
  type WorkspaceClient,
} from "../../../sdk";
import { reachService } from "../service/check-live";
import { considerRecordedTemplate } from "../service/check-recorded";
import { createTemplateOnce } from "../service/read-back";
import { checkTemplate } from "./check";
import { classifyTemplateChanges } from "./diff";
import { requireConnection, resolveConnection } from "../service/connection";
import { connected } from "../service/connected";
import { settingsOnlyNotes } from "../service/settings-change";
import type { ManagedContext } from "../context";
import { diffResultOf } from "../diff-result";
import { sameValue } from "../inputs/equal";
import { guarded, secretsOf } from "../credentials/redacted-errors";
import { formatId, missingForGet, parseId } from "../inputs/ids";
import { TEMPLATE_RULES } from "../../fields/template-fields";
import { PROVIDER_KEY, type Props } from "../inputs/props";
import { openEnvelope } from "../inputs/envelope";
import { budgetOf, startOperation, type Operation, type OperationAccess, type OperationKind } from "../operation";
import { timeoutMsOf } from "../inputs/timeouts";
import type { ProviderImpl } from "../types";

/**
 * The operation `kind` of the template of `props`: its calls retry transient failures until its
 * one deadline, the `customTimeouts` the class carried (else 10 min), as a workload's do. A
 * template create is still sent once unless it provably never left (sdk/retry/decide.ts).
 */
function begin(ctx: OperationAccess, props: Props, kind: OperationKind): Operation {
  return startOperation(ctx, `${kind} of template ${String(props.name)}`, timeoutMsOf(props, budgetOf(kind)));
}

function templateBodyOf(props: Props): TemplateCreate {
  const body: Props = {};
  for (const k of TEMPLATE_RULES.bodyKeys) if (props[k] !== undefined && props[k] !== null) body[k] = props[k];
  return body as unknown as TemplateCreate;
}

/**
 * Takes over an existing template instead of creating one. There is no template update, so it is
 * taken over only as it is: every declared field must equal the saved one.
 */
async function adoptTemplate(
  client: WorkspaceClient,
  workspace: string,
  templateId: string,
  inputs: Props,
  call: CallOptions,
): Promise<SavedTemplate> {
  let t: SavedTemplate;
  try {
    t = await client.getTemplate(templateId, call);
  } catch (err) {
    if (err instanceof NotFoundError)
      throw new Error(
        `adoptId: template ${templateId} does not exist in workspace ${workspace}; remove adoptId to create a new template`,
      );
    throw err;
  }
  const saved: Props = { name: t.name, description: t.description, kind: t.kind, config: t.config };
  const differing = TEMPLATE_RULES.bodyKeys.filter((k) => !sameValue(saved[k], inputs[k]));
  if (differing.length > 0) {
    throw new Error(
      `adoptId: template ${templateId} differs from the declared one in ${differing.join(", ")}; a template cannot be updated, so declare it as saved (GET /v1/tenants/${workspace}/templates/${templateId}) or remove adoptId to create a new one`,
    );
  }
  return t;
}

/** The stored bag of the resource `id`, its workspace the one the id names, and the template id. */
function locate(id: string, props: Props): { base: Props; templateId: string } {
  const { workspace, id: templateId } = parseId(id, "template");
  return { base: { ...props, workspace }, templateId };
}

function live(props: Props, t: SavedTemplate): Props {
  const out: Props = {
    ...props,
    templateId: t.id,
    name: t.name,
    kind: t.kind,
    config: t.config,
    createdAt: t.createdAt,
  };
  if (t.description !== undefined) out.description = t.description;
  else delete out.description;
  return out;
}

/**
 * The dynamic provider of `Template`. Templates have server-generated ids and no update: any
 * change of a template field (or of the workspace) is a replacement, created before the old one
 * is deleted (the new id cannot collide). Connection changes are recorded without a request.
 */
export function createTemplateProvider(ctx: ManagedContext): ProviderImpl {
  return {
    configure: async (req) => ctx.configure(req.config),

    async check(_olds, news) {
      return guarded(
        () => secretsOf(news),
        async () => {
          const { envelope, given } = openEnvelope({}, news);
          const sources = ctx.sources();
          const connection = resolveConnection(given, sources);
          const outcome = checkTemplate(given, sources, connection);
          const reached = outcome.failures.length === 0 ? await reachService(ctx, connection) : undefined;
          if (reached && "failure" in reached) outcome.failures.push(reached.failure);
          sayWhereItStopped(ctx.progress, outcome.failures, envelope.urn);
          return outcome;
        },
      );
    },

    async diff(_id, olds, news) {
      // The recorded template id is an output: `check` is not given it, `diff` is (its olds are the outputs).
      await considerRecordedTemplate(ctx, olds, resolveConnection(news, ctx.sources())).catch(() => undefined);
      const { replaces, local } = classifyTemplateChanges(olds, news);
      for (const note of settingsOnlyNotes({ replaces, updates: [], restart: false, resumeWait: false, local }))
        ctx.progress.note(`template ${String(news.name)}: ${note}`);
      // Created before the old one is deleted: the new template gets a new id.
      const inputsChanged = replaces.length + local.length > 0;
      return diffResultOf({ inputsChanged, resumeWait: false, replaces, deleteFirst: false });
    },

    async create(inputs) {
      return connected(ctx, inputs, secretsOf(inputs), async ({ conn, client }) => {
        const op = begin(ctx, inputs, "create");
        const t =
          typeof inputs.adoptId === "string"
            ? await adoptTemplate(client, conn.workspace, inputs.adoptId, inputs, op.call)
            : await createTemplateOnce(ctx, client, templateBodyOf(inputs), op);
        // The declared config is kept (the service strips only passwords, which check refuses).
        const outs: Props = {
          ...inputs,
          workspace: conn.workspace,
          baseUrl: conn.baseUrl,
          templateId: t.id,
          createdAt: t.createdAt,
        };
        return { id: formatId(conn.workspace, t.id), outs };
      });
    },

    async read(id, props = {}) {
      const { base, templateId } = locate(id, props);
      return connected(ctx, base, secretsOf(base), async (reached) => {
        const { conn } = reached;
        reached.sayKeyInUse();
        let t: SavedTemplate;
        try {
          t = await reached.client.getTemplate(templateId, begin(ctx, base, "read").call);
        } catch (err) {
          // A `get` (its first read: only a declared or read template's state has a kind) names what is missing.
          if (err instanceof NotFoundError && base.kind === undefined)
            throw new Error(missingForGet("template", conn.workspace, templateId));
          if (err instanceof NotFoundError) return { id: "" }; // gone: leaves the stack
          throw err;
        }
        const outs = live({ ...base, baseUrl: conn.baseUrl }, t);
        const inputs = Object.fromEntries(
          Object.entries(outs).filter(([k]) => !TEMPLATE_RULES.outputKeys.includes(k) && k !== PROVIDER_KEY),
        );
        return { id, props: outs, inputs };
      });
    },

    async update(_id, olds, news) {
      // Only connection settings reach here (every template field replaces): nothing to send.
      const conn = requireConnection(news, ctx.sources());
      return {
        outs: {
          ...news,
          workspace: conn.workspace,
          baseUrl: conn.baseUrl,
          templateId: olds.templateId,
          createdAt: olds.createdAt,
        },
      };
    },

    async delete(id, props) {
      const { base, templateId } = locate(id, props);
      await connected(ctx, base, secretsOf(base), async (reached) => {
        reached.sayKeyInUse();
        try {
          await reached.client.deleteTemplate(templateId, begin(ctx, base, "delete").call);
        } catch (err) {
          if (!(err instanceof NotFoundError)) throw err; // 404: already gone
        }
      });
    },
  };
}
