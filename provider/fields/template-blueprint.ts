import { z } from "zod";
import { CREATE_BODY, Credentials, type WorkloadType } from "../../sdk";

/**
 * What a Template's spec object (`config.pod`, `config.vm`, …) is checked against at preview: the
 * fields of its kind's create body (the declarations its class checks, sdk/schemas/workloads.ts),
 * with their messages. A blueprint is a part of a spec, so none of them is required here, and its
 * `credentials` never hold a password (a template keeps none: templates/check.ts refuses it).
 */

/** What the service spec (2.4) lets a browser blueprint hold beyond the class's fields. */
const AiAgent = z.strictObject({
  enabled: z.boolean().optional(),
  provider: z.string().min(1).optional(),
  model: z.string().min(1).optional(),
});
const TEMPLATE_ONLY: Partial<Record<WorkloadType, Record<string, z.ZodType>>> = { browser: { aiAgent: AiAgent } };

/**
 * Values for the fields a create body requires, so that its cross-field rules (a pod's "image or
 * source.repo", a database's "backup only for postgres") can run over a blueprint: each is one no
 * rule refuses. A rule's issue about a field the blueprint leaves out is dropped.
 */
const STAND_INS: Readonly<Record<string, unknown>> = Object.freeze({
  id: "stand-in",
  engine: "postgres",
  credentials: { password: "stand-in" },
});

/** The fields a blueprint of `kind` may hold, in the create body's order. */
export function blueprintFields(kind: WorkloadType): string[] {
  return [...Object.keys(CREATE_BODY[kind].shape).filter((k) => k !== "id"), ...Object.keys(TEMPLATE_ONLY[kind] ?? {})];
}

function buildSchema(kind: WorkloadType): z.ZodType {
  const body = CREATE_BODY[kind];
  const shape = body.shape as Record<string, z.ZodType>;
  const fields: Record<string, z.ZodType> = {};
  for (const key of blueprintFields(kind)) {
    const field = key === "credentials" ? Credentials.partial() : (shape[key] ?? TEMPLATE_ONLY[kind]?.[key]);
    if (field) fields[key] = field.optional();
  }
  const standIns = Object.fromEntries(Object.entries(STAND_INS).filter(([k]) => k in shape));
  return z.strictObject(fields).superRefine((spec, ctx) => {
    // The body's own fields only, its login a stand-in's: the fields were checked above.
    const own = Object.fromEntries(Object.entries(spec).filter(([k]) => k in shape && k !== "credentials"));
    const whole = body.safeParse({ ...standIns, ...own });
    for (const issue of whole.success ? [] : whole.error.issues) {
      if (issue.code !== "custom" || !(String(issue.path[0]) in spec)) continue;
      ctx.addIssue({ code: "custom", path: issue.path, message: issue.message });
    }
  });
}

const SCHEMAS = new Map<WorkloadType, z.ZodType>();

/** The schema of a blueprint of `kind` (see above), built once per kind. */
export function blueprintSchema(kind: WorkloadType): z.ZodType {
  let schema = SCHEMAS.get(kind);
  if (!schema) SCHEMAS.set(kind, (schema = buildSchema(kind)));
  return schema;
}

/** The create-body fields a blueprint may leave out though its class requires them (the stand-ins above). */
export const STAND_IN_KEYS: readonly string[] = Object.keys(STAND_INS);
