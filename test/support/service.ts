import { startService, type RunningService, type ServiceOptions } from "../../server";

/** What every test service has: a free port of 127.0.0.1 and no heartbeat during a test (60 s). */
const TEST_SERVICE_DEFAULTS: ServiceOptions = { host: "127.0.0.1", port: 0, heartbeatMs: 60_000 };

/**
 * The real local service, in-process, with the keys and control token the caller's tests use;
 * `options` override the test defaults (its reconcile tick, ring size, profile…).
 */
export function startTestService(
  options: ServiceOptions & Pick<Required<ServiceOptions>, "keys" | "controlToken">,
): Promise<RunningService> {
  return startService({ ...TEST_SERVICE_DEFAULTS, ...options });
}
