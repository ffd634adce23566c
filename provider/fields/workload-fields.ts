import type { WorkloadType } from "../../sdk";
import { CONNECTION_FIELDS, type ChangeEffect, type FieldTable } from "./declaration";

/**
 * Every field of a workload resource but its spec fields (the SDK's create-body schema of its
 * type), in the order the property bag and messages use. Adding an option or a replacing field is
 * one line here: check, diff, `replaceOnChanges`, secret marking, the outputs, the importer and the
 * README's change table (test/provider/fields.test.ts) follow from it.
 */
export const WORKLOAD_FIELDS = Object.freeze({
  workloadId: { role: "identity", change: "replace", doc: "the workload's id in its workspace" },
  type: {
    role: "identity",
    change: "replace-delete-first",
    argument: false,
    doc: "the workload type (a VM's `os`, a `Workload`'s `kind`)",
  },
  ...CONNECTION_FIELDS,
  credentials: { role: "credential", change: "update", secret: true, doc: "the login: `{username?, password}`" },
  waitForReady: { role: "option", change: "local", value: "boolean", default: true, doc: "wait for readiness" },
  readyTimeoutSeconds: { role: "option", change: "local", value: "seconds", doc: "how long a wait may take" },
  waitForAdminConsole: {
    role: "option",
    change: "local",
    value: "boolean",
    default: false,
    doc: "also wait for a database's admin console",
  },
  waitForDeletion: {
    role: "option",
    change: "local",
    value: "boolean",
    default: true,
    doc: "on delete, wait until the id is free",
  },
  customTimeouts: {
    role: "option",
    change: "local",
    value: "timeouts",
    argument: false,
    doc: "the `customTimeouts` resource option, carried by the class",
  },
  restartTrigger: { role: "option", change: "restart", value: "restart-trigger", doc: "change it to restart" },
  adopt: { role: "option", change: "local", value: "boolean", default: false, doc: "take over an existing workload" },
  allowDataLoss: {
    role: "option",
    change: "local",
    value: "boolean",
    default: false,
    doc: "let a change replace a database, deleting its data",
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

/**
 * Per type, the fields whose change does more than the table says: a database's engine and login
 * are set once, so a new one is a new database (delete first: the id is kept).
 */
export const TYPE_CHANGES: Readonly<Partial<Record<WorkloadType, Readonly<Record<string, ChangeEffect>>>>> =
  Object.freeze({
    storage: { engine: "replace-delete-first", credentials: "replace-delete-first" },
  });

type Fields = typeof WORKLOAD_FIELDS;
/** The options whose value is true or false. */
export type BooleanOption = { [K in keyof Fields]: Fields[K] extends { value: "boolean" } ? K : never }[keyof Fields];
