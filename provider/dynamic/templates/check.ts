import {
  TEMPLATE_CONFIG_MAX_BYTES,
  TEMPLATE_CONFIG_MAX_DEPTH,
  TemplateCreate,
  WorkloadType,
  configByteLength,
  jsonDepth,
  templatePasswordPaths,
} from "../../../sdk";
import { checkConnection } from "../service/check-connection";
import { customTimeoutsFailures } from "../inputs/timeouts";
import type { CheckOutcome } from "../types";
import { resolveConnection, type ConnectionSources, type ResolvedConnection } from "../service/connection";
import { failureAt, issuesToFailures, schemaFailures, type Failure } from "../inputs/failures";
import { TEMPLATE_FIELDS, TEMPLATE_RULES } from "../../fields/template-fields";
import { PROVIDER_KEY, type Props } from "../inputs/props";
import { containsUnknown } from "../inputs/unknown";

/** Keys of a template's property bag that are not fields of the create body. */
const NOT_BODY = new Set<string>([
  ...Object.keys(TEMPLATE_FIELDS).filter((k) => !TEMPLATE_RULES.bodyKeys.includes(k)),
  PROVIDER_KEY,
]);

/** Limits the schema checks in a rule, which zod skips while another field fails: checked here then. */
function configLimits(config: unknown): Failure[] {
  if (jsonDepth(config, TEMPLATE_CONFIG_MAX_DEPTH) > TEMPLATE_CONFIG_MAX_DEPTH) {
    return [failureAt(["config"], `nests objects and arrays more than ${TEMPLATE_CONFIG_MAX_DEPTH} levels deep`)];
  }
  const bytes = configByteLength(config);
  if (bytes > TEMPLATE_CONFIG_MAX_BYTES) {
    return [
      failureAt(
        ["config"],
        `at most ${TEMPLATE_CONFIG_MAX_BYTES} bytes serialized (64 KB); this one is ${bytes}: make it smaller`,
      ),
    ];
  }
  return [];
}

/**
 * The schema's rules about `config` (spec key, depth, size), when zod skipped them because another
 * field is missing: run on the config alone, with a stand-in name, if the kind is known and valid.
 */
function configRules(kind: unknown, config: Props, unknownKeys: ReadonlySet<string>): Failure[] {
  if (unknownKeys.has("kind") || !WorkloadType.safeParse(kind).success) return configLimits(config);
  const body = { name: "stand-in", kind, config };
  const parsed = TemplateCreate.safeParse(body);
  return parsed.success ? [] : issuesToFailures(parsed.error, { unknownKeys, input: body });
}

/**
 * `check` of a template: the zod schema of the body, per field (with the 64 KB limit of the
 * serialized `config`); no password anywhere the service would strip one (a template is a
 * blueprint, credentials belong to the workload); the connection (`connection`: as the method
 * resolved it). `news`: the inputs out of their envelope (inputs/envelope.ts). Unknown values
 * (preview) are let through.
 */
export function checkTemplate(
  news: Props,
  sources: ConnectionSources,
  connection: ResolvedConnection = resolveConnection(news, sources),
): CheckOutcome {
  const inputs: Props = { ...news };
  const failures: Failure[] = checkConnection(connection, sources, inputs);

  const body: Props = {};
  for (const [k, v] of Object.entries(news)) if (!NOT_BODY.has(k) && v !== undefined && v !== null) body[k] = v;
  const unknownKeys = new Set(Object.keys(body).filter((k) => containsUnknown(body[k])));
  for (const k of unknownKeys) delete body[k];
  const outcome = schemaFailures(TemplateCreate, body, {
    unknownKeys,
    knownFields: TEMPLATE_RULES.bodyKeys,
    schema: TemplateCreate,
    otherArguments: TEMPLATE_RULES.connectionKeys,
  });
  failures.push(...outcome.failures, ...customTimeoutsFailures(news));
  const adoptId = news.adoptId;
  if (
    adoptId !== undefined &&
    adoptId !== null &&
    !containsUnknown(adoptId) &&
    (typeof adoptId !== "string" || !/^tpl_[0-9a-f]+$/.test(adoptId))
  ) {
    failures.push(
      failureAt(
        ["adoptId"],
        "must be the id of an existing template, tpl_<hex> (see GET /v1/tenants/<workspace>/templates)",
      ),
    );
  }

  const config = news.config;
  if (typeof config === "object" && config !== null && !Array.isArray(config)) {
    if (!outcome.rulesRan && !unknownKeys.has("config"))
      failures.push(...configRules(body.kind, config as Props, unknownKeys));
    // The password walk recurses: only over a config of a depth the service accepts.
    const walkable = jsonDepth(config, TEMPLATE_CONFIG_MAX_DEPTH) <= TEMPLATE_CONFIG_MAX_DEPTH;
    for (const path of walkable ? templatePasswordPaths(config as Record<string, unknown>) : []) {
      failures.push(
        failureAt(
          ["config", ...path],
          "a template cannot hold a password: the service strips it before storing, so it would be lost. Remove it and set credentials on the workload made from the template",
          news,
        ),
      );
    }
  }
  return { inputs, failures };
}
