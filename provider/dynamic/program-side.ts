/**
 * All the program's side may use of the provider process's code: the resource classes
 * (`provider/resources/`, `hosted-resource.ts`) and the functions (`functions.ts`) run in the
 * Pulumi program, and reach `dynamic/` through this file only (a lint rule holds them to it). They
 * write the property bag's reserved keys and the envelope `check` alone reads, the digest of a
 * database's login (computed in the program, so the password never reaches the state) and resolve
 * the connection as `check` will.
 */
export { ENVELOPE_KEY, NOT_SPEC_KEYS, PROVIDER_KEY } from "./inputs/props";
export type { EnvelopeArgs } from "./inputs/envelope";
export { credentialsDigestAsync } from "./credentials/digest";
export { CONNECTION_SETTINGS, requireConnection } from "./service/connection";
export { requireNetworkSettings } from "./service/network";
