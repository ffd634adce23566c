/**
 * How a resource's fields are declared: once each, with everything the provider and the resource
 * classes derive from them (see workload-rules.ts and template-fields.ts). Modelled on Terraform's
 * `schema.Schema` (`ForceNew`, `Sensitive`, `Computed` per attribute) and Pulumi's package schema
 * (`replaceOnChanges`, `secret` per property). A workload's spec fields are the SDK's create-body
 * schemas' (sdk/schemas/workloads.ts): they are not repeated here, only where a type's change of
 * one does more than an update.
 */

/** What part of the resource a field is. */
type FieldRole =
  /** Names the resource in its workspace: a change is another resource. */
  | "identity"
  /** What the service is asked to run (a template's fields; a workload's come from the SDK). */
  | "spec"
  /** A write-only login: sent, never shown by the service, compared by digest. */
  | "credential"
  /** Where and how the service is reached: argument → stack config → environment. */
  | "connection"
  /** How `pulumi up` waits, restarts and adopts: never sent to the service. */
  | "option"
  /** What the service reports: an output only, never an input. */
  | "output"
  /** Written by `refresh` only (restarts outside Pulumi): an input the next `up` drops. */
  | "drift";

/** What a change of the field's value does. */
export type ChangeEffect =
  /** A new resource, created before the old one is deleted (the new one does not collide). */
  | "replace"
  /** A new resource, the old one deleted first: the new one reuses its id. */
  | "replace-delete-first"
  /** Sent with an upsert, then the new generation is awaited. */
  | "update"
  /** From one value to another: a restart call, then a wait (set or removed: recorded only). */
  | "restart"
  /** Recorded in the state; nothing is sent. */
  | "local"
  /** An output: not the user's to change. */
  | "none";

/** A field's old and new value, with the rest of both bags, for a conditional rule to judge. */
export interface FieldChange {
  readonly key: string;
  readonly olds: Readonly<Record<string, unknown>>;
  readonly news: Readonly<Record<string, unknown>>;
}

/**
 * A change effect that holds only under a condition, and says so: terraform-plugin-framework's
 * `RequiresReplaceIf(f, description)`. The first rule of a field whose `when` holds decides;
 * otherwise the field's `change` does. Diff, the data-loss check, the plan's notes, the classes'
 * `replaceOnChanges` and the docs' change table (kept by test/provider/fields/fields.test.ts) read it.
 */
export interface ConditionalChange {
  readonly effect: ChangeEffect;
  /** Only for workloads of these types (either side of the change): the classes' `replaceOnChanges` read it. */
  readonly types?: readonly string[];
  readonly when: (change: FieldChange) => boolean;
  /** When the rule applies, in the words of the docs' change table. */
  readonly description: string;
  /** What preview says when the rule applies, after `<type> <id>: `. */
  readonly says?: string;
  /** For a rule that replaces a database: why the service cannot do it in place, and how to keep the database. */
  readonly dataLoss?: { readonly why: string; readonly undo: string };
}

/** How `check` validates an option's value (spec fields are validated by their zod schema). */
export type OptionValue = "boolean" | "seconds" | "restart-trigger" | "timeouts";

export interface FieldDeclaration {
  readonly role: FieldRole;
  readonly change: ChangeEffect;
  /** Effects that replace `change` under a condition, first match wins. */
  readonly changeIf?: readonly ConditionalChange[];
  /** Kept as a Pulumi secret on the way in, and never in an error or a log. */
  readonly secret?: boolean;
  /** A failure at this field never prints its value, though not secret (large, or may carry a login). */
  readonly quiet?: true;
  /** An option's value type, for `check`. */
  readonly value?: OptionValue;
  /** An option's default (merged once, by `optionsOf`). */
  readonly default?: boolean;
  /** Not an argument of the resource class (a resource option it carries, or a derived output). */
  readonly argument?: false;
  /** An output the provider derives from others rather than reads from the service. */
  readonly derived?: true;
  /** Only workloads of these types take it: the classes of other types have no such argument. */
  readonly onlyFor?: readonly string[];
  /** What the field is, for the docs: a phrase, the start of its doc comment and its row in docs/fields.md. */
  readonly doc: string;
  /** The rest of its doc comment (on hover in an editor): what a user must know to set it. */
  readonly detail?: string;
  /** Its doc comment's `@default`, when not `default` (what an unset value means). */
  readonly defaultDoc?: string;
}

export type FieldTable = Readonly<Record<string, FieldDeclaration>>;

/** The keys of `fields` with `role`, in declaration order. */
export function keysWithRole(fields: FieldTable, ...roles: FieldRole[]): string[] {
  return Object.keys(fields).filter((k) => roles.includes(fields[k].role));
}

/** The rule of `decl` that applies to `change`, if any: the first whose types and condition hold. */
export function appliedRule(
  decl: Pick<FieldDeclaration, "changeIf"> | undefined,
  change: FieldChange,
): ConditionalChange | undefined {
  return decl?.changeIf?.find(
    (r) =>
      (r.types === undefined ||
        r.types.includes(String(change.olds.type)) ||
        r.types.includes(String(change.news.type))) &&
      r.when(change),
  );
}

/** Whether a change is a replacement (either order). */
export const replaces = (change: ChangeEffect | undefined): boolean =>
  change === "replace" || change === "replace-delete-first";

/** The properties a resource class declares: what it names and runs, and what it reports; nothing secret. */
export function propertyKeys(fields: FieldTable): string[] {
  const shown: FieldRole[] = ["identity", "spec", "connection", "output"];
  return Object.keys(fields).filter((k) => shown.includes(fields[k].role) && !fields[k].secret);
}

/** The connection settings every resource takes, in the order messages name them. */
export const CONNECTION_FIELDS = Object.freeze({
  // A base URL may carry a login (`https://user:password@host`).
  baseUrl: {
    role: "connection",
    change: "local",
    quiet: true,
    doc: "the service's base URL",
    detail:
      "`http(s)://host[:port]` of the service. When omitted: stack config `wws:baseUrl`, then `WWS_BASE_URL`. Changing it sends nothing.",
  },
  workspace: {
    role: "connection",
    change: "replace",
    doc: "the workspace name",
    detail:
      "A `Workspace` (the resource becomes its child unless `parent` is set, and takes its base URL and API key " +
      "unless set here) or a workspace name (a DNS label). When omitted: stack config `wws:workspace`, then " +
      "`WWS_WORKSPACE`. A name other than the stack config's (or, without one, `WWS_WORKSPACE`'s) fails preview naming both.",
  },
  apiKey: {
    role: "connection",
    change: "local",
    secret: true,
    doc: "the workspace's API key",
    detail:
      "Stored as a Pulumi secret even when given as a plain string. When omitted: stack config `wws:apiKey` (a secret), " +
      "then `WWS_API_KEY`. Only `WWS_API_KEY` stays out of the state: the engine records the stack config (encrypted) " +
      "with its default provider.",
  },
} as const satisfies FieldTable);
