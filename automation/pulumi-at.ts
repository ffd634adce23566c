import { spawn } from "node:child_process";
import * as path from "node:path";
import { pulumiBinaryOf, type StackPlace } from "./place";

/** Output past this is a state too large to handle here. */
const MAX_OUTPUT_BYTES = 512 * 1024 * 1024; // 512 MiB
/** How long a cancelled command has to stop after SIGINT (it releases the stack's lock) before SIGKILL. */
const CANCEL_GRACE_MS = 10_000;

export interface PulumiAtOptions {
  /** Named with `--stack`: the watch never selects a stack (that would change the user's own commands). */
  stack?: string;
  /** Ends the command: SIGINT, then SIGKILL after a grace. */
  signal?: AbortSignal;
}

/**
 * Runs the `pulumi` of `place`'s PATH in `place`'s directory and environment, non-interactively,
 * and resolves to its stdout; a non-zero exit rejects with the command and Pulumi's own words (its
 * stderr, else its stdout). Spawning the CLI keeps the caller's process free of the Automation
 * API's runtime (the whole of @pulumi/pulumi, grpc, protobufs: some 70 MB resident).
 */
export function pulumiAt(args: readonly string[], place: StackPlace, options: PulumiAtOptions = {}): Promise<string> {
  const base = place.env ?? process.env;
  const binary = pulumiBinaryOf(base);
  // Its own directory first, as the Automation API does: the plugins bundled with it are the ones it finds.
  const PATH = path.isAbsolute(binary)
    ? [path.dirname(binary), base.PATH].filter(Boolean).join(path.delimiter)
    : base.PATH;
  const env = { ...base, PATH, PULUMI_SKIP_UPDATE_CHECK: "true" };
  const full = [...args, "--non-interactive", ...(options.stack ? ["--stack", options.stack] : [])];
  const command = `\`pulumi ${args.join(" ")}\``;
  const { signal } = options;
  return new Promise((resolve, reject) => {
    if (signal?.aborted) return reject(new Error(`${command} was cancelled`));
    const child = spawn(binary, full, { cwd: place.cwd, env, stdio: ["ignore", "pipe", "pipe"] });
    const out: Buffer[] = [];
    const err: Buffer[] = [];
    let size = 0;
    let tooLarge = false;
    let kill: NodeJS.Timeout | undefined;
    const cancel = (): void => {
      child.kill("SIGINT");
      kill ??= setTimeout(() => child.kill("SIGKILL"), CANCEL_GRACE_MS);
      kill.unref();
    };
    signal?.addEventListener("abort", cancel, { once: true });
    child.stdout.on("data", (chunk: Buffer) => {
      size += chunk.length;
      if (size > MAX_OUTPUT_BYTES && !tooLarge) {
        tooLarge = true;
        child.kill("SIGKILL");
      }
      if (!tooLarge) out.push(chunk);
    });
    child.stderr.on("data", (chunk: Buffer) => err.push(chunk));
    child.on("error", (e) => {
      signal?.removeEventListener("abort", cancel);
      reject(new Error(`${command} failed: ${e.message}`));
    });
    child.on("close", (code) => {
      signal?.removeEventListener("abort", cancel);
      if (kill) clearTimeout(kill);
      const stdout = Buffer.concat(out).toString("utf8");
      if (signal?.aborted) reject(new Error(`${command} was cancelled`));
      else if (tooLarge) reject(new Error(`${command} failed: its output passed ${MAX_OUTPUT_BYTES} bytes`));
      else if (code !== 0) {
        const said = Buffer.concat(err).toString("utf8").trim() || diagnosticsOf(stdout) || `exit code ${String(code)}`;
        reject(new Error(`${command} failed: ${said}`));
      } else resolve(stdout);
    });
  });
}

/** The error diagnostics a `--json` command prints on stdout when it fails (its stderr then says nothing). */
function diagnosticsOf(stdout: string): string {
  try {
    const doc = JSON.parse(stdout) as { diagnostics?: { message?: string; severity?: string }[] };
    return (doc.diagnostics ?? [])
      .filter((d) => d.severity === "error" && d.message)
      .map((d) => `error: ${String(d.message).trim()}`)
      .join("\n");
  } catch {
    return stdout.trim().slice(0, 2000);
  }
}

/** `pulumiAt`'s stdout parsed as JSON; output that is not JSON rejects naming the command. */
export async function pulumiJsonAt<T>(
  args: readonly string[],
  place: StackPlace,
  options?: PulumiAtOptions,
): Promise<T> {
  const text = await pulumiAt(args, place, options);
  try {
    return JSON.parse(text) as T;
  } catch {
    // Its text is not shown: a state export holds secrets in plaintext.
    throw new Error(`\`pulumi ${args.join(" ")}\` printed no JSON (${text.length} characters)`);
  }
}
