/**
 * What each entry point of package.json "exports" gives a user at run time (README.md, "API").
 * Anything else is internal: a new export here is a promise to keep, so it is added on purpose.
 * test/sdk/package.test.ts also names the SDK's internals that must stay out.
 */
import { readFileSync, readdirSync, statSync } from "node:fs";
import { join } from "node:path";
import * as root from "../../index";
import * as provider from "../../provider";
import * as dynamic from "../../provider/dynamic";
import * as sdk from "../../sdk";
import * as sdkInternal from "../../sdk/internal";
import * as server from "../../server";
import * as testing from "../../testing";
import * as watch from "../../watch";
import * as rehearse from "../../rehearse";

const RESOURCES = [
  "Browser",
  "Controller",
  "Database",
  "Pod",
  "Template",
  "VirtualMachine",
  "Workload",
  "WorkloadResource",
  "Workspace",
  "getFleetHosts",
  "getFleetHostsOutput",
  "getTemplate",
  "getTemplateOutput",
  "getWorkload",
  "getWorkloadOutput",
  "getWorkloadStatus",
  "getWorkloadStatusOutput",
  "listTemplates",
  "listTemplatesOutput",
  "listWorkloads",
  "listWorkloadsOutput",
  "workloadTypeOf",
];

/** `pulumi-wws/sdk`: the client, its connection and options, the errors, the hub, the waiter, the contract's schemas. */
const SDK = [
  "WorkspaceClient",
  "workspaceConnection",
  "DEFAULT_CLIENT_OPTIONS",
  "DEFAULT_MAX_RESPONSE_BYTES",
  "MAX_RETRY_AFTER_MS",
  "ProxyError",
  "RedirectError",
  "ResponseTooLargeError",
  "proxyFor",
  "DEFAULT_RETRY",
  "SDK_VERSION",
  // errors
  "WwsError",
  "InvalidOptionError",
  "ConnectionError",
  "CertificateError",
  "RequestTimeoutError",
  "AbortedError",
  "ResponseValidationError",
  "HttpError",
  "ValidationError",
  "UnauthorizedError",
  "ForbiddenError",
  "NotFoundError",
  "ConflictError",
  "PayloadTooLargeError",
  "RateLimitedError",
  "UnavailableError",
  "ServerError",
  "RetriesExhaustedError",
  "StreamAuthError",
  "StreamCutError",
  "ReadinessTimeoutError",
  "WorkloadFailedError",
  "HTTP_ERROR_CODES",
  // events and waiting
  "EventHub",
  "eventHub",
  "DEFAULT_STREAM_OPTIONS",
  "waitForWorkload",
  "DEFAULT_WAIT_TIMING",
  "DEFAULT_SETTLE_RULE",
  // the contract: names, limits, bodies, records and events
  "ERROR_CODES",
  "WORKLOAD_TYPES",
  "VM_TYPES",
  "PHASES",
  "EVENT_PAYLOADS",
  "EVENT_TYPES",
  "TEMPLATE_CONFIG_MAX_BYTES",
  "TEMPLATE_CONFIG_MAX_DEPTH",
  "CREATE_BODY",
  "CreateVm",
  "CreatePod",
  "CreateBrowser",
  "CreateController",
  "CreateStorage",
  "TemplateCreate",
  "Name",
  "SizeQuantity",
  "CpuQuantity",
  "Port",
  "Credentials",
  "VmPort",
  "Placement",
  "AiDaemon",
  "PodPort",
  "PodSource",
  "StorageEngine",
  "Backup",
  "WorkloadType",
  "CreateResponse",
  "RestartResponse",
  "WorkloadStatus",
  "TenantSpec",
  "SavedTemplate",
  "TemplateList",
  "ErrorBody",
  "ErrorDetail",
  "Pulse",
  "AgentState",
  "ActivityRow",
  "ActivityList",
  "AskList",
  "SecretList",
  "FleetHosts",
  "TaskUpdate",
  "AskEvent",
  "AgentBusy",
  "AgentSleepState",
  "SpecChanged",
  "SecretChanged",
  "Resync",
];

