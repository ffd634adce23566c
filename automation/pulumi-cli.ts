import { execFile } from "node:child_process";
import type { StackPlace } from "./place";

/** Output past this is a state too large to handle here. */
const MAX_OUTPUT_BYTES = 512 * 1024 * 1024; // 512 MiB

/**
 * Runs the `pulumi` CLI on PATH in the current directory (or `where`), non-interactively, and resolves to its
 * stdout; a non-zero exit rejects with the command and its stderr. Passphrases and backend URLs
 * come from the environment, as for any pulumi command the user runs.
 */
export function pulumi(args: readonly string[], stack?: string, where: StackPlace = {}): Promise<string> {
  const full = [...args, "--non-interactive", ...(stack ? ["--stack", stack] : [])];
  const options = { maxBuffer: MAX_OUTPUT_BYTES, encoding: "utf8" as const, cwd: where.cwd, env: where.env };
  return new Promise((resolve, reject) => {
    execFile("pulumi", full, options, (err, stdout, stderr) => {
      if (err) reject(new Error(`\`pulumi ${args.join(" ")}\` failed: ${(stderr || err.message).trim()}`));
      else resolve(stdout);
    });
  });
}
