/**
 * The error shape the dynamic provider host turns into a resource with init errors
 * (`@pulumi/pulumi` cmd/dynamic-provider/index.js `grpcResponseFromError`): when a thrown error
 * carries `id`, the host packs `{id, properties, reasons}` into `ErrorResourceInitFailed`, and the
 * engine records the resource in state with `reasons` as its init errors instead of forgetting it.
 * The next `pulumi up` sees the init errors and updates the resource, which waits again.
 *
 * `properties` becomes the resource's outputs in state, so it must carry `__provider` (the host
 * adds it only on success) and is subject to the same secret rules as any outputs.
 * `@pulumi/pulumi` exports no class for this (3.259 and 3.270 alike): the host reads plain fields.
 */
export class ResourceInitError extends Error {
  constructor(
    message: string,
    readonly id: string,
    readonly properties: Record<string, unknown>,
    readonly reasons: string[] = [message],
  ) {
    super(message);
    this.name = "ResourceInitError";
    // The host logs `stack`; frames of this package are noise to a user reading `pulumi up`.
    this.stack = `${this.name}: ${message}`;
  }
}