/** Exported by `pulumi-wws/sdk` for this package's provider and CLI, which import only the barrel. */
const SDK_FOR_PROVIDER = [
  "CONNECTION_SETTING_NAMES",
  "connectionSettingProblem",
  "normalizedBaseUrl",
  "CA_CERTS_RULE",
  "pemCertificates",
  "plainHttpProblem",
  "isLoopbackUrl",
  "proxyProblem",
  "resolveNetwork",
  "collectSecrets",
  "redact",
  "outcomeUnknown",
  "FailureStreak",
  "RetrySpacing",
  "formatDuration",
  "describeWaitGoal",
  "readWorkspace",
  "createBodyFields",
  "isVmType",
  "daemonEnabled",
  "DAEMON_CREDENTIALS_RULE",
  "configByteLength",
  "jsonDepth",
  "templatePasswordPaths",
  "formatPath",
  "specKeyOf",
  "parseMemoryMi",
  "formatMemoryMi",
];

/** `sdk/internal.ts`: what this package's own layers share with the SDK and the SDK's barrel keeps out; no entry point. */
const SDK_INTERNAL = ["parseRetryAfter"];

describe("the package's entry points", () => {
  it.each([
    ["pulumi-wws", root, [...RESOURCES, "sdk"]],
    ["pulumi-wws/sdk", sdk, [...SDK, ...SDK_FOR_PROVIDER]],
    ["pulumi-wws/provider", provider, RESOURCES],
    ["pulumi-wws/provider/dynamic", dynamic, ["template", "workload"]],
    [
      "pulumi-wws/server",
      server,
      ["ControlClient", "DEFAULT_SERVICE_OPTIONS", "OptionError", "PROFILES", "TRANSITIONS", "startService"],
    ],
    ["pulumi-wws/testing", testing, ["WwsMocks", "createTestStack", "startLocalService"]],
    [
      "pulumi-wws/watch",
      watch,
      [
        "Watch",
        "lineOf",
        "watchStacks",
        "startDelivery",
        "verifySignature",
        "signatureOf",
        "slackMessageOf",
        "SIGNATURE_HEADER",
        "FINDING_ID_HEADER",
      ],
    ],
    ["pulumi-wws/rehearse", rehearse, ["rehearse", "reportMarkdown", "reportText"]],
  ])("should export from %s exactly what a user needs", (_entry, mod, names) => {
    expect(Object.keys(mod).sort()).toEqual([...names].sort());
  });

  it("should give the SDK's internal names to this package's own layers only: no entry point exports them", () => {
    expect(Object.keys(sdkInternal).sort()).toEqual([...SDK_INTERNAL].sort());
    const pkg = JSON.parse(readFileSync(join(__dirname, "../../package.json"), "utf8")) as {
      exports: Record<string, string>;
    };
    expect(Object.entries(pkg.exports).filter(([, file]) => /sdk\/(?!index\.js$)/.test(file))).toEqual([]);
  });
});

describe("the SDK's boundary", () => {
  const ROOT = join(__dirname, "../..");
  const sources = (dir: string): string[] =>
    readdirSync(dir).flatMap((name) => {
      const p = join(dir, name);
      return statSync(p).isDirectory() ? sources(p) : p.endsWith(".ts") ? [p] : [];
    });

  it("should be crossed by the provider, the CLI, the watch, the rehearsal and testing only through pulumi-wws/sdk's barrel (and its internal one)", () => {
    const inside = ["provider", "cli", "watch", "rehearse", "testing"]
      .flatMap((dir) => sources(join(ROOT, dir)))
      .filter((file) => /from "(\.\.\/)+sdk\/(?!internal")/.test(readFileSync(file, "utf8")))
      .map((file) => file.slice(ROOT.length + 1));
    expect(inside).toEqual([]);
  });

  it("should keep the watch off the CLI, and off the provider's process internals but through its seam", () => {
    const internals =
      /from "\.\.\/provider\/dynamic\/(context|service\/shared-spec|workloads\/provider|templates\/provider)"/;
    const crossings = sources(join(ROOT, "watch")).flatMap((file) => {
      const text = readFileSync(file, "utf8");
      const rel = file.slice(ROOT.length + 1);
      return [
        ...(/from "(\.\.\/)+cli\//.test(text) ? [`${rel} imports cli/`] : []),
        ...(internals.test(text) ? [`${rel} assembles the provider (use provider/dynamic/watch-seam)`] : []),
      ];
    });
    expect(crossings).toEqual([]);
  });
});
