import { randomBytes } from "node:crypto";
import {
  TEMPLATE_CONFIG_MAX_BYTES,
  TEMPLATE_CONFIG_MAX_DEPTH,
  TemplateCreate,
  configByteLength,
  issuesToDetails,
  jsonDepth,
  stripTemplatePasswords,
} from "../../sdk/schemas";
import type { ServiceContext } from "../context";
import { readJson } from "../http/body";
import { ErrorReply, notFound, validationFailed } from "../http/errors";
import { sendEmpty, sendJson } from "../http/respond";
import type { Router } from "../http/router";
import type { TemplateRecord } from "../state/types";
import { templateIdParam, workspaceOf } from "./params";

/** The size limit is checked before the schema: an oversized config is refused whatever else is wrong. */
function checkConfigSize(body: unknown): void {
  const config = (body as { config?: unknown } | null)?.config;
  if (typeof body !== "object" || body === null || config === undefined) return;
  // Too deep to serialize safely: the schema refuses it (400) without serializing it.
  if (jsonDepth(config, TEMPLATE_CONFIG_MAX_DEPTH) > TEMPLATE_CONFIG_MAX_DEPTH) return;
  const bytes = configByteLength(config);
  if (bytes > TEMPLATE_CONFIG_MAX_BYTES) {
    throw new ErrorReply(
      "payload_too_large",
      `template config is ${bytes} bytes serialized; the limit is ${TEMPLATE_CONFIG_MAX_BYTES}`,
      [{ path: "config", message: `at most ${TEMPLATE_CONFIG_MAX_BYTES} bytes serialized` }],
    );
  }
}

/**
 * `JSON.parse` keeps a top-level `__proto__` key of `config` as an own property, and the schema's
 * record drops it without a word; the contract refuses every top-level key but the spec's.
 */
function checkConfigKeys(body: unknown): void {
  const config = (body as { config?: unknown } | null)?.config;
  if (typeof config === "object" && config !== null && Object.hasOwn(config, "__proto__"))
    throw validationFailed([
      { path: "config.__proto__", message: "not a spec key; a template holds its spec under config.<spec key> only" },
    ]);
}

export function templateRoutes(ctx: ServiceContext, router: Router): void {
  router.add("POST", "/v1/tenants/:name/templates", "workspace", async (rc) => {
    const ws = workspaceOf(ctx, rc);
    const body = await readJson(rc.req);
    checkConfigSize(body);
    checkConfigKeys(body);
    const parsed = TemplateCreate.safeParse(body);
    if (!parsed.success) throw validationFailed(issuesToDetails(parsed.error));
    const t: TemplateRecord = {
      id: `tpl_${randomBytes(8).toString("hex")}`,
      name: parsed.data.name,
      ...(parsed.data.description !== undefined ? { description: parsed.data.description } : {}),
      kind: parsed.data.kind,
      config: stripTemplatePasswords(parsed.data.config),
      createdAt: new Date().toISOString(),
    };
    ws.templates.set(t.id, t);
    ws.audit(rc.actor ?? "api", "template.created", { type: "template", id: t.id }, { name: t.name, kind: t.kind });
    ctx.store.changed();
    sendJson(rc.res, 201, t);
  });

  router.add("GET", "/v1/tenants/:name/templates", "workspace", (rc) => {
    sendJson(rc.res, 200, { templates: [...workspaceOf(ctx, rc).templates.values()] });
  });

  router.add("GET", "/v1/tenants/:name/templates/:id", "workspace", (rc) => {
    const t = workspaceOf(ctx, rc).templates.get(templateIdParam(rc));
    if (!t) throw notFound("template", "id");
    sendJson(rc.res, 200, t);
  });

  router.add("DELETE", "/v1/tenants/:name/templates/:id", "workspace", (rc) => {
    const ws = workspaceOf(ctx, rc);
    const id = templateIdParam(rc);
    const t = ws.templates.get(id);
    if (!t) throw notFound("template", "id");
    ws.templates.delete(id);
    ws.audit(rc.actor ?? "api", "template.deleted", { type: "template", id }, { name: t.name, kind: t.kind });
    ctx.store.changed();
    sendEmpty(rc.res, 204);
  });
}
