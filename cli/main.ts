#!/usr/bin/env node
/** `pulumi-wws <command>`: the commands of the installed package. */
import { UsageError, type Io } from "../command-line";
import { IMPORT_USAGE, parseImportArgs } from "./import/args";
import { RECOVER_USAGE, parseRecoverArgs } from "./recover/args";
import { REHEARSE_USAGE, parseRehearseArgs } from "./rehearse/args";
import { WATCH_USAGE, parseWatchArgs } from "./watch/args";

// Each command's modules load only when it runs: import and rehearse load Pulumi's language SDK
// (gRPC among it), some 65 MB a long-running watch would otherwise hold for nothing.

const USAGE = `Usage: pulumi-wws <command>
  import    write a Pulumi project that takes over a live workspace (pulumi-wws import --help)
  recover   after a killed \`pulumi up\`: take the creates the stack's record proves into its state (pulumi-wws recover --help)
  watch     report every change made outside Pulumi to a stack's workloads as it happens (pulumi-wws watch --help)
  rehearse  run the stack's change against a copy of the workspace and say what \`pulumi up\` would do (pulumi-wws rehearse --help)
The local service is its own command: wws-local --help`;

/** Runs a command; resolves to the exit status (0 done, 1 failed, 2 usage). */
export async function main(argv: readonly string[], env: NodeJS.ProcessEnv, io: Io): Promise<number> {
  const [command, ...rest] = argv;
  if (command === undefined || command === "--help" || command === "-h") {
    io.out(USAGE);
    return command === undefined ? 2 : 0;
  }
  if (command === "recover")
    return runCommand(
      "recover",
      RECOVER_USAGE,
      () => parseRecoverArgs(rest),
      io,
      async (args) => (await import("./recover/run")).runRecover(args, env, io),
    );
  if (command === "watch")
    return runCommand(
      "watch",
      WATCH_USAGE,
      () => parseWatchArgs(rest),
      io,
      async (args) => (await import("./watch/run")).runWatch(args, env, io),
    );
  if (command === "rehearse")
    return runCommand(
      "rehearse",
      REHEARSE_USAGE,
      () => parseRehearseArgs(rest),
      io,
      async (args) => (await import("./rehearse/run")).runRehearse(args, env, io),
    );
  if (command !== "import") {
    io.err(`pulumi-wws: unknown command ${command}\n${USAGE}`);
    return 2;
  }
  return runCommand(
    "import",
    IMPORT_USAGE,
    () => parseImportArgs(rest, env),
    io,
    async (args) => {
      const r = await (await import("./import/run")).runImport(args);
      io.out(
        `pulumi-wws import: wrote ${r.files.join(", ")} to ${r.dir}: ${r.workloads} workloads, ${r.templates} templates of workspace ${args.workspace}`,
      );
      for (const s of r.skipped) io.out(`  left out ${s.id}: ${s.why}`);
      io.out(`Next: see ${r.dir}/README.md (npm install, pulumi stack init, the secrets to set, pulumi up).`);
      return 0;
    },
  );
}

/** One command's frame: its flags parsed (a usage error exits 2), `--help`, then `run`, whose failure exits 1. */
async function runCommand<A extends { help: boolean }>(
  name: string,
  usage: string,
  parse: () => A,
  io: Io,
  run: (args: A) => Promise<number>,
): Promise<number> {
  let args: A;
  try {
    args = parse();
  } catch (err) {
    if (!(err instanceof UsageError)) throw err;
    io.err(`pulumi-wws ${name}: ${err.message}\n${usage}`);
    return 2;
  }
  if (args.help) {
    io.out(usage);
    return 0;
  }
  try {
    return await run(args);
  } catch (err) {
    io.err(`pulumi-wws ${name}: ${err instanceof Error ? err.message : String(err)}`);
    return 1;
  }
}

if (require.main === module) {
  main(process.argv.slice(2), process.env, { out: (l) => console.log(l), err: (l) => console.error(l) }).then(
    (code) => (process.exitCode = code),
    (err: unknown) => {
      console.error(`pulumi-wws: ${err instanceof Error ? err.message : String(err)}`);
      process.exitCode = 1;
    },
  );
}
