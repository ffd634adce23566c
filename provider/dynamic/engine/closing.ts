/**
 * The engine closes a provider at the end of every run with SIGINT (seen with the CLI of
 * `test/e2e/harness.ts`: the process then has a few hundred milliseconds before it is killed), and
 * its log still takes messages then. What the provider can only say once every resource was checked
 * (`service/missing-records.ts`) is said there: a preview ends a moment after its last `diff`, with
 * no call that says it was the last.
 *
 * Installed in the dynamic provider host only: the process exits once `beforeExit` settles, or after
 * `graceMs`, whichever comes first, as it would have on the signal.
 */
export function sayBeforeClosing(beforeExit: () => Promise<void>, graceMs = 250): void {
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
