/**
 * The engine closes a provider at the end of every run with SIGINT and kills it 5 s later
 * (`plugin.go` at v3.259.0: interrupt, then kill after 5 s), and
 * its log still takes messages then. What the provider can only say once every resource was checked
 * (`service/missing-records.ts`) is said there: a preview ends a moment after its last `diff`, with
 * no call that says it was the last.
 *
 * Installed in the dynamic provider host only: the process exits once `beforeExit` settles, or after
 * `graceMs`, whichever comes first, as it would have on the signal. The grace is well inside the
 * engine's 5 s but not tight: on a loaded machine a warning's way to the engine can take longer than 250 ms,
 * and the Stack row would then say nothing of what was missing.
 */
export function sayBeforeClosing(beforeExit: () => Promise<void>, graceMs = 2000): void {
  let closing = false;
  const close = (signal: NodeJS.Signals): void => {
    if (closing) return;
    closing = true;
    const exit = (): never => process.exit(signal === "SIGINT" ? 130 : 143);
    setTimeout(exit, graceMs).unref();
    beforeExit().then(exit, exit);
  };
  process.once("SIGINT", close);
  process.once("SIGTERM", close);
}
