import type { WorkloadType } from "../sdk";
import { WorkspaceClient } from "../sdk";
import { workspaceKey } from "./common";
import type { PulumiCommand } from "./pulumi-stack";

type Automation = typeof import("@pulumi/pulumi/automation");

/** One stack of scenario 14: its name, its workspace (`wws:workspace` in its config) and how many pods. */
export interface FleetStack {
  name: string;
  workspace: string;
  pods: number;
}

/** A workload the watch is told about: where it is and its spec as the stack deployed it. */
export interface DeployedWorkload {
  workspace: string;
  id: string;
  type: WorkloadType;
  spec: Record<string, unknown>;
}

export interface DeployOptions {
  auto: Automation;
  pulumiCommand: PulumiCommand;
  url: string;
  workDir: string;
  env: Record<string, string>;
  project: string;
  /** CLI runs at once while the clones are imported. */
  concurrency: number;
  progress: (line: string) => void;
}

/** The stack's connection: its workspace and that workspace's key (a secret). */
function configOf(s: FleetStack): Record<string, { value: string; secret?: boolean }> {
  return { "wws:workspace": { value: s.workspace }, "wws:apiKey": { value: workspaceKey(s.workspace), secret: true } };
}

/** `program` of `stack`: its pods, ids `<stack>-<i>`. */
function podsOf(stack: FleetStack): () => Promise<void> {
  return async () => {
    const { Pod } = await import("../provider");
    for (let i = 0; i < stack.pods; i++)
      new Pod(`p-${i}`, { workloadId: `${stack.name}-${i}`, image: "nginx:1.27", memory: "128Mi" });
  };
}

/**
 * Deploys `stacks` so that a watch sees each as a stack it manages, without a `pulumi up` of each:
 * the first of each size is a real `pulumi up`; every other of that size gets the same workloads
 * (ids renamed) created through the service's API, as the provider created the first's, and the
 * first's state with its stack, workspace and ids renamed, through `pulumi stack import`, and its
 * `wws:workspace` and `wws:apiKey` through `pulumi config set`. The service keeps no owner per workload, so the
 * workloads are the same as an up would make; the state is what `pulumi stack export` wrote.
 * Names must not be a prefix of one another's (`f00`, not `f0`), since ids are renamed by prefix.
 */
export async function deployFleet(stacks: FleetStack[], o: DeployOptions): Promise<DeployedWorkload[]> {
  const { auto } = o;
  const opts = {
    workDir: o.workDir,
    pulumiCommand: o.pulumiCommand,
    envVars: o.env,
    projectSettings: { name: o.project, runtime: "nodejs" as const },
  };
  const templates = new Map<number, { stack: FleetStack; state: string; workloads: DeployedWorkload[] }>();
  const deployed: DeployedWorkload[] = [];
  const queue = [...stacks];
  const clone = async (s: FleetStack): Promise<void> => {
    const tpl = templates.get(s.pods)!;
    const rename = (text: string): string =>
      text
        .replaceAll(`urn:pulumi:${tpl.stack.name}::`, `urn:pulumi:${s.name}::`)
        .replaceAll(
          `pulumi:pulumi:Stack::${o.project}-${tpl.stack.name}"`,
          `pulumi:pulumi:Stack::${o.project}-${s.name}"`,
        )
        .replaceAll(`${tpl.stack.workspace}/${tpl.stack.name}-`, `${s.workspace}/${s.name}-`)
        .replaceAll(`"${tpl.stack.name}-`, `"${s.name}-`)
        .replaceAll(`"${tpl.stack.workspace}"`, `"${s.workspace}"`);
    const client = new WorkspaceClient({ baseUrl: o.url, workspace: s.workspace, apiKey: workspaceKey(s.workspace) });
    try {
      for (const w of tpl.workloads) {
        const id = w.id.replace(`${tpl.stack.name}-`, `${s.name}-`);
        await client.upsertWorkload(w.type, { ...w.spec, id } as never);
        deployed.push({ ...w, workspace: s.workspace, id });
      }
    } finally {
      await client.close();
    }
    // Pulumi.yaml as the templates' up wrote it: a workspace given project settings rewrites the
    // file, and a `pulumi stack init` beside it could read it empty.
    const stack = await auto.LocalWorkspace.createStack(
      { stackName: s.name, projectName: o.project, program: podsOf(s) },
      { workDir: o.workDir, pulumiCommand: o.pulumiCommand, envVars: o.env },
    );
    await stack.importStack(JSON.parse(rename(tpl.state)));
    await stack.setAllConfig(configOf(s));
  };
  // The templates first, one after the other: a real up each.
  for (const s of stacks) {
    if (templates.has(s.pods)) continue;
    queue.splice(queue.indexOf(s), 1);
    o.progress(`watch fleet: pulumi up of ${s.pods} pods in stack ${s.name} (workspace ${s.workspace})`);
    const stack = await auto.LocalWorkspace.createOrSelectStack(
      { stackName: s.name, projectName: o.project, program: podsOf(s) },
      opts,
    );
    await stack.setAllConfig(configOf(s));
    await stack.up({ parallel: s.pods });
    const client = new WorkspaceClient({ baseUrl: o.url, workspace: s.workspace, apiKey: workspaceKey(s.workspace) });
    const workloads = (await client.getSpec()).workloads
      .filter((w) => w.id.startsWith(`${s.name}-`))
      .map((w) => ({ workspace: s.workspace, id: w.id, type: w.type as WorkloadType, spec: w.spec as never }));
    await client.close();
    if (workloads.length !== s.pods) throw new Error(`stack ${s.name}: ${workloads.length} workloads, not ${s.pods}`);
    deployed.push(...workloads);
    templates.set(s.pods, { stack: s, state: JSON.stringify(await stack.exportStack()), workloads });
  }
  o.progress(`watch fleet: ${queue.length} more stacks from their workloads and state (${o.concurrency} at once)`);
  const t0 = Date.now();
  await Promise.all(
    Array.from({ length: o.concurrency }, async () => {
      for (let s = queue.shift(); s; s = queue.shift()) await clone(s);
    }),
  );
  o.progress(`watch fleet: ${stacks.length} stacks ready (the clones in ${Math.round((Date.now() - t0) / 1000)} s)`);
  return deployed;
}
