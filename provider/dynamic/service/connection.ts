import {
  CONNECTION_SETTING_NAMES,
  connectionSettingProblem,
  workspaceConnection,
  type ConnectionSetting,
  type ConnectionSettings,
  type WorkspaceConnection,
} from "../../../sdk";
import { isUnknown } from "../inputs/unknown";

export type ConnectionField = ConnectionSetting;

/**
 * A workspace the provider reaches: the SDK's connection value, which its clients, caches and
 * registries key on, with the base URL and workspace as they were found (args, config or
 * environment). State records those as found, not normalised (a diff compares them with the
 * program's), and messages quote them so.
 */
export interface Connection {
  readonly baseUrl: string;
  readonly workspace: string;
  readonly connection: WorkspaceConnection;
}

/** Stack configuration as the dynamic provider's `configure` receives it. */
export interface StackConfig {
  get(key: string): string | undefined;
}

/** Where a connection setting may come from, in order: resource args, stack config, environment. */
export interface ConnectionSources {
  config?: StackConfig;
  env: Readonly<Record<string, string | undefined>>;
}

/** Argument name, stack config key and environment variable of each setting. */
export const CONNECTION_SETTINGS: Readonly<
  Record<ConnectionField, { config: string; env: string; set: string; what: string }>
> = Object.freeze({
  baseUrl: {
    config: "wws:baseUrl",
    env: "WWS_BASE_URL",
    set: "pulumi config set wws:baseUrl https://…",
    what: "base URL",
  },
  workspace: {
    config: "wws:workspace",
    env: "WWS_WORKSPACE",
    set: "pulumi config set wws:workspace <name>",
    what: "workspace",
  },
  apiKey: {
    config: "wws:apiKey",
    env: "WWS_API_KEY",
    set: "pulumi config set --secret wws:apiKey <key>",
    what: "API key",
  },
});

/** The message of a missing setting: every way there is to set it. */
export function missingSettingMessage(field: ConnectionField): string {
  const s = CONNECTION_SETTINGS[field];
  const arg =
    field === "apiKey"
      ? "the `apiKey` argument (or the Workspace's `apiKey`)"
      : `the \`${field}\` argument (or the Workspace's)`;
  return `no ${s.what} is set: set ${arg}, the stack config (\`${s.set}\`), or the environment variable ${s.env}`;
}

/**
 * The connection settings of a resource as one provider method resolves them, once, and passes
 * down: each value found, and where it came from, for the messages that name it.
 */
export interface ResolvedConnection {
  /** The settings found (an unknown argument is left out, and listed in `unknown`). */
  values: Partial<ConnectionSettings>;
  /** Settings given as arguments whose value is not known yet (preview). */
  unknown: ConnectionField[];
  /** Settings found nowhere. */
  missing: ConnectionField[];
  /** Settings given as an empty argument: an error, never a fall-through to the stack config or environment. */
  empty: ConnectionField[];
  /** Where each found setting came from. */
  from: Partial<Record<ConnectionField, "args" | "config" | "env">>;
  /**
   * The program names one workspace and the stack config or environment another. Only `check`
   * refuses it: the state records the workspace each resource was created in, as an argument.
   */
  conflict?: string;
}

function nonEmpty(v: unknown): string | undefined {
  return typeof v === "string" && v !== "" ? v : undefined;
}

/** Resolves each setting on its own: `props[field]` → stack config → environment. */
export function resolveConnection(
  props: Readonly<Record<string, unknown>>,
  sources: ConnectionSources,
): ResolvedConnection {
  const out: ResolvedConnection = { values: {}, unknown: [], missing: [], empty: [], from: {} };
  for (const field of CONNECTION_SETTING_NAMES) {
    const s = CONNECTION_SETTINGS[field];
    if (isUnknown(props[field])) {
      out.unknown.push(field);
      continue;
    }
    if (props[field] === "") {
      out.empty.push(field);
      continue;
    }
    const arg = nonEmpty(props[field]);
    const config = arg === undefined ? nonEmpty(sources.config?.get(s.config)) : undefined;
    const env = arg === undefined && config === undefined ? nonEmpty(sources.env[s.env]) : undefined;
    const value = arg ?? config ?? env;
    if (value === undefined) out.missing.push(field);
    else {
      out.values[field] = value;
      out.from[field] = arg !== undefined ? "args" : config !== undefined ? "config" : "env";
    }
  }
  out.conflict = workspaceConflict(out.values.workspace, out.from.workspace, sources);
  return out;
}

