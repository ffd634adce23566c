import * as pulumi from "@pulumi/pulumi";
import type { ConnectionSources } from "../provider/dynamic/service/connection";
import type { Declarations } from "../provider/dynamic/ownership/declarations";
import type { Props } from "../provider/dynamic/inputs/props";
import { ENVELOPE_KEY } from "../provider/dynamic/inputs/props";

/** One run of a program under the mocks: what its resources share. */
export interface MockRun {
  /** The stack config and environment the provider reads the connection from. */
  sources: ConnectionSources;
  /** Which resource of the run declared each workload. */
  declarations: Declarations;
  /** The outputs earlier runs recorded, by URN: the stack's state. */
  state: ReadonlyMap<string, Props>;
  /** Of endpoints and admin consoles, as the local service makes them. */
  workloadDomain: string;
  now: Date;
}

/** A resource as the program registered it. */
export interface ProgramResource {
  type: string;
  name: string;
  /** Its inputs, plain values. */
  inputs: Props;
  /** The inputs the program gave as secrets. */
  secretKeys: ReadonlySet<string>;
  /** The URN its class put in the envelope (provider/dynamic/inputs/envelope.ts). */
  urn: string | undefined;
}

/** What the provider makes of a resource: the errors `pulumi preview` would print, or what `pulumi up` would record. */
export type MockOutcome = { errors: string[] } | { id: string; inputs: Props; outputs: Props };

/** The envelope and its fields, unwrapped (a secret field makes the whole envelope secret). */
function unwrapFields(envelope: unknown): Props {
  const fields = Object.entries((pulumi.runtime.unwrapRpcSecret(envelope) ?? {}) as Props);
  return Object.fromEntries(fields.map(([k, v]) => [k, pulumi.runtime.unwrapRpcSecret(v)]));
}

/**
 * The resource of a registration: `@pulumi/pulumi` hands mocks each secret input wrapped, at its
 * top level, and in the envelope (the engine hands the provider all of them unwrapped).
 */
export function programResource(args: pulumi.runtime.MockResourceArgs): ProgramResource {
  const inputs: Props = {};
  const secretKeys = new Set<string>();
  for (const [k, v] of Object.entries(args.inputs as Props)) {
    if (pulumi.runtime.isRpcSecret(v)) secretKeys.add(k);
    inputs[k] = k === ENVELOPE_KEY ? unwrapFields(v) : pulumi.runtime.unwrapRpcSecret(v);
  }
  const urn = (inputs[ENVELOPE_KEY] as { urn?: unknown } | undefined)?.urn;
  return { type: args.type, name: args.name, inputs, secretKeys, urn: typeof urn === "string" ? urn : undefined };
}
