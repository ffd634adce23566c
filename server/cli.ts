#!/usr/bin/env node
/** `wws-local` (the installed package's command) and `npm run service`: the local service from a shell. */
import { existsSync, mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { UsageError } from "../command-line";
import { USAGE, flagOf, parseCliArgs } from "./cli-args";
import { DEFAULT_SERVICE_OPTIONS, OptionError } from "./options";
import { writeSeedDataDir } from "./seed";
import { startService } from "./service";

/** Exit status for invalid options, as usual for command-line tools. */
const EXIT_USAGE = 2;

async function main(): Promise<void> {
  let args;
  try {
    args = parseCliArgs(process.argv.slice(2));
  } catch (err) {
    if (!(err instanceof UsageError)) throw err;
    console.error(`wws-service: ${err.message}\n${USAGE}`);
    process.exit(EXIT_USAGE);
  }
  if (args.help) {
    console.log(USAGE);
    return;
  }
  let seedDir: string | undefined;
  if (args.seed) {
    const given = args.options.dataDir;
    if (given !== undefined && existsSync(join(given, "state.json"))) {
      console.error(`wws-service: --seed: --data-dir ${given} already holds state; give an empty directory`);
      process.exit(EXIT_USAGE);
    }
    const dir = given ?? (seedDir = mkdtempSync(join(tmpdir(), "wws-seed-")));
    writeSeedDataDir(dir, args.seed);
    args.options.dataDir = dir;
  }
  const removeSeedDir = (): void => {
    if (seedDir) rmSync(seedDir, { recursive: true, force: true });
  };
  const log = args.quiet ? false : (line: string) => console.log(line);
  let service;
  try {
    service = await startService({ ...args.options, log });
  } catch (err) {
    if (err instanceof OptionError) {
      console.error(`wws-service: ${flagOf(err.option)}: ${err.problem}`);
      process.exit(EXIT_USAGE);
    }
    throw err;
  }
  const keyNote =
    args.options.keys === undefined ? ` (workspace demo, API key ${DEFAULT_SERVICE_OPTIONS.keys.demo})` : "";
  console.log(`wws-service listening on ${service.url}${keyNote}`);
  const stop = (signal: string): void => {
    console.log(`wws-service: ${signal}, closing`);
    service.close().then(
      () => {
        removeSeedDir();
        process.exit(0);
      },
      () => process.exit(1),
    );
  };
  process.once("SIGINT", () => stop("SIGINT"));
  process.once("SIGTERM", () => stop("SIGTERM"));
}

main().catch((err: unknown) => {
  console.error(`wws-service: ${err instanceof Error ? err.message : String(err)}`);
  process.exit(1);
});
