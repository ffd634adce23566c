/**
 * `pulumi-wws/watch`: the drift watch as a library, for portals built on the Automation API.
 * `npx pulumi-wws watch` is a thin frame over it.
 */
import { Watch, type WatchOptions } from "./watcher";

export { Watch, type WatchOptions };
export type { Finding } from "./finding";
export { lineOf } from "./finding";

/** Starts a watch of `options.stacks` (run in the project's directory); resolves once it watches. */
export async function watchStacks(options: WatchOptions): Promise<Watch> {
  const watch = new Watch(options);
  await watch.start();
  return watch;
}
export {
  startDelivery,
  verifySignature,
  signatureOf,
  slackMessageOf,
  SIGNATURE_HEADER,
  FINDING_ID_HEADER,
  type Delivery,
  type DeliveryOptions,
} from "./deliver";
