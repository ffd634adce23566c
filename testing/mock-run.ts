import * as pulumi from "@pulumi/pulumi";
import type { ConnectionSources } from "../provider/dynamic/service/connection";
import type { Declarations } from "../provider/dynamic/ownership/declarations";
import type { Props } from "../provider/dynamic/inputs/props";

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
}

/** What the provider makes of a resource: the errors `pulumi preview` would print, or what `pulumi up` would record. */
export type MockOutcome = { errors: string[] } | { id: string; inputs: Props; outputs: Props };

/** The resource of a registration: `@pulumi/pulumi` hands mocks each secret input wrapped, at its top level. */
export function programResource(args: pulumi.runtime.MockResourceArgs): ProgramResource {
  const inputs: Props = {};
  const secretKeys = new Set<string>();
  for (const [k, v] of Object.entries(args.inputs as Props)) {
    if (pulumi.runtime.isRpcSecret(v)) secretKeys.add(k);
    inputs[k] = pulumi.runtime.unwrapRpcSecret(v);
  }
  return { type: args.type, name: args.name, inputs, secretKeys };
}