/**
 * The one rule for the workspace: the program's (a resource's `workspace`, or its `Workspace`'s
 * `name`), else the stack config's `wws:workspace`, else `WWS_WORKSPACE`. When the program names
 * one and the config or environment another, which one is meant cannot be told: neither is taken.
 */
function workspaceConflict(
  workspace: string | undefined,
  from: "args" | "config" | "env" | undefined,
  sources: ConnectionSources,
): string | undefined {
  if (workspace === undefined || from !== "args") return undefined;
  const s = CONNECTION_SETTINGS.workspace;
  const others = [
    {
      value: nonEmpty(sources.config?.get(s.config)),
      where: `the stack config ${s.config}`,
      undo: `pulumi config rm ${s.config}`,
    },
    { value: nonEmpty(sources.env[s.env]), where: `the environment variable ${s.env}`, undo: `unset ${s.env}` },
  ];
  // The workspace the stack would take without the program's: the config's, else the environment's.
  const other = others.find((o) => o.value !== undefined);
  if (other === undefined || other.value === workspace) return undefined;
  return (
    `the program names workspace ${workspace} but ${other.where} names ${other.value}: make them agree. ` +
    `Leave the workspace out of the program (and the Workspace's name) to use ${other.value}, ` +
    `or make ${other.where} name ${workspace} (or \`${other.undo}\`)`
  );
}

/** The problem with a setting's value, if any, led by the setting's name. Never quotes the value (it may be the key). */
export function connectionProblem(field: ConnectionField, value: string): string | undefined {
  const problem = connectionSettingProblem(field, value);
  return problem === undefined ? undefined : `${field} ${problem}`;
}

/** The message of a setting given as an empty argument, which is not taken to mean "use the next source". */
export function emptySettingMessage(field: ConnectionField): string {
  const s = CONNECTION_SETTINGS[field];
  return `the \`${field}\` argument is empty: give it a value, or leave it out (undefined) to take the stack config ${s.config} or the environment variable ${s.env}`;
}

/** The settings' problems: every way to set what is missing or not known yet, then every invalid value. */
function problemsOf(r: ResolvedConnection): string[] {
  const problems = [
    ...r.empty.map(emptySettingMessage),
    ...[...r.missing, ...r.unknown].map((f) => missingSettingMessage(f)),
  ];
  for (const field of CONNECTION_SETTING_NAMES) {
    const v = r.values[field];
    const p = v === undefined ? undefined : connectionProblem(field, v);
    if (p) problems.push(p);
  }
  return problems;
}

/** The one place the provider makes a connection: from settings that are all found, known and valid. */
function connectionFrom(values: ConnectionSettings): Connection {
  return { baseUrl: values.baseUrl, workspace: values.workspace, connection: workspaceConnection(values) };
}

/** The connection the resolved settings make, or undefined while one is missing, not known or invalid. */
export function connectionOf(r: ResolvedConnection): Connection | undefined {
  return problemsOf(r).length > 0 ? undefined : connectionFrom(r.values as ConnectionSettings);
}

/**
 * The complete connection of `r`, or an error naming every way to set what is missing and every
 * invalid value. For create/read/update/delete (led by "cannot reach …") and for the functions a
 * program calls (led by the function's name).
 */
export function requireResolved(
  r: ResolvedConnection,
  what = "cannot reach the Workspace Workload Service",
): Connection {
  const problems = problemsOf(r);
  if (problems.length > 0) throw new Error(`${what}: ${problems.join("; ")}`);
  return connectionFrom(r.values as ConnectionSettings);
}

/** `requireResolved` of the settings `props` and `sources` give. */
export function requireConnection(
  props: Readonly<Record<string, unknown>>,
  sources: ConnectionSources,
  what?: string,
): Connection {
  return requireResolved(resolveConnection(props, sources), what);
}
