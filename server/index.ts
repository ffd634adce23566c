export { startService, type RunningService } from "./service";
export { DEFAULT_SERVICE_OPTIONS, OptionError, type ServiceOptions, type LogFn } from "./options";
export type { FleetConfig } from "./fleet";
export {
  ControlClient,
  type CountersSnapshot,
  type PhaseTransition,
  type FaultConfig,
  type WorkloadRecordView,
} from "./control-client";
export { PROFILES, TRANSITIONS, type Profile, type Transitions } from "./profile";
