/**
 * What this package's own layers (the watch's webhooks) share with the SDK and the SDK keeps out of
 * `pulumi-wws/sdk` (test/sdk/package.test.ts): package.json exports no entry for this file, so
 * nothing here is promised to other callers. A name comes here, not into the barrel's last block,
 * when the SDK's barrel must keep it internal.
 */
export { parseRetryAfter } from "./retry/retry-after";
