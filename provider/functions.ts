import * as pulumi from "@pulumi/pulumi";
import {
  WorkspaceClient,
  type FleetHosts,
  type NetworkOptions,
  type WorkloadStatus,
  type WorkspaceConnection,
} from "../sdk";
import { requireConnection, requireNetworkSettings } from "./dynamic/program-side";
import { Workspace } from "./resources/workspace";
import type { ConnectionArgs } from "./resources/inputs";

type Resolved = { baseUrl?: string; workspace?: string; apiKey?: string };

/** Args → Workspace → stack config `wws:*` → environment, in the program's process. */
function connectionOutput(args: ConnectionArgs): pulumi.Output<Resolved> {
  const ws = Workspace.isInstance(args.workspace) ? args.workspace : undefined;
  const config = new pulumi.Config("wws");
  return pulumi
    .all([
      ws ? ws.connection.name : (args.workspace as pulumi.Input<string> | undefined),
      args.baseUrl ?? ws?.connection.baseUrl,
      args.apiKey ?? ws?.connection.apiKey,
      config.get("workspace"),
      config.get("baseUrl"),
      config.getSecret("apiKey"),
    ])
    .apply(([workspace, baseUrl, apiKey, cWorkspace, cBaseUrl, cApiKey]) => ({
      workspace: workspace ?? cWorkspace,
      baseUrl: baseUrl ?? cBaseUrl,
      apiKey: apiKey ?? cApiKey,
    }));
}

/** The connection of a function call, or an error naming every way to set what is missing. Exported for tests. */
export function programConnection(
  what: string,
  given: Resolved,
  env: Readonly<Record<string, string | undefined>> = process.env,
): WorkspaceConnection {
  return requireConnection(given, { env }, what).connection;
}

/** The proxy, CA certificates and plain-HTTP opt-in of the program's stack config (`wws:…`) and environment. */
function programNetwork(what: string): NetworkOptions {
  const wws = new pulumi.Config("wws");
  const sources = { config: { get: (k: string) => wws.get(k.replace(/^wws:/, "")) }, env: process.env };
  return requireNetworkSettings(sources, what).options;
}

async function withClient<T>(what: string, given: Resolved, fn: (client: WorkspaceClient) => Promise<T>): Promise<T> {
  const client = new WorkspaceClient(programConnection(what, given), programNetwork(what));
  try {
    return await fn(client);
  } finally {
    await client.close();
  }
}

/**
 * The fleet's regions and hosts with their live capacity (`GET /v1/fleet/hosts`), to choose a
 * VM `placement`. Any valid API key works. Read at preview too; the result is not secret.
 */
export function getFleetHosts(args: ConnectionArgs = {}): pulumi.Output<FleetHosts> {
  const result = connectionOutput(args).apply((c) =>
    withClient("getFleetHosts", c, (client) => client.getFleetHosts()),
  );
  return pulumi.unsecret(result) as pulumi.Output<FleetHosts>;
}

export interface GetWorkloadStatusArgs extends ConnectionArgs {
  /** The workload id in its workspace. */
  workloadId: pulumi.Input<string>;
}

/** The `/status` record of a workload (phase, message, endpoint, …), read now; fails if there is no such workload. */
export function getWorkloadStatus(args: GetWorkloadStatusArgs): pulumi.Output<WorkloadStatus> {
  const result = pulumi
    .all([connectionOutput(args), args.workloadId])
    .apply(([c, id]) => withClient("getWorkloadStatus", c, (client) => client.getStatus(id)));
  return pulumi.unsecret(result) as pulumi.Output<WorkloadStatus>;
}
