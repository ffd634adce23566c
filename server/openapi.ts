import {
  DNS_LABEL,
  ERROR_CODES,
  EVENT_TYPES,
  TEMPLATE_CONFIG_MAX_BYTES,
  TEMPLATE_CONFIG_MAX_DEPTH,
  WORKLOAD_TYPES,
  isVmType,
  type WorkloadType,
} from "../sdk/schemas";
import { TEMPLATE_ID } from "./routes/params";
import { EVENT_SCHEMAS, componentSchemas, ref } from "./openapi-schemas";

type Obj = Record<string, unknown>;

const STATUS_TEXT: Record<number, string> = {
  400: "validation failed (details name the fields)",
  401: "missing or unknown API key",
  403: "the API key belongs to another workspace",
  404: "not found",
  409: "conflict with the current state",
  413: "payload too large",
  415: "unsupported media type (send application/json)",
  429: "rate limited (see Retry-After)",
  500: "internal error",
  503: "unavailable (see Retry-After)",
};

const json = (schema: Obj): Obj => ({ "application/json": { schema } });
const requestId = { "x-request-id": { $ref: "#/components/headers/RequestId" } };

function ok(description: string, schema?: Obj, content = "application/json"): Obj {
  return { description, headers: requestId, ...(schema ? { content: { [content]: { schema } } } : {}) };
}

/** Error answers of an operation, as refs to `components.responses`; 429, 500 and 503 can come from any /v1 operation. */
function errors(...statuses: number[]): Obj {
  return Object.fromEntries(
    [...statuses, 429, 500, 503].map((status) => [String(status), { $ref: `#/components/responses/Error${status}` }]),
  );
}

function errorResponses(): Obj {
  return Object.fromEntries(
    Object.entries(STATUS_TEXT).map(([status, description]) => {
      const retry =
        status === "429" || status === "503" ? { "retry-after": { $ref: "#/components/headers/RetryAfter" } } : {};
      return [`Error${status}`, { description, headers: { ...requestId, ...retry }, content: json(ref("ErrorBody")) }];
    }),
  );
}

const AUTH = [401, 403];
const pathParam = (name: string, schema: Obj, description?: string): Obj => ({
  name,
  in: "path",
  required: true,
  ...(description !== undefined ? { description } : {}),
  schema,
});
const label = { type: "string", pattern: DNS_LABEL.source, maxLength: 63 };
const nameParam = pathParam("name", label, "workspace (tenant) name: a DNS label");
const idParam = pathParam("id", label, "workload id within the workspace: a DNS label");
const templateIdParam = pathParam("id", { type: "string", pattern: TEMPLATE_ID.source }, "template id");

function op(operationId: string, summary: string, parameters: Obj[], responses: Obj, extra: Obj = {}): Obj {
  return { operationId, summary, parameters, responses, ...extra };
}

/** The create body of each workload type: one concrete path per type, so each has one schema. */
function createSchemaOf(type: WorkloadType): string {
  if (isVmType(type)) return "CreateVm";
  return `Create${type[0].toUpperCase()}${type.slice(1)}`;
}

const camel = (type: string): string => type.replace(/(^|-)([a-z])/g, (_, _dash, c: string) => c.toUpperCase());

function createPaths(t: string): Obj {
  return Object.fromEntries(
    WORKLOAD_TYPES.map((type) => [
      `${t}/workloads/${type}`,
      {
        post: op(
          `upsert${camel(type)}`,
          `Create or update (upsert by body.id) a ${type} workload`,
          [nameParam],
          { "202": ok("accepted; poll /status", ref("CreateResponse")), ...errors(400, ...AUTH, 409, 413, 415) },
          { requestBody: { required: true, content: json(ref(createSchemaOf(type) as "CreateVm")) } },
        ),
      },
    ]),
  );
}

