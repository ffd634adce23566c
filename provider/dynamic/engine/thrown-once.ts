/**
 * An error a provider method throws reaches the user once on its resource's row and once under
 * Diagnostics: the engine prints the gRPC error's message there. The dynamic provider host
 * (`@pulumi/pulumi` cmd/dynamic-provider) also writes `${e}: ${e.stack}` to stderr when `check`,
 * `diff`, `read` or `delete` throws, which the engine shows on the Stack row and again under
 * Diagnostics: the whole text twice, then a stack trace into our code. That echo says nothing the
 * row does not, so it is dropped; anything else written to stderr is kept.
 */

/** The echoes expected, by exact text: each is dropped once, the first time the host writes it. */
const expected = new Set<string>();
let installed = false;

/** The text the host writes for `e`. */
const echoOf = (e: Error): string => `${String(e)}: ${e.stack}`;

/** Drops, from now on in this process, the host's echo of an error that `echoOnce`'s methods threw. */
export function dropHostEchoes(): void {
  if (installed) return;
  installed = true;
  const write = console.error.bind(console);
  console.error = (...args: unknown[]): void => {
    if (args.length === 1 && typeof args[0] === "string" && expected.delete(args[0])) return;
    write(...args);
  };
}

/** The methods the host echoes a throw of. */
const ECHOED = ["check", "diff", "read", "delete"] as const;

/** `provider` with each of check, diff, read and delete noting what it throws, for `dropHostEchoes`. */
export function echoOnce<P extends object>(provider: P): P {
  const wrapped = { ...provider } as Record<string, unknown>;
  for (const name of ECHOED) {
    const method = (provider as Record<string, unknown>)[name];
    if (typeof method !== "function") continue;
    wrapped[name] = async (...args: unknown[]): Promise<unknown> => {
      try {
        return await (method as (...a: unknown[]) => Promise<unknown>).apply(provider, args);
      } catch (e) {
        // Bounded: an echo not written (another host's wording) must not pile up.
        if (installed && e instanceof Error && expected.size < 100) expected.add(echoOf(e));
        throw e;
      }
    };
  }
  return wrapped as P;
}
