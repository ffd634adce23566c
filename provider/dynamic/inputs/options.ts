import { WORKLOAD_RULES } from "../../fields/workload-rules";
import type { BooleanOption } from "../../fields/workload-fields";
import type { Props } from "./props";
import { DEFAULT_TIMEOUT_SECONDS, timeoutMsOf, type TimeoutOperation } from "./timeouts";

const DEFAULT_OPTIONS = Object.freeze({
  ...(WORKLOAD_RULES.defaults as Record<BooleanOption, boolean>),
  /** Also the default of each `customTimeouts` operation (see `inputs/timeouts.ts`). */
  readyTimeoutSeconds: DEFAULT_TIMEOUT_SECONDS, // 10 min
});

export interface WorkloadOptions {
  waitForReady: boolean;
  /** How long each wait may take: readiness after create and after update, the 404 after delete. */
  timeoutMs: Record<TimeoutOperation, number>;
  waitForAdminConsole: boolean;
  waitForDeletion: boolean;
  adopt: boolean;
  /** A database may be replaced (deleted, its data lost) by a change: the user said yes. */
  allowDataLoss: boolean;
}

/** The options of `props`, defaults merged in one place. */
export function optionsOf(props: Props): WorkloadOptions {
  const bool = (v: unknown, d: boolean): boolean => (typeof v === "boolean" ? v : d);
  return {
    waitForReady: bool(props.waitForReady, DEFAULT_OPTIONS.waitForReady),
    timeoutMs: {
      create: timeoutMsOf(props, "create"),
      update: timeoutMsOf(props, "update"),
      delete: timeoutMsOf(props, "delete"),
    },
    waitForDeletion: bool(props.waitForDeletion, DEFAULT_OPTIONS.waitForDeletion),
    // Only a database with an admin console has one to wait for.
    waitForAdminConsole:
      bool(props.waitForAdminConsole, DEFAULT_OPTIONS.waitForAdminConsole) && props.adminConsole === true,
    adopt: bool(props.adopt, DEFAULT_OPTIONS.adopt),
    allowDataLoss: bool(props.allowDataLoss, DEFAULT_OPTIONS.allowDataLoss),
  };
}
