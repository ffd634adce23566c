import { Session } from "node:inspector/promises";
import { round } from "./common";

/**
 * Scenario 6: the stack program's own CPU for `count` pods, and whose it is. The pods are
 * constructed and registered against `@pulumi/pulumi`'s mocks (no engine, no provider), under
 * the V8 profiler; each sample is charged to the nearest frame of ours (`provider/`), of
 * `@pulumi/pulumi`, or of another package, else to Node itself (GC, the runtime).
 */
export interface ProgramCpu {
  count: number;
  cpuMs: number;
  /** Sampled milliseconds by owner: `ours`, `@pulumi/pulumi`, `other packages`, `node`. */
  byOwner: Record<string, number>;
  /** The `@pulumi/pulumi` functions that took most of it. */
  topPulumi: Array<{ fn: string; ms: number }>;
}

interface ProfileNode {
  id: number;
  callFrame: { functionName: string; url: string };
  children?: number[];
}

function ownerOf(url: string): string | undefined {
  if (url.includes("/@pulumi/pulumi/")) return "@pulumi/pulumi";
  if (url.includes("/node_modules/")) return "other packages";
  if (url.includes("/provider/")) return "ours";
  return undefined;
}

export async function measureProgramCpu(count: number): Promise<ProgramCpu> {
  const pulumi = await import("@pulumi/pulumi");
  pulumi.runtime.setMocks(
    {
      newResource: (args) => ({
        id: `demo/${String(args.inputs.workloadId)}`,
        state: { ...args.inputs, phase: "Running" },
      }),
      call: () => ({}),
    },
    "bench",
    "program-cpu",
    false,
  );
  const env = { WWS_BASE_URL: "http://127.0.0.1:1", WWS_WORKSPACE: "demo", WWS_API_KEY: "bench-key" };
  Object.assign(process.env, env);
  const { Pod } = await import("../provider");
  const session = new Session();
  session.connect();
  await session.post("Profiler.enable");
  await session.post("Profiler.start");
  const started = process.cpuUsage();
  const pods = Array.from(
    { length: count },
    (_, i) => new Pod(`w-${i}`, { workloadId: `cpu-${i}`, image: "nginx:1.27", readyTimeoutSeconds: 120 }),
  );
  await Promise.all(pods.map((p) => new Promise((resolve) => p.phase.apply(resolve))));
  const used = process.cpuUsage(started);
  const { profile } = await session.post("Profiler.stop");
  session.disconnect();

  const nodes = new Map<number, ProfileNode>(profile.nodes.map((n) => [n.id, n as ProfileNode]));
  const parent = new Map<number, number>();
  for (const n of nodes.values()) for (const c of n.children ?? []) parent.set(c, n.id);
  const byOwner: Record<string, number> = {
    ours: 0,
    "@pulumi/pulumi": 0,
    "other packages": 0,
    "node (GC, runtime)": 0,
  };
  const pulumiFns = new Map<string, number>();
  const samples = profile.samples ?? [];
  const deltas = profile.timeDeltas ?? [];
  samples.forEach((sample, i) => {
    const node = nodes.get(sample)!;
    if (node.callFrame.functionName === "(idle)") return;
    const ms = (deltas[i] ?? 0) / 1000;
    for (let id: number | undefined = sample; id !== undefined; id = parent.get(id)) {
      const frame = nodes.get(id)!.callFrame;
      const owner = ownerOf(frame.url);
      if (owner === undefined) continue;
      byOwner[owner] += ms;
      if (owner === "@pulumi/pulumi") {
        const fn = `${frame.url.split("/@pulumi/pulumi/")[1]}:${frame.functionName || "(anonymous)"}`;
        pulumiFns.set(fn, (pulumiFns.get(fn) ?? 0) + ms);
      }
      return;
    }
    byOwner["node (GC, runtime)"] += ms;
  });
  const topPulumi = [...pulumiFns.entries()]
    .sort((a, b) => b[1] - a[1])
    .slice(0, 3)
    .map(([fn, ms]) => ({ fn, ms: round(ms, 0) }));
  for (const k of Object.keys(byOwner)) byOwner[k] = round(byOwner[k], 0);
  return { count, cpuMs: round((used.user + used.system) / 1000, 0), byOwner, topPulumi };
}
