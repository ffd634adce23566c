import { spawnService } from "./common";
import { driverArgs, fleetProject, runDriver } from "./fleet";
import { startPostgres } from "./postgres";
import { pulumiBinDir, repoRoot } from "./pulumi-up";

/**
 * `bash scripts/fleet-demo.sh [--stacks=3] [--pods=5]`: examples/fleet in one command, against
 * the local service and a PostgreSQL backend of its own, with the driver's own output: the
 * stacks' up (every stack previewed through CI's gate first), a preview that changes nothing, one
 * stack more, and the destroy of every stack; then the service and PostgreSQL stop.
 */
async function main(argv: string[]): Promise<void> {
  const option = (name: string, fallback: number): number =>
    Number(argv.find((a) => a.startsWith(`--${name}=`))?.split("=")[1] ?? fallback);
  const [stacks, pods] = [option("stacks", 3), option("pods", 5)];
  const svc = await spawnService({});
  const pg = await startPostgres().catch(async (err: unknown) => {
    await svc.stop();
    throw err;
  });
  const ctx = { root: repoRoot(), pulumiBinDir: pulumiBinDir(), serviceUrl: svc.url, postgres: pg };
  const project = fleetProject(ctx, "postgres");
  const run = async (what: string, args: string[]): Promise<void> => {
    process.stdout.write(`\n$ node examples/fleet/fleet.js ${args.join(" ")}    # ${what}\n`);
    await runDriver(ctx.root, [...args, `--dir=${project.workDir}`], project.env, 30 * 60_000, true);
  };
  try {
    const plan = { stacks, podsPerSlice: pods };
    const grown = { stacks: stacks + 1, podsPerSlice: pods };
    const [, ...sizes] = driverArgs(project.workDir, plan);
    const [, ...grownSizes] = driverArgs(project.workDir, grown);
    await run(`${stacks} stacks of ${pods} pods, at the same time`, ["up", ...sizes]);
    await run("no changes", ["preview", ...sizes]);
    await run("one stack more: the fleet grows, the others unchanged", ["up", ...grownSizes]);
    await run("every stack, then the stacks themselves", ["destroy", ...grownSizes, "--remove"]);
  } finally {
    project.cleanup();
    pg.stop();
    await svc.stop();
  }
}

main(process.argv.slice(2)).catch((err: unknown) => {
  console.error(err instanceof Error ? err.message : err);
  process.exit(1);
});
