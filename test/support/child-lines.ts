import type { ChildProcess } from "node:child_process";
import type { Readable } from "node:stream";

/**
 * The port a helper process prints as `listening <port>` on its stdout; every other line goes to
 * `onLine`, as it comes. Rejects if the process exits before it listens.
 */
export function listeningPort(
  child: ChildProcess & { stdout: Readable },
  onLine: (line: string) => void,
): Promise<number> {
  let buffered = "";
  return new Promise<number>((resolve, reject) => {
    child.once("exit", (code) => reject(new Error(`${child.spawnargs.join(" ")} exited (${code}) before listening`)));
    child.stdout.on("data", (chunk: Buffer) => {
      buffered += chunk.toString();
      const lines = buffered.split("\n");
      buffered = lines.pop()!;
      for (const line of lines) {
        const listening = /^listening (\d+)$/.exec(line);
        if (listening) resolve(Number(listening[1]));
        else if (line) onLine(line);
      }
    });
  });
}
