export { startService, type RunningService } from "./service";
export { DEFAULT_SERVICE_OPTIONS, OptionError, type ServiceOptions, type LogFn } from "./options";
export { DEFAULT_FLEET, type FleetConfig } from "./fleet";
export { ControlClient, type Counters, type Transition, type Faults } from "./control-client";
export { buildOpenApi } from "./openapi";
