import * as pulumi from "@pulumi/pulumi";
import { Declarations } from "../provider/dynamic/ownership/declarations";
import type { Props } from "../provider/dynamic/inputs/props";
import { TEMPLATE_RULES } from "../provider/fields/template-fields";
import { WORKLOAD_RULES } from "../provider/fields/workload-rules";
import { Template } from "../provider/resources/template";
import { WorkloadResource } from "../provider/resources/workload";
import { DEFAULT_SERVICE_OPTIONS } from "../server/options";
import { programResource, type MockOutcome, type MockRun } from "./mock-run";
import { mockTemplate } from "./mock-template";
import { mockWorkload } from "./mock-workload";
import { MockService, type MockLive } from "./mock-reads";
import { answerReadsWith } from "../provider/functions/call";

export interface WwsMocksOptions {
  /**
   * The stack config, as `pulumi config` holds it: `{"wws:workspace": "team"}`. `wws:baseUrl` and
   * `wws:apiKey` get placeholders when not given: nothing is sent anywhere.
   */
  config?: Record<string, string>;
  /** The environment the provider reads `WWS_*` from, after the config. @default process.env */
  env?: Readonly<Record<string, string | undefined>>;
  /** Mocks of the program's other resources and calls. @default a resource's state is its inputs; a call returns its inputs */
  others?: pulumi.runtime.Mocks;
  /** @default "project" */
  project?: string;
  /** @default "stack" */
  stack?: string;
  /**
   * Workloads and templates that exist before the program runs, for `Class.get` and the functions
   * (`getWorkload`, `listTemplates`, …) to find. Those and what earlier runs and this run recorded
   * answer them; `getFleetHosts` answers the local service's default fleet. @default none
   */
  live?: MockLive;
  /** The domain of endpoints and admin consoles. @default the local service's, "workloads.localhost" */
  workloadDomain?: string;
}

/** A resource of `pulumi-wws` as a run under the mocks left it. */
export interface MockedResource {
  type: string;
  name: string;
  id: string;
  /** The inputs as `check` left them: what `pulumi preview` shows and a policy pack sees (a password replaced by its digest). */
  inputs: Record<string, unknown>;
  /** What `pulumi up` records: those inputs and what the service reports (`phase`, `endpoint`, `connectionUri`, …). */
  outputs: Record<string, unknown>;
}

const PLACEHOLDERS = Object.freeze({ "wws:baseUrl": "https://wws.mocks.invalid", "wws:apiKey": "mock-api-key" });

interface Run extends MockRun {
  resources: MockedResource[];
  errors: string[];
}

/**
 * `pulumi.runtime.Mocks` that take the resources of `pulumi-wws` as its provider does, with its own
 * code and no service: every field checked (with did-you-mean), one resource per workload id, no
 * database replaced without `allowDataLoss`, and the outputs of a workload that runs. A refused
 * resource gets no outputs; `settled()` fails with what `pulumi preview` prints for it.
 *
 * @example
 * const mocks = new WwsMocks({ config: { "wws:workspace": "team" } });
 * await mocks.install();
 * new wws.Pod("web", { image: "nginx:1.27", ports: [{ name: "http", port: 80 }] });
 * const [web] = await mocks.settled(); // web.outputs.endpoint: "web.team.workloads.localhost:80"
 */
export class WwsMocks implements pulumi.runtime.Mocks {
  /** The outputs each run recorded, by URN: what a later run is diffed against. */
  private readonly state = new Map<string, Props>();
  private readonly runs = new WeakMap<object, Run>();

  private readonly service: MockService;

  constructor(private readonly options: WwsMocksOptions = {}) {
    this.service = new MockService(
      () => this.currentRun(),
      options.live ?? {},
      () => pulumi.runtime.getConfig("wws:workspace"),
    );
  }

  /**
   * Starts a run of the program: the stack config, then `pulumi.runtime.setMocks` with these mocks.
   * What earlier runs recorded is kept, so a second run is checked as an update of the first.
   */
  async install(): Promise<void> {
    for (const [k, v] of Object.entries({ ...PLACEHOLDERS, ...this.options.config })) pulumi.runtime.setConfig(k, v);
    await pulumi.runtime.setMocks(this, this.options.project, this.options.stack, false);
    answerReadsWith((workspace) => this.service.client(workspace));
  }

