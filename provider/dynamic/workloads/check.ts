import {
  CREATE_BODY,
  DAEMON_CREDENTIALS_RULE,
  Name,
  createBodyFields,
  daemonEnabled,
  WORKLOAD_TYPES,
  WorkloadType,
  isVmType,
} from "../../../sdk";
import { resolveConnection, type ConnectionSources, type ResolvedConnection } from "../service/connection";
import { checkConnection } from "../service/check-connection";
import { failureAt, schemaFailures, type Failure } from "../inputs/failures";
import type { OptionValue } from "../../fields/declaration";
import { WORKLOAD_RULES, type WorkloadRules } from "../../fields/workload-rules";
import type { Props } from "../inputs/props";
import { credentialsKeptFromState } from "../credentials/kept-from-state";
import { declaredBodyOf } from "./body";
import { MAX_TIMEOUT_SECONDS, customTimeoutsFailures } from "../inputs/timeouts";
import { containsUnknown, isUnknown } from "../inputs/unknown";
import type { CheckOutcome } from "../types";

/** Top-level names other than spec fields: what a misspelt argument may have been meant as. */
const OTHER_ARGUMENTS = Object.entries(WORKLOAD_RULES.fields)
  .filter(([k, f]) => f.role !== "output" && f.role !== "drift" && k !== "type")
  .map(([k]) => k);

const isSet = (v: unknown): boolean => v !== undefined && v !== null && !isUnknown(v);

/** The problem of an option's value, by the value type its declaration gives; undefined when fine. */
const OPTION_PROBLEMS: Record<OptionValue, (v: unknown) => string | undefined> = {
  boolean: (v) => (typeof v === "boolean" ? undefined : "must be true or false"),
  seconds: (v) =>
    typeof v === "number" && Number.isFinite(v) && v > 0 && v <= MAX_TIMEOUT_SECONDS
      ? undefined
      : `must be a number of seconds above 0 and at most ${MAX_TIMEOUT_SECONDS} (24 h)`,
  "restart-trigger": (v) =>
    typeof v === "string" || typeof v === "number"
      ? undefined
      : "must be a string or a number; change it to restart the workload",
  // Checked per operation below: the resource option's own shape.
  timeouts: () => undefined,
};

export function checkOptions(news: Props, rules: WorkloadRules = WORKLOAD_RULES): Failure[] {
  const failures: Failure[] = [];
  for (const [key, value] of Object.entries(rules.optionValues)) {
    const problem = isSet(news[key]) ? OPTION_PROBLEMS[value](news[key]) : undefined;
    if (problem) failures.push(failureAt([key], problem));
  }
  return [...failures, ...customTimeoutsFailures(news)];
}

/**
 * `check` of a workload: every failure of the inputs, per field, before any request is sent.
 * `news`: the inputs out of their envelope (inputs/envelope.ts); `opened`: the envelope's import
 * option, and the connection as the method resolved it. Values not known yet (preview) are let
 * through: their fields are not validated now, and `check` runs again with them known before
 * `create` or `update`.
 */
export function checkWorkload(
  olds: Props,
  news: Props,
  sources: ConnectionSources,
  opened: { connection?: ResolvedConnection; importId?: string } = {},
): CheckOutcome {
  const inputs: Props = { ...news };
  const connection = opened.connection ?? resolveConnection(news, sources);
  const failures = [...checkConnection(connection, sources, inputs), ...checkOptions(news)];
  // Credentials in ignoreChanges: the state's login, kept as it is (valid when it was checked).
  const { kept, failure } = credentialsKeptFromState(olds, news);
  if (kept) inputs.credentials = kept;
  if (failure) failures.push(failure);
  /** The credentials this run sets: none when the state's are kept. */
  const credentials = kept || failure ? undefined : news.credentials;

  const type = news.type;
  const typeKnown = !isUnknown(type);
  const typeValid = typeKnown && WorkloadType.safeParse(type).success;
  if (typeKnown && !typeValid) {
    failures.push(
      failureAt(
        ["type"],
        `must be one of ${WORKLOAD_TYPES.join(", ")} (a VirtualMachine's os: ubuntu, ubuntu-desktop or windows)`,
      ),
    );
  }
  if (!typeValid) {
    // Without a type there is no schema for the spec; the id can still be checked.
    if (!isUnknown(news.workloadId) && !Name.safeParse(news.workloadId).success) {
      failures.push(failureAt(["workloadId"], Name.safeParse(news.workloadId).error?.issues[0]?.message ?? "invalid"));
    }
    return { inputs, failures };
  }

  const body = declaredBodyOf(news) as unknown as Props;
  const unknownKeys = new Set(Object.keys(body).filter((k) => containsUnknown(body[k])));
  // Kept from the state: validated when they were set, and without a password to validate now.
  // None on either side (imported from a file, which holds no login): the workload keeps its own.
  const noneKept = olds.workloadId !== undefined && olds.credentials === undefined && news.credentials === undefined;
  if (kept || noneKept) unknownKeys.add("credentials");
  if (unknownKeys.has("id")) unknownKeys.add("workloadId");
  for (const k of unknownKeys) delete body[k];
  const schema = CREATE_BODY[type as WorkloadType];
  const knownFields = createBodyFields(type as WorkloadType);
  failures.push(
    ...schemaFailures(schema, body, {
      unknownKeys,
      rename: { id: "workloadId" },
      knownFields,
      schema,
      otherArguments: OTHER_ARGUMENTS,
    }).failures,
  );

  // The schema allows a VM without credentials (an update may omit them); a new one needs them.
  const isNew = olds.workloadId === undefined;
  // Adopted or imported: the live VM keeps the login it has.
  const takesOver = news.adopt === true || opened.importId !== undefined;
  if (isVmType(type as string) && isNew && credentials === undefined && !takesOver) {
    failures.push(
      failureAt(
        ["credentials"],
        "required for a new VM: set credentials ({username?, password}) to log in with; or set adopt: true to take over an existing VM",
      ),
    );
  }
  // Where the daemon is first enabled (an adopted VM's may be enabled already: the service knows).
  else if (
    isVmType(type as string) &&
    daemonEnabled(news) &&
    !daemonEnabled(olds) &&
    credentials === undefined &&
    !(isNew && takesOver)
  ) {
    failures.push(failureAt(["credentials"], DAEMON_CREDENTIALS_RULE));
  }
  return { inputs, failures };
}