function paths(): Obj {
  const t = "/v1/tenants/{name}";
  return {
    "/healthz": {
      get: {
        operationId: "getHealth",
        summary: "Liveness",
        security: [],
        responses: { "200": ok("alive", ref("Health")) },
      },
    },
    "/v1/openapi.json": {
      get: {
        operationId: "getOpenApi",
        summary: "This document",
        security: [],
        responses: { "200": ok("OpenAPI 3.1 document", { type: "object" }), ...errors() },
      },
    },
    ...createPaths(t),
    [`${t}/workloads/{id}`]: {
      delete: op("deleteWorkload", "Delete a workload (Deleting, then gone)", [nameParam, idParam], {
        "202": ok("deleting", ref("DeleteResponse")),
        ...errors(400, ...AUTH, 404),
      }),
    },
    [`${t}/workloads/{id}/status`]: {
      get: op("getWorkloadStatus", "Status record of a workload", [nameParam, idParam], {
        "200": ok("status", ref("WorkloadStatus")),
        ...errors(400, ...AUTH, 404),
      }),
    },
    [`${t}/workloads/{id}/restart`]: {
      post: op("restartWorkload", "Restart a workload", [nameParam, idParam], {
        "200": ok("restart accepted", ref("RestartResponse")),
        ...errors(400, ...AUTH, 404, 409),
      }),
    },
    [`${t}/spec`]: {
      get: op("getSpec", "The workspace's desired state (no credentials)", [nameParam], {
        "200": ok("spec", ref("TenantSpec")),
        ...errors(400, ...AUTH),
      }),
    },
    [`${t}/templates`]: {
      post: op(
        "createTemplate",
        "Save a template (passwords stripped)",
        [nameParam],
        { "201": ok("created", ref("Template")), ...errors(400, ...AUTH, 413, 415) },
        {
          description: `\`config\` holds the kind's spec under its spec key (and an optional top-level \`password\`, stripped): any other top-level key is 400. Serialized (UTF-8 JSON) it is at most ${TEMPLATE_CONFIG_MAX_BYTES} bytes, else 413; objects and arrays nest at most ${TEMPLATE_CONFIG_MAX_DEPTH} levels deep (\`config\` itself is level 1), else 400.`,
          requestBody: { required: true, content: json(ref("TemplateCreate")) },
        },
      ),
      get: op("listTemplates", "List templates", [nameParam], {
        "200": ok("templates", ref("TemplateList")),
        ...errors(400, ...AUTH),
      }),
    },
    [`${t}/templates/{id}`]: {
      get: op("getTemplate", "One template", [nameParam, templateIdParam], {
        "200": ok("template", ref("Template")),
        ...errors(400, ...AUTH, 404),
      }),
      delete: op("deleteTemplate", "Delete a template", [nameParam, templateIdParam], {
        "204": ok("deleted"),
        ...errors(400, ...AUTH, 404),
      }),
    },
    [`${t}/pulse`]: {
      get: op("getPulse", "Snapshot to load before opening the stream", [nameParam], {
        "200": ok("pulse", ref("Pulse")),
        ...errors(400, ...AUTH),
      }),
    },
    [`${t}/activity`]: {
      get: op(
        "listActivity",
        "Audit rows in id order: after `after`, else the newest",
        [
          nameParam,
          {
            name: "after",
            in: "query",
            required: false,
            description: "an activity row id",
            schema: { type: "integer", minimum: 0, maximum: Number.MAX_SAFE_INTEGER },
          },
          {
            name: "limit",
            in: "query",
            required: false,
            schema: { type: "integer", minimum: 1, maximum: 1000, default: 100 },
          },
        ],
        { "200": ok("rows", ref("ActivityList")), ...errors(400, ...AUTH) },
      ),
    },
    [`${t}/asks`]: {
      get: op("listAsks", "Open asks", [nameParam], { "200": ok("asks", ref("AskList")), ...errors(400, ...AUTH) }),
    },
    [`${t}/secrets`]: {
      get: op("listSecrets", "Secret paths and update times, never values", [nameParam], {
        "200": ok("secrets", ref("SecretList")),
        ...errors(400, ...AUTH),
      }),
    },
    [`${t}/events/stream`]: {
      get: op(
        "streamEvents",
        "Server-Sent-Events stream of the workspace",
        [
          nameParam,
          { name: "Last-Event-ID", in: "header", required: false, schema: { type: "string" } },
          {
            name: "lastEventId",
            in: "query",
            required: false,
            description: "used when the header is absent",
            schema: { type: "string" },
          },
        ],
        {
          "200": ok(
            "text/event-stream: frames of `id:`, `event:` and `data:` lines (the schema: one frame, `data` parsed as JSON), and `:heartbeat` comments",
            { $ref: "#/components/schemas/EventFrame" },
            "text/event-stream",
          ),
          ...errors(400, ...AUTH),
        },
      ),
    },
    "/v1/fleet/hosts": {
      get: op("listFleetHosts", "Regions, hosts and live capacity (any valid key)", [], {
        "200": ok("fleet", ref("FleetHosts")),
        ...errors(401),
      }),
    },
  };
}

/** One frame of the event stream, by event type: its `data` line is the JSON of that type's schema. */
function eventFrame(): Obj {
  return {
    oneOf: EVENT_TYPES.map((event) => ({
      type: "object",
      required: ["event", "data"],
      properties: { id: { type: "string" }, event: { const: event }, data: ref(EVENT_SCHEMAS[event]) },
    })),
  };
}

/** The OpenAPI 3.1 document of the contract, derived from the zod schemas. */
export function buildOpenApi(): Obj {
  return {
    openapi: "3.1.0",
    info: {
      title: "Workspace Workload Service",
      version: "v1",
      license: { name: "Apache-2.0", identifier: "Apache-2.0" },
      description: `Workloads, templates, restart and the realtime event stream of a workspace. Error codes: ${Object.entries(
        ERROR_CODES,
      )
        .map(([code, status]) => `${code} (${status})`)
        .join(", ")}.`,
    },
    servers: [{ url: "http://127.0.0.1:8787", description: "the local service (npm run service)" }],
    security: [{ apiKey: [] }, { bearer: [] }],
    paths: paths(),
    components: {
      securitySchemes: {
        apiKey: { type: "apiKey", in: "header", name: "x-api-key" },
        bearer: { type: "http", scheme: "bearer" },
      },
      responses: errorResponses(),
      headers: {
        RequestId: { description: "id of this request, on every answer", schema: { type: "string" } },
        RetryAfter: { description: "seconds to wait before retrying", schema: { type: "integer", minimum: 0 } },
      },
      schemas: { ...componentSchemas(), EventFrame: eventFrame() },
    },
  };
}
