/** Where the resource classes live: frames in files under it are this package's. */
const OWN_DIR = `${__dirname}/`;

/**
 * What a stack trace taken while one of our classes registers keeps: every frame up to and with
 * the first of this package (the one level of subclass `@pulumi/pulumi` skips when it takes the
 * resource's source position), none of ours after it. The position in the state is then the
 * program's own `new Pod(…)`, not a line of `pulumi-wws`.
 */
export function withoutOwnFrames<T>(frames: readonly T[], fileOf: (frame: T) => string | null | undefined): T[] {
  const first = frames.findIndex((f) => fileOf(f)?.startsWith(OWN_DIR));
  if (first < 0) return [...frames];
  return frames.filter((f, i) => i <= first || !fileOf(f)?.startsWith(OWN_DIR));
}

/**
 * Sets how stack traces are taken while `super` registers a resource, and returns what puts it
 * back. Two things change for that moment:
 *
 * - `Error.stackTraceLimit` 0: `@pulumi/pulumi` makes four promises per input key and captures a
 *   stack trace for each (64 of a Pod's 75 traces), which only `PULUMI_DEBUG_PROMISE_LEAKS` ever
 *   shows; the program host maps every frame of each through source maps (source-map-support), so
 *   they were most of a program's CPU: 20.5 ms a pod, 3.7 ms with none (2,000 pods, the SDK's
 *   mocks, source-map-support on). Not while that variable is set. The resource's source position
 *   is taken with the SDK's own limit, unchanged.
 * - the frames of our classes are left out of that position (`withoutOwnFrames`): two frames,
 *   about 190 bytes a resource, one ninth of a Pod in the checkpoint the CLI rewrites after
 *   every step.
 */
export function quietRegistrationTraces(): () => void {
  const { stackTraceLimit, prepareStackTrace } = Error;
  if (!process.env.PULUMI_DEBUG_PROMISE_LEAKS) Error.stackTraceLimit = 0;
  Error.prepareStackTrace = (err, frames) => {
    const kept = withoutOwnFrames(frames, (f) => f.getFileName());
    if (prepareStackTrace) return prepareStackTrace(err, kept);
    return [String(err), ...kept.map((f) => `    at ${String(f)}`)].join("\n");
  };
  return () => {
    Error.stackTraceLimit = stackTraceLimit;
    Error.prepareStackTrace = prepareStackTrace;
  };
}
