import * as pulumi from "@pulumi/pulumi";
import { WorkspaceClient, type NetworkOptions, type WorkspaceConnection } from "../../sdk";
import { requireConnection, requireNetworkSettings } from "../dynamic/program-side";
import { Workspace } from "../resources/workspace";
import type { ConnectionArgs } from "../resources/inputs";

/**
 * The call machinery of the functions (workloads.ts, templates.ts, fleet.ts), in Pulumi's two forms:
 * `getX(args)` takes plain values and returns a `Promise`, `getXOutput(args)` takes `Input`s and
 * returns an `Output`. Both resolve the connection the same way: the arguments, a `Workspace`'s,
 * the stack config `wws:*`, the environment.
 */

/**
 * Where a `Promise` form reads: plain values (a `Workspace` too, whose settings are known as the
 * program runs). Each setting left out: the stack config `wws:*`, then the environment.
 */
export interface PlainConnectionArgs {
  /** A `Workspace`, or the workspace name. */
  workspace?: string | Workspace;
  /** `http(s)://host[:port]` of the service. */
  baseUrl?: string;
  /** The workspace's API key. */
  apiKey?: string;
}

/**
 * `T` without the index signature a loose schema adds for the fields a service may add
 * (`[x: string]: unknown`): with it, every lifted property of an `Output<T>` is an
 * `Output<unknown>` (`getWorkloadStatusOutput(…).phase`), not the field's type.
 */
export type DeclaredFields<T> = { [K in keyof T as string extends K ? never : K]: T[K] };

type Resolved = { baseUrl?: string; workspace?: string; apiKey?: string };

/** The connection arguments a function was given, each an `Output`: of `args`, else of its `Workspace`. */
function givenConnection(args: ConnectionArgs): Record<keyof Resolved, pulumi.Output<string | undefined>> {
  const ws = Workspace.isInstance(args.workspace) ? args.workspace : undefined;
  return {
    workspace: pulumi.output(ws ? ws.connection.name : (args.workspace as pulumi.Input<string> | undefined)),
    baseUrl: pulumi.output(args.baseUrl ?? ws?.connection.baseUrl),
    apiKey: pulumi.output(args.apiKey ?? ws?.connection.apiKey),
  };
}

/** Args → Workspace → stack config `wws:*` → environment, in the program's process. */
function connectionOutput(given: Record<keyof Resolved, pulumi.Output<string | undefined>>): pulumi.Output<Resolved> {
  const config = new pulumi.Config("wws");
  return pulumi
    .all([
      given.workspace,
      given.baseUrl,
      given.apiKey,
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

/** The connection of a function call, or an error naming every way to set what is missing. */
function programConnection(
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

/** What the functions read, when `pulumi-wws/testing`'s mocks are installed: no service is asked. */
type MockReads = (workspace: string | undefined) => WorkspaceClient;
let mockReads: MockReads | undefined;

/** Set by `WwsMocks.install()`. */
export function answerReadsWith(reads: MockReads | undefined): void {
  mockReads = reads;
}

async function withClient<T>(what: string, given: Resolved, fn: (client: WorkspaceClient) => Promise<T>): Promise<T> {
  if (mockReads) return fn(mockReads(given.workspace));
  const client = new WorkspaceClient(programConnection(what, given), programNetwork(what));
  try {
    return await fn(client);
  } finally {
    await client.close();
  }
}

/** Whether `output` has a value: not when it comes from a resource not created yet, at preview. */
function isKnown(output: pulumi.Output<unknown>): Promise<boolean> {
  // `isKnown` is a property of every Output that @pulumi/pulumi leaves out of its declarations.
  return (output as unknown as { isKnown: Promise<boolean> }).isKnown;
}

/** The value of `output`; an unknown one fails at once, naming `argument` and the function's `Output` form, which waits for it. */
async function knownValue<T>(what: string, argument: string, output: pulumi.Output<T>): Promise<T> {
  if (!(await isKnown(output)))
    throw new Error(
      `${what}: ${argument} is not known yet (at preview, it is an output of a resource that is not created yet), ` +
        `and the Promise form cannot wait for it: use ${what}Output, which takes an Output`,
    );
  return new Promise((resolve) => {
    output.apply((value) => {
      resolve(value);
      return value;
    });
  });
}

/** The named arguments of a function: `input` itself under `argument`, or each key of an object of inputs. */
function namedInputs(argument: string, input: unknown): Array<[string, pulumi.Output<unknown>]> {
  const plain =
    typeof input === "object" && input !== null && !pulumi.Output.isInstance(input) && !Array.isArray(input);
  if (argument === "" && plain) return Object.entries(input).map(([k, v]) => [k, pulumi.output(v)]);
  return argument === "" ? [] : [[argument, pulumi.output(input)]];
}

/**
 * A function's `Output` form: `read` with the connection of `args` and the value of `input`, as an
 * `Output` that is not secret (a result carries no secret).
 */
export function readOutput<V, T>(
  what: string,
  args: ConnectionArgs,
  input: pulumi.Input<V>,
  read: (client: WorkspaceClient, value: pulumi.Unwrap<V>) => Promise<T>,
): pulumi.Output<T> {
  const result = pulumi
    .all([connectionOutput(givenConnection(args)), pulumi.output(input)])
    .apply(([c, value]) => withClient(what, c, (client) => read(client, value as pulumi.Unwrap<V>)));
  return pulumi.unsecret(result) as pulumi.Output<T>;
}

/**
 * A function's `Promise` form: as `readOutput`, and its failure rejects the promise. `argument`
 * names `input` in messages (`""`: an object whose keys are the arguments' names). Its arguments
 * are declared plain, as Pulumi's generated SDKs declare them; an `Output` passed all the same (a
 * JavaScript program, or one written when they took `Input`s) is waited for when it is known, and
 * fails at once, naming the `…Output` form, when it is not (at preview, an output of a resource not
 * created yet is never given to `apply`, so a promise of it would never settle).
 */
export async function readPromise<V, T>(
  what: string,
  args: PlainConnectionArgs | ConnectionArgs,
  input: V | pulumi.Input<V>,
  read: (client: WorkspaceClient, value: pulumi.Unwrap<V>) => Promise<T>,
  argument = "",
): Promise<T> {
  const given = givenConnection(args as ConnectionArgs);
  for (const [name, output] of [...Object.entries(given), ...namedInputs(argument, input)])
    await knownValue(what, name, output);
  const [c, value] = await knownValue(what, "an argument", pulumi.all([connectionOutput(given), pulumi.output(input)]));
  return withClient(what, c, (client) => read(client, value as pulumi.Unwrap<V>));
}

/**
 * `promise`, whose `apply` fails naming the `Output` form: `getFleetHosts` and `getWorkloadStatus`
 * returned an `Output` in 0.2.0 and before, and a JavaScript program that still calls `.apply` on them
 * learns what to call instead rather than that `apply` is not a function.
 */
export function formerlyOutput<T>(what: string, promise: Promise<T>): Promise<T> {
  const apply = (): never => {
    throw new Error(`${what} returns a Promise: await it, or call ${what}Output(…) for an Output to apply`);
  };
  return Object.defineProperty(promise, "apply", { value: apply, enumerable: false });
}
