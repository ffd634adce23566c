import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { dirname, join } from "node:path";
import { API_KEY, WORKSPACE, preciseNow, round, spawnService } from "./common";
import { cliEnv, linkPackages } from "./pulumi-stack";
import { pulumiBinDir, repoRoot } from "./pulumi-up";
import { s1, type Report } from "./report";

/**
 * Scenario 13: a rehearsal against the change itself. A stack of one pod on a local service (its
 * own reconcile step, as a user runs it) gets a change of `pods` new pods: `pulumi-wws rehearse`
 * of it (the copy, the preview, the up on the copy, the second preview), then `pulumi up` of the
 * same change on the service, side by side in one run, both at the engine's default parallelism.
 * Target: the rehearsal within 1.5× of the up (the copy's reconciler runs without delay).
 */

export const REHEARSE_RATIO_TARGET = 1.5;

export interface RehearseBenchResult {
  pods: number;
  rehearseMs: number;
  upMs: number;
  /** The rehearsal's own steps, in ms. */
  steps: Record<string, number>;
  verdict: string;
}

const PROGRAM = `const wws = require("pulumi-wws");
const n = Number(process.env.BENCH_REHEARSE_PODS || "0");
new wws.Pod("base", { image: "nginx:1.27" });
for (let i = 0; i < n; i++) new wws.Pod("pod-" + i, { image: "nginx:1.27", readyTimeoutSeconds: 120 });
`;

export async function runRehearseBench(options: {
  pods: number;
  progress?: (line: string) => void;
}): Promise<RehearseBenchResult> {
  const auto = await import("@pulumi/pulumi/automation");
  const { rehearse } = await import("../rehearse");
  const pulumiCommand = await auto.PulumiCommand.get({ root: dirname(pulumiBinDir()) });
  const svc = await spawnService({});
  const tmp = mkdtempSync(join(tmpdir(), "wws-bench-rehearse-"));
  try {
    const workDir = join(tmp, "project");
    mkdirSync(join(tmp, "backend"));
    linkPackages(repoRoot(), workDir);
    writeFileSync(join(workDir, "Pulumi.yaml"), "name: wws-rehearse-bench\nruntime: nodejs\n");
    writeFileSync(join(workDir, "index.js"), PROGRAM);
    const envVars: Record<string, string> = {
      ...cliEnv(pulumiBinDir(), svc.url),
      PULUMI_BACKEND_URL: `file://${join(tmp, "backend")}`,
    };
    const stack = await auto.LocalWorkspace.createOrSelectStack(
      { stackName: "bench", workDir },
      { pulumiCommand, envVars },
    );
    await stack.setAllConfig({
      "wws:baseUrl": { value: svc.url },
      "wws:workspace": { value: WORKSPACE },
      "wws:apiKey": { value: API_KEY, secret: true },
    });
    await stack.up();
    stack.workspace.envVars.BENCH_REHEARSE_PODS = String(options.pods);
    const env = { ...process.env, ...envVars, BENCH_REHEARSE_PODS: String(options.pods) };

    let t = preciseNow();
    const report = await rehearse({ workDir, stack: "bench", env });
    const rehearseMs = preciseNow() - t;
    options.progress?.(`rehearsal of ${options.pods} new pods: ${s1(rehearseMs)} (${report.summary})`);
    if (report.exitCode !== 0) throw new Error(`the rehearsal did not pass: ${report.summary}`);

    // Both at the engine's default parallelism, as a user runs them: the rehearsal's up is a plain `up`.
    t = preciseNow();
    const up = await stack.up();
    const upMs = preciseNow() - t;
    const created = up.summary.resourceChanges?.create ?? 0;
    if (created !== options.pods) throw new Error(`the up created ${created} resources, expected ${options.pods}`);
    options.progress?.(`pulumi up of the same ${options.pods} new pods: ${s1(upMs)}`);
    await stack.destroy({ parallel: 1000 });
    const steps = Object.fromEntries(report.steps.map((s) => [s.step, Math.round(s.ms)]));
    return { pods: options.pods, rehearseMs, upMs, steps, verdict: report.verdict };
  } finally {
    await svc.stop();
    rmSync(tmp, { recursive: true, force: true });
  }
}

export function addRehearse(report: Report, r: RehearseBenchResult): void {
  const ratio = round(r.rehearseMs / r.upMs, 2);
  const steps = Object.entries(r.steps)
    .map(([step, ms]) => `${step} ${s1(ms)}`)
    .join(", ");
  report.rows.push([
    "13 rehearse",
    "rehearsal (copy, preview, up, preview)",
    `${r.pods} pods`,
    `${s1(r.rehearseMs)} wall`,
    "-",
    "-",
    "-",
    steps,
  ]);
  report.rows.push([
    "13 rehearse",
    "pulumi up of the same change",
    `${r.pods} pods`,
    `${s1(r.upMs)} wall`,
    "-",
    "-",
    "-",
    "",
  ]);
  report.json.rehearse = {
    pods: r.pods,
    rehearse_s: round(r.rehearseMs / 1000, 2),
    up_s: round(r.upMs / 1000, 2),
    ratio,
    steps_ms: r.steps,
  };
  report.targets.push({
    name: `a rehearsal of a ${r.pods}-pod change vs pulumi up of it`,
    target: `≤ ${REHEARSE_RATIO_TARGET}×`,
    value: `${ratio}×`,
    met: ratio <= REHEARSE_RATIO_TARGET,
  });
}
