import type { z } from "zod";
import type { CREATE_BODY, WorkloadType } from "../../sdk";
import { CONNECTION_FIELDS, type ConditionalChange, type FieldChange, type FieldTable } from "./declaration";

const isSet = (v: unknown): boolean => v !== undefined && v !== null;
/** The workload types that are databases: their replacement deletes data (workloads/data-loss.ts). */
export const DATABASE_TYPES: readonly WorkloadType[] = Object.freeze(["storage"]);
const DATABASE = DATABASE_TYPES as string[];
/** A database's engine and login are set once: a new one is a new database (delete first: the id is kept). */
const SET_ONCE = "set once: the service cannot change them";

const credentialsRules: readonly ConditionalChange[] = [
  {
    effect: "replace-delete-first",
    types: DATABASE,
    // A login missing from the state (adopted, imported) is sent: the service answers 409 if it differs.
    when: ({ olds }) => isSet(olds.credentials),
    description: SET_ONCE,
    dataLoss: {
      why: "credentials changed, but the service sets a database's login once and cannot change it",
      undo: "put back the password (and username) it was created with",
    },
  },
];

const restartTriggerRules: readonly ConditionalChange[] = [
  {
    effect: "restart",
    when: ({ olds, news }: FieldChange) => isSet(olds.restartTrigger) && isSet(news.restartTrigger),
    description: "from one value to another",
    says: "restartTrigger changed, so the update restarts it (one restart call, then a wait)",
  },
  {
    effect: "local",
    when: ({ olds }) => !isSet(olds.restartTrigger),
    description: "adding",
    says: "restartTrigger is set for the first time: the update records its value and restarts nothing; a later change of it restarts the workload",
  },
  { effect: "local", when: () => true, description: "removing" },
];

/**
 * Every field of a workload resource but its spec fields (the SDK's create-body schema of its
 * type), in the order the property bag and messages use. Adding an option or a replacing field is
 * one line here: check, diff, `replaceOnChanges`, secret marking, the outputs, the importer and the
 * README's change table (test/provider/fields/fields.test.ts) follow from it.
 */
