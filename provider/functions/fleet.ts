import type * as pulumi from "@pulumi/pulumi";
import type { FleetHosts, WorkspaceClient } from "../../sdk";
import type { ConnectionArgs } from "../resources/inputs";
import { formerlyOutput, readOutput, readPromise, type DeclaredFields, type PlainConnectionArgs } from "./call";

const fleetHosts = (client: WorkspaceClient): Promise<FleetHosts> => client.getFleetHosts();

/**
 * The fleet's regions and hosts with their live capacity (`GET /v1/fleet/hosts`), to choose a
 * VM `placement`. Any valid API key works. Read at preview too; the result is not secret.
 */
export function getFleetHosts(args: PlainConnectionArgs = {}): Promise<FleetHosts> {
  return formerlyOutput("getFleetHosts", readPromise("getFleetHosts", args, null, fleetHosts));
}

/** `getFleetHosts` as an `Output`: its arguments may be outputs of other resources. */
export function getFleetHostsOutput(args: ConnectionArgs = {}): pulumi.Output<DeclaredFields<FleetHosts>> {
  return readOutput<null, DeclaredFields<FleetHosts>>("getFleetHosts", args, null, fleetHosts);
}
