import {
  TEMPLATE_CONFIG_MAX_BYTES,
  TEMPLATE_CONFIG_MAX_DEPTH,
  TemplateCreate,
  WorkloadType,
  configByteLength,
  jsonDepth,
  specKeyOf,
  templatePasswordPaths,
} from "../../../sdk";
import { checkConnection } from "../service/check-connection";
import { customTimeoutsFailures } from "../inputs/timeouts";
import type { CheckOutcome } from "../types";
import { resolveConnection, type ConnectionSources, type ResolvedConnection } from "../service/connection";
import { failureAt, issuesToFailures, schemaFailures, type Failure } from "../inputs/failures";
import { TEMPLATE_FIELDS, TEMPLATE_RULES } from "../../fields/template-fields";
import { blueprintFields, blueprintSchema } from "../../fields/template-blueprint";
import { PROVIDER_KEY, type Props } from "../inputs/props";
import { containsUnknown, isUnknown } from "../inputs/unknown";

const isPlainObject = (v: unknown): v is Props => typeof v === "object" && v !== null && !Array.isArray(v);

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
 * The spec object of a template (`config.pod`, …), field by field, as its kind's class checks it
 * (provider/fields/template-blueprint.ts), failures named from `config`. Its passwords are left
 * out: they are refused apart. Fields whose value is not known yet are let through.
 */
function blueprintFailures(kind: unknown, config: Props): Failure[] {
  if (isUnknown(kind) || !WorkloadType.safeParse(kind).success) return [];
  const type = kind as WorkloadType;
  const key = specKeyOf(type);
  if (isUnknown(config[key]) || !isPlainObject(config[key])) return [];
  // A copy without the passwords the service would strip.
  const spec = structuredClone(config[key]);
  for (const [top, ...path] of templatePasswordPaths(config)) {
    if (top !== key) continue;
    const parent = path.slice(0, -1).reduce<Props>((node, k) => node[k] as Props, spec);
    delete parent[path[path.length - 1]];
  }
  const unknownKeys = new Set(Object.keys(spec).filter((k) => containsUnknown(spec[k])));
  for (const k of unknownKeys) delete spec[k];
  const schema = blueprintSchema(type);
  return schemaFailures(schema, spec, { unknownKeys, knownFields: blueprintFields(type), schema, at: ["config", key] })
    .failures;
}

/**
 * `check` of a template: the zod schema of the body, per field (with the 64 KB limit of the
 * serialized `config`); the fields of its spec object as its kind's class checks them; no password anywhere the service would strip one (a template is a
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
  if (isPlainObject(config)) {
    if (!outcome.rulesRan && !unknownKeys.has("config")) failures.push(...configRules(body.kind, config, unknownKeys));
    // The password walk and the blueprint's check recurse: only over a config of a depth (and, for the check, a size) the service accepts.
    const walkable = jsonDepth(config, TEMPLATE_CONFIG_MAX_DEPTH) <= TEMPLATE_CONFIG_MAX_DEPTH;
    if (walkable && configByteLength(config) <= TEMPLATE_CONFIG_MAX_BYTES)
      failures.push(...blueprintFailures(news.kind, config));
    for (const path of walkable ? templatePasswordPaths(config) : []) {
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