  /**
   * Waits until every resource the program declared so far reached the mocks. Rejects with the
   * errors `pulumi preview` would print of the run, one a line; else gives its resources.
   */
  async settled(): Promise<MockedResource[]> {
    await registrationsSent();
    const run = this.currentRun();
    if (run.errors.length > 0) throw new Error(run.errors.join("\n"));
    return [...run.resources];
  }

  async newResource(args: pulumi.runtime.MockResourceArgs): Promise<pulumi.runtime.MockResourceResult> {
    const run = this.currentRun();
    const typed = { __pulumiType: args.type };
    const isWorkload = WorkloadResource.isInstance(typed);
    const r = programResource(args);
    if (args.id && (isWorkload || Template.isInstance(typed))) return this.read(args, isWorkload);
    let outcome: MockOutcome;
    if (isWorkload) outcome = await mockWorkload(r, run);
    else if (Template.isInstance(typed)) outcome = mockTemplate(r, run);
    else if (this.options.others) return this.options.others.newResource(args);
    else return { id: args.custom === false ? undefined : `${args.name}-id`, state: args.inputs };

    if ("errors" in outcome) {
      run.errors.push(...outcome.errors);
      return { id: undefined, state: {} };
    }
    if (r.urn !== undefined) this.state.set(r.urn, outcome.outputs);
    run.resources.push({ type: args.type, name: args.name, ...outcome });
    // Secret as the engine keeps them: the class's secret fields and whatever the program gave as a secret.
    const secret = new Set([...(isWorkload ? WORKLOAD_RULES : TEMPLATE_RULES).secretKeys, ...r.secretKeys]);
    const state = Object.fromEntries(
      Object.entries(outcome.outputs).map(([k, v]) => [k, secret.has(k) ? pulumi.secret(v) : v]),
    );
    return { id: outcome.id, state };
  }

  /** A `Class.get`: the live outputs, or the error `pulumi preview` prints for a missing id. */
  private read(args: pulumi.runtime.MockResourceArgs, isWorkload: boolean): pulumi.runtime.MockResourceResult {
    const run = this.currentRun();
    const found = this.service.get(String(args.id), !isWorkload);
    if ("error" in found) {
      run.errors.push(String(found.error));
      return { id: undefined, state: {} };
    }
    run.resources.push({ type: args.type, name: args.name, id: String(args.id), inputs: {}, outputs: found });
    return { id: String(args.id), state: found };
  }

  call(args: pulumi.runtime.MockCallArgs): pulumi.runtime.MockCallResult | Promise<pulumi.runtime.MockCallResult> {
    return this.options.others ? this.options.others.call(args) : args.inputs;
  }

  /** The run of the mock monitor in place: each `setMocks` makes one. */
  private currentRun(): Run {
    const monitor = pulumi.runtime.getMonitor() ?? this;
    let run = this.runs.get(monitor);
    if (run === undefined) {
      run = {
        sources: { config: { get: (k) => pulumi.runtime.getConfig(k) }, env: this.options.env ?? process.env },
        declarations: new Declarations(),
        state: this.state,
        workloadDomain: this.options.workloadDomain ?? DEFAULT_SERVICE_OPTIONS.workloadDomain,
        now: new Date(),
        resources: [],
        errors: [],
      };
      this.runs.set(monitor, run);
    }
    return run;
  }
}

/** `@pulumi/pulumi`'s queue of registrations: each waits for its inputs before it reaches the mocks. */
async function registrationsSent(): Promise<void> {
  // Internal to @pulumi/pulumi (what its `disconnect` awaits), but without closing the monitor.
  const settings = (await import("@pulumi/pulumi/runtime/settings")) as unknown as { waitForRPCs?(): Promise<void> };
  if (typeof settings.waitForRPCs !== "function")
    throw new Error("WwsMocks.settled needs a @pulumi/pulumi whose runtime/settings has waitForRPCs");
  await settings.waitForRPCs();
}