export const WORKLOAD_FIELDS = Object.freeze({
  // Every replacement of a workload deletes first: the classes set `deleteBeforeReplace` (see
  // provider/resources/replacement-options.ts), so a new id or workspace is no exception.
  workloadId: {
    role: "identity",
    change: "replace-delete-first",
    doc: "the workload's id in its workspace",
    detail: "A DNS label (it becomes a host name).",
    defaultDoc: "the resource name",
  },
  type: {
    role: "identity",
    change: "replace-delete-first",
    argument: false,
    doc: "the workload type (a VM's `os`, a `Workload`'s `kind`)",
  },
  ...CONNECTION_FIELDS,
  workspace: { ...CONNECTION_FIELDS.workspace, change: "replace-delete-first" },
  credentials: {
    role: "credential",
    change: "update",
    changeIf: credentialsRules,
    secret: true,
    doc: "the login: `{username?, password}`",
    detail:
      "For VMs (required for a new one, unless `adopt`: a change is sent with an update and replaces the stored one) " +
      "and databases (required; set once: the service cannot change it, so a change is refused at preview, and a " +
      "replacement, which deletes the data, happens only with `allowDataLoss: true`). Write-only, a Pulumi secret: " +
      "never in outputs or logs in plaintext.",
  },
  waitForReady: {
    role: "option",
    change: "local",
    value: "boolean",
    default: true,
    doc: "wait for readiness",
    detail: "Wait for the workload to be ready (Running, the latest generation observed) on create and update.",
  },
  readyTimeoutSeconds: {
    role: "option",
    change: "local",
    value: "seconds",
    doc: "how long a wait may take",
    detail:
      "Give up waiting for readiness after this many seconds; the workload stays in the stack (with the error) and " +
      "the next `pulumi up` waits again. Overrides the `customTimeouts` resource option's `create` and `update` for this resource.",
    defaultDoc: "customTimeouts.create / .update, else 600",
  },
  waitForAdminConsole: {
    role: "option",
    change: "local",
    value: "boolean",
    default: false,
    onlyFor: DATABASE,
    doc: "also wait for a database's admin console",
    detail: "With `adminConsole: true`: also wait until the admin console is ready.",
  },
  waitForDeletion: {
    role: "option",
    change: "local",
    value: "boolean",
    default: true,
    doc: "on delete, wait until the id is free",
    detail:
      "Wait, on delete, until the service no longer knows the workload (its id is free again). `false` returns once " +
      "the delete is accepted: faster, but a replacement that reuses the id (a new `os`, `kind` or database `engine`) " +
      "may then find it still being deleted. The deletion wait's timeout is `customTimeouts.delete`.",
  },
  customTimeouts: {
    role: "option",
    change: "local",
    value: "timeouts",
    argument: false,
    doc: "the `customTimeouts` resource option, carried by the class",
  },
  restartTrigger: {
    role: "option",
    change: "restart",
    changeIf: restartTriggerRules,
    value: "restart-trigger",
    doc: "change it to restart",
    detail:
      "Any change of this value from one value to another restarts the workload (a restart call, then a wait); " +
      "nothing else is sent. Setting it the first time, or removing it, does not restart.",
  },
  adopt: {
    role: "option",
    change: "local",
    value: "boolean",
    default: false,
    doc: "take over an existing workload",
    detail:
      "Take over a workload that already exists with this id (otherwise preview refuses it): its live spec is " +
      "replaced by this declaration, and destroying this resource (or removing it from the program) deletes the workload.",
  },
  allowDataLoss: {
    role: "option",
    change: "local",
    value: "boolean",
    default: false,
    onlyFor: DATABASE,
    doc: "let a change replace a database, deleting its data",
    detail:
      "A new `engine`, `workloadId` or workspace, or new credentials (the service sets a database's login once and " +
      "cannot change it), replaces the database, which deletes it and its data. Without this, `pulumi preview` " +
      "refuses such a change, naming the property. Deleting it on purpose (`pulumi destroy`, removing it from the " +
      "program) is not guarded: use the `protect` resource option for that.",
  },
  restartsOutsidePulumi: { role: "drift", change: "local", argument: false, doc: "restarts a refresh found" },
  phase: { role: "output", change: "none", doc: "the phase last seen" },
  message: { role: "output", change: "none", doc: "the service's message about the phase" },
  restartCount: { role: "output", change: "none", doc: "how many times it was restarted" },
  endpoint: { role: "output", change: "none", doc: "`host:port` where it is reachable" },
  adminUrl: { role: "output", change: "none", doc: "a database's admin console" },
  adminReady: { role: "output", change: "none", doc: "whether that admin console is ready" },
  connectionUri: { role: "output", change: "none", derived: true, doc: "how to connect to a database, no password" },
  generation: { role: "output", change: "none", doc: "the generation of the spec" },
  observedGeneration: { role: "output", change: "none", doc: "the generation last reached" },
} as const satisfies FieldTable);

/** The spec fields of type `T`: its create body's fields (the SDK's zod schema) but `id` and `credentials` (a field above). */
export type SpecFieldOf<T extends WorkloadType> = Exclude<keyof z.input<(typeof CREATE_BODY)[T]>, "id" | "credentials">;
/** A spec field of any type. */
type SpecField = { [T in WorkloadType]: SpecFieldOf<T> }[WorkloadType];

/**
 * Spec fields (the SDK's create-body fields, an update by default) whose change does more under a
 * condition: a database's engine is set once. Keyed by the schema's fields: a rule for a field no
 * body has does not compile.
 */
export const SPEC_FIELD_RULES: Readonly<
  Partial<Record<SpecField, { readonly changeIf: readonly ConditionalChange[] }>>
> = Object.freeze({
  engine: {
    changeIf: [{ effect: "replace-delete-first", types: DATABASE, when: () => true, description: SET_ONCE }],
  },
});

/**
 * Spec fields kept as Pulumi secrets wherever the package shows them, with why: the classes' inputs
 * and outputs, `get`, the functions' results (at their depth, a template's `config` too) and
 * check's messages. Keyed by the schema's fields: a field no body has does not compile.
 */
export const SECRET_SPEC_FIELDS: Readonly<Partial<Record<SpecField, string>>> = Object.freeze({
  source: "a repository URL may carry a token (`https://<token>@host/…`)",
});

type Fields = typeof WORKLOAD_FIELDS;
/** The options whose value is true or false. */
export type BooleanOption = { [K in keyof Fields]: Fields[K] extends { value: "boolean" } ? K : never }[keyof Fields];
