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

export type Resolved = { baseUrl?: string; workspace?: string; apiKey?: string };

/** Args → Workspace → stack config `wws:*` → environment, in the program's process. */
export function connectionOutput(args: ConnectionArgs): pulumi.Output<Resolved> {
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

export async function withClient<T>(
  what: string,
  given: Resolved,
  fn: (client: WorkspaceClient) => Promise<T>,
): Promise<T> {
  const client = new WorkspaceClient(programConnection(what, given), programNetwork(what));
  try {
    return await fn(client);
  } finally {
    await client.close();
  }
}

/**
 * The value of `output` as a promise, for a function's `Promise` form (`await getTemplate(…)`).
 * Arguments unknown at preview (an output of a resource not created yet) have no value to give:
 * use the `…Output` form for them.
 */
export function promiseOf<T>(output: pulumi.Output<T>): Promise<T> {
  return new Promise((resolve) => {
    output.apply((value) => {
      resolve(value);
      return value;
    });
  });
}

/**
 * `output`, also awaitable as the `Promise` form: what `getFleetHosts` and `getWorkloadStatus`
 * return, so that programs written when they returned only an `Output` keep working.
 */
function awaitable<T>(output: pulumi.Output<T>): pulumi.Output<T> & PromiseLike<T> {
  const then: PromiseLike<T>["then"] = (ok, fail) => promiseOf(output).then(ok, fail);
  return Object.assign(output, { then });
}

/** The result of `read`, with the connection of `args`, as an `Output` that is not secret (a result carries no secret). */
export function readOutput<T>(
  what: string,
  args: ConnectionArgs,
  read: (client: WorkspaceClient) => Promise<T>,
): pulumi.Output<T> {
  const result = connectionOutput(args).apply((c) => withClient(what, c, read));
  return pulumi.unsecret(result) as pulumi.Output<T>;
}

/**
 * The fleet's regions and hosts with their live capacity (`GET /v1/fleet/hosts`), to choose a
 * VM `placement`. Any valid API key works. Read at preview too; the result is not secret.
 * An `Output` that can also be awaited; `getFleetHostsOutput` is the plain `Output` form.
 */
export function getFleetHosts(args: ConnectionArgs = {}): pulumi.Output<FleetHosts> & PromiseLike<FleetHosts> {
  return awaitable(getFleetHostsOutput(args));
}

/** `getFleetHosts` as an `Output`. */
export function getFleetHostsOutput(args: ConnectionArgs = {}): pulumi.Output<FleetHosts> {
  return readOutput("getFleetHosts", args, (client) => client.getFleetHosts());
}

export interface GetWorkloadStatusArgs extends ConnectionArgs {
  /** The workload id in its workspace. */
  workloadId: pulumi.Input<string>;
}

/**
 * The `/status` record of a workload (phase, message, endpoint, …), read now; fails if there is no
 * such workload. An `Output` that can also be awaited; `getWorkloadStatusOutput` is the plain `Output` form.
 */
export function getWorkloadStatus(
  args: GetWorkloadStatusArgs,
): pulumi.Output<WorkloadStatus> & PromiseLike<WorkloadStatus> {
  return awaitable(getWorkloadStatusOutput(args));
}

/** `getWorkloadStatus` as an `Output`. */
export function getWorkloadStatusOutput(args: GetWorkloadStatusArgs): pulumi.Output<WorkloadStatus> {
  return pulumi
    .output(args.workloadId)
    .apply((id) => readOutput("getWorkloadStatus", args, (client) => client.getStatus(id)));
}
